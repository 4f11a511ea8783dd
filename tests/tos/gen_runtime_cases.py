#!/usr/bin/env python3
"""The cases of runtime_helpers_are_exact (a TOS program that checks the 68010 runtime,
firmware/lib/runtime): inputs and bit-exact expected results, computed on the host, written
as a C header.

    gen_runtime_cases.py OUTPUT.h

Floating-point results are computed twice, independently: exactly, with fractions.Fraction and
an explicit round-to-nearest-even into binary32 / binary64 (with denormals, overflow to
infinity, signed zeros, NaN); and with the host's IEEE doubles (and, for binary32, a double
result rounded with struct.pack('>f'), which is exact for +, -, *, / since 53 >= 2 * 24 + 2).
The generator stops if the two disagree. A NaN result is written as 0x7FC00000 /
0x7FF8000000000000; the test compares NaN-ness (and that it is quiet), not the payload.

What C leaves undefined is left out (integer division by zero except the documented unsigned
case, INT_MIN / -1) or follows the runtime's documented choices: a float to integer
conversion saturates, a NaN converts to 0. No extra packages: random cases come from a fixed
seed, so the header is the same on every run.
"""
import math
import os
import random
import struct
import sys
from fractions import Fraction

M32, M64 = (1 << 32) - 1, (1 << 64) - 1


# ---- IEEE formats -----------------------------------------------------------------------

class Fmt:
    def __init__(self, ebits, mbits):
        self.ebits, self.mbits = ebits, mbits
        self.bias = (1 << (ebits - 1)) - 1
        self.width = 1 + ebits + mbits
        self.sign = 1 << (self.width - 1)
        self.inf = ((1 << ebits) - 1) << mbits
        self.qnan = self.inf | (1 << (mbits - 1))
        self.frac = (1 << mbits) - 1
        self.ties = 0  # how many results fell exactly halfway (rounding ties seen)

    def is_nan(self, b):
        return (b & ~self.sign) > self.inf

    def is_inf(self, b):
        return (b & ~self.sign) == self.inf

    def is_zero(self, b):
        return (b & ~self.sign) == 0

    def neg(self, b):
        return b & self.sign != 0

    def value(self, b):
        """Exact value of a finite pattern."""
        e = (b >> self.mbits) & ((1 << self.ebits) - 1)
        f = b & self.frac
        v = Fraction(f, 1 << self.mbits) * Fraction(2) ** (1 - self.bias) if e == 0 else \
            Fraction((1 << self.mbits) + f, 1 << self.mbits) * Fraction(2) ** (e - self.bias)
        return -v if self.neg(b) else v

    def round(self, x, negative_zero=False):
        """x (a Fraction) rounded to nearest even: a pattern. A zero result keeps the sign
        of x (or negative_zero when x is 0)."""
        if x == 0:
            return self.sign if negative_zero else 0
        sign = self.sign if x < 0 else 0
        a = abs(x)
        e = a.numerator.bit_length() - a.denominator.bit_length()
        if a < Fraction(2) ** e:
            e -= 1
        emin = 1 - self.bias
        e = max(e, emin)
        n = a / Fraction(2) ** (e - self.mbits)  # the significand in units of the last place
        q, r = divmod(n.numerator, n.denominator)
        half = Fraction(r, n.denominator)
        self.ties += half == Fraction(1, 2)
        if half > Fraction(1, 2) or (half == Fraction(1, 2) and q & 1):
            q += 1
        if q == 1 << (self.mbits + 1):
            q >>= 1
            e += 1
        if e > self.bias:
            return sign | self.inf
        if q < 1 << self.mbits:  # denormal (or zero)
            return sign | q
        return sign | ((e + self.bias) << self.mbits) | (q & self.frac)


F32, F64 = Fmt(8, 23), Fmt(11, 52)


def host_f32(b):
    return struct.unpack('>f', struct.pack('>I', b))[0]


def host_f64(b):
    return struct.unpack('>d', struct.pack('>Q', b))[0]


def bits_f64(x):
    return struct.unpack('>Q', struct.pack('>d', x))[0]


def bits_f32(x):
    try:
        return struct.unpack('>I', struct.pack('>f', x))[0]
    except OverflowError:  # struct refuses what rounds to infinity
        return 0x7F800000 | (0x80000000 if x < 0 else 0)


# ---- exact operations ---------------------------------------------------------------------

def op_add(fmt, a, b):
    if fmt.is_nan(a) or fmt.is_nan(b):
        return fmt.qnan
    if fmt.is_inf(a) and fmt.is_inf(b):
        return a if a == b else fmt.qnan
    if fmt.is_inf(a):
        return a
    if fmt.is_inf(b):
        return b
    x = fmt.value(a) + fmt.value(b)
    if x == 0:  # x + (-x) = +0; -0 + -0 = -0
        return fmt.round(x, negative_zero=fmt.neg(a) and fmt.neg(b) and fmt.is_zero(a) and fmt.is_zero(b))
    return fmt.round(x)


def op_sub(fmt, a, b):
    return op_add(fmt, a, b ^ fmt.sign)


def op_mul(fmt, a, b):
    sign = (a ^ b) & fmt.sign
    if fmt.is_nan(a) or fmt.is_nan(b):
        return fmt.qnan
    if fmt.is_inf(a) or fmt.is_inf(b):
        return fmt.qnan if fmt.is_zero(a) or fmt.is_zero(b) else sign | fmt.inf
    x = fmt.value(a) * fmt.value(b)
    return fmt.round(x, negative_zero=bool(sign)) if x else sign


def op_div(fmt, a, b):
    sign = (a ^ b) & fmt.sign
    if fmt.is_nan(a) or fmt.is_nan(b):
        return fmt.qnan
    if fmt.is_inf(a):
        return fmt.qnan if fmt.is_inf(b) else sign | fmt.inf
    if fmt.is_inf(b):
        return sign
    if fmt.is_zero(b):
        return fmt.qnan if fmt.is_zero(a) else sign | fmt.inf
    if fmt.is_zero(a):
        return sign
    return fmt.round(fmt.value(a) / fmt.value(b))


def relation(fmt, a, b):
    """'l', 'e', 'g' for a < b, a == b, a > b; 'u' when a NaN makes them unordered."""
    if fmt.is_nan(a) or fmt.is_nan(b):
        return 'u'

    def key(v):
        return (-math.inf if fmt.neg(v) else math.inf) if fmt.is_inf(v) else fmt.value(v)

    ka, kb = key(a), key(b)
    return 'l' if ka < kb else 'e' if ka == kb else 'g'


def powi(fmt, x, m):
    """libgcc's __powisf2 / __powidf2: repeated squaring, every product rounded."""
    n = abs(m)
    y = x if n % 2 else (0x3F800000 if fmt is F32 else 0x3FF0000000000000)
    n >>= 1
    while n:
        x = op_mul(fmt, x, x)
        if n % 2:
            y = op_mul(fmt, y, x)
        n >>= 1
    return op_div(fmt, 0x3F800000 if fmt is F32 else 0x3FF0000000000000, y) if m < 0 else y


def to_int(fmt, b, bits, signed):
    """Truncation toward zero, saturating; NaN -> 0; negative -> 0 for unsigned."""
    if fmt.is_nan(b):
        return 0
    lo, hi = (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if signed else (0, (1 << bits) - 1)
    if fmt.is_inf(b):
        return lo if fmt.neg(b) else hi
    v = fmt.value(b)
    t = math.trunc(v)
    return min(max(t, lo), hi)


# ---- cross-check against the host ---------------------------------------------------------

def host_check(fmt, name, a, b, got):
    """The host FPU must agree with the exact computation."""
    if fmt is F64:
        x, y = host_f64(a), host_f64(b)
        to_bits = bits_f64
    else:
        x, y = host_f32(a), host_f32(b)
        to_bits = bits_f32
    try:
        r = {'add': lambda: x + y, 'sub': lambda: x - y, 'mul': lambda: x * y,
             'div': lambda: x / y}[name]()
    except ZeroDivisionError:
        r = math.nan if x == 0 or math.isnan(x) else math.copysign(math.inf, x) * math.copysign(1, y)
    except OverflowError:
        r = math.copysign(math.inf, x)
    if math.isnan(r):
        ok = fmt.is_nan(got)
    else:
        ok = to_bits(r) == got
    if not ok:
        sys.exit('gen_runtime_cases: %s %s(%x, %x): exact %x, host %r' % (
            'f64' if fmt is F64 else 'f32', name, a, b, got, r))


# ---- case sets ----------------------------------------------------------------------------

rng = random.Random(14)  # issue #14


def special(fmt):
    mb, bias = fmt.mbits, fmt.bias
    one = bias << mb
    vals = [0, fmt.sign, 1, fmt.frac, 0x12345 & fmt.frac, 1 << mb,  # zero, -0, denormals, min normal
            one, one | 1, one - 1, one | (1 << (mb - 1)), (bias + 1) << mb,  # 1, 1+ulp, 1-ulp/2, 1.5, 2
            fmt.inf - 1, fmt.inf, fmt.qnan, fmt.inf | 1,  # max, inf, qNaN, sNaN
            ((bias - 4) << mb) | (0x4CCCCCCCCCCCCD & fmt.frac)]  # ~0.1
    return vals + [v ^ fmt.sign for v in vals if v not in (0, fmt.sign)]


def random_value(fmt):
    kind = rng.randrange(6)
    sign = fmt.sign if rng.randrange(2) else 0
    f = rng.getrandbits(fmt.mbits)
    emax = (1 << fmt.ebits) - 2
    if kind == 0:
        e = rng.randrange(1, emax + 1)  # any normal
    elif kind == 1:
        e = fmt.bias + rng.randrange(-8, 9)  # near 1
    elif kind == 2:
        e = 0  # denormal
    elif kind == 3:
        e = rng.choice([1, 2, emax - 1, emax])  # the edges
    elif kind == 4:  # a short significand: sums and products often fall exactly halfway
        e = fmt.bias + rng.randrange(-3, 4)
        f &= ~((1 << (fmt.mbits - 12)) - 1)
    else:
        e = rng.randrange(1, emax + 1)
        f = rng.choice([0, fmt.frac, 1, fmt.frac - 1])
    return sign | (e << fmt.mbits) | f


def directed_pairs(fmt):
    mb, bias, S = fmt.mbits, fmt.bias, fmt.sign
    one = bias << mb
    def p2(k):  # 2^k as a pattern (normal range)
        return (k + bias) << mb
    half_ulp1 = p2(-mb - 1)
    maxv = fmt.inf - 1
    return [
        ('1 + half ulp: tie to even (down)', one, half_ulp1),
        ('1+ulp + half ulp: tie to even (up)', one | 1, half_ulp1),
        ('1 + just above half ulp', one, half_ulp1 | 1),
        ('max + half ulp(max): tie, overflow', maxv, p2(bias - mb - 1)),
        ('max + quarter ulp(max): stays max', maxv, p2(bias - mb - 2)),
        ('max + max: overflow', maxv, maxv),
        ('max * 2: overflow', maxv, p2(1)),
        ('-max * 2: overflow', maxv | S, p2(1)),
        ('min normal - min denormal', 1 << mb, 1 | S),
        ('min normal / 2: denormal', 1 << mb, p2(1)),
        ('3 denormal units / 2: tie to even (up)', 3, p2(1)),
        ('5 denormal units / 2: tie to even (down)', 5, p2(1)),
        ('min denormal / 2: tie to zero', 1, p2(1)),
        ('-min denormal / 2: -0', 1 | S, p2(1)),
        ('min denormal * 0.75: rounds up', 1, p2(-1) | (1 << (mb - 1))),
        ('min normal * min normal: underflow to 0', 1 << mb, 1 << mb),
        ('denormal + denormal', fmt.frac, fmt.frac),
        ('x - x = +0', one | 12345, one | 12345),
        ('cancellation to one ulp', one | 1, one),
        ('large exponent difference', p2(40), p2(-40) | 5),
        ('1 / 3', one, p2(1) | (1 << (mb - 1))),
        ('2 / 3', p2(1), p2(1) | (1 << (mb - 1))),
        ('inf - inf', fmt.inf, fmt.inf),
        ('0 * inf', 0, fmt.inf),
        ('-0 + -0', S, S),
        ('max / min denormal: overflow', maxv, 1),
        ('min denormal / max: underflow', 1, maxv),
    ]


def float_cases(fmt):
    sp = special(fmt)
    pairs = [('special', a, b) for a in sp for b in sp]
    pairs += directed_pairs(fmt)
    pairs += [('', random_value(fmt), random_value(fmt)) for _ in range(300)]
    rows = []
    ties = {}
    for what, a, b in pairs:
        res = {}
        for name, op in (('add', op_add), ('sub', op_sub), ('mul', op_mul), ('div', op_div)):
            before = fmt.ties
            res[name] = op(fmt, a, b)
            ties[name] = ties.get(name, 0) + fmt.ties - before
            host_check(fmt, name, a, b, res[name])
        rows.append((what, a, b, res['add'], res['sub'], res['mul'], res['div'], relation(fmt, a, b)))
    for name in ('add', 'sub', 'mul', 'div'):
        if ties[name] < 3:
            sys.exit('gen_runtime_cases: only %d rounding ties among the %s cases' % (ties[name], name))
    return rows


def conversions_from_float(fmt):
    S, mb, bias = fmt.sign, fmt.mbits, fmt.bias
    def p2(k):
        return (k + bias) << mb
    vals = special(fmt) + [
        p2(-1), p2(-1) | S,  # 0.5, -0.5
        p2(0) | (1 << (mb - 1)) | S,  # -1.5
        p2(31) - 1, p2(31), p2(31) | S, (p2(31) | S) + 1,  # 2^31 - ulp, 2^31, -2^31, beyond
        p2(32) - 1, p2(32),  # 2^32 - ulp, 2^32
        p2(63) - 1, p2(63), p2(63) | S, (p2(63) | S) + 1,
        p2(64) - 1, p2(64), p2(0) | S, p2(100),
    ]
    vals += [random_value(fmt) for _ in range(60)]
    vals += [p2(rng.randrange(0, 64)) | rng.getrandbits(mb) | (S if rng.randrange(2) else 0) for _ in range(60)]
    rows = []
    for v in vals:
        other = F64 if fmt is F32 else F32
        if fmt.is_nan(v):
            conv = other.qnan
        elif fmt.is_inf(v):
            conv = other.inf | (other.sign if fmt.neg(v) else 0)
        elif fmt.is_zero(v):
            conv = other.sign if fmt.neg(v) else 0
        else:
            conv = other.round(fmt.value(v))
        # cross-check the float <-> double conversion with the host
        if fmt is F32:
            assert fmt.is_nan(v) or bits_f64(host_f32(v)) == conv
        else:
            assert fmt.is_nan(v) or bits_f32(host_f64(v)) == conv
        rows.append((v, to_int(fmt, v, 32, True), to_int(fmt, v, 32, False),
                     to_int(fmt, v, 64, True), to_int(fmt, v, 64, False), conv))
    return rows


def trunc_directed():
    """double -> float edge cases."""
    def d(x):
        return bits_f64(x)
    return [d(1 + 2 ** -24), d(1 + 2 ** -24 + 2 ** -50), d(1 + 3 * 2 ** -24),
            d(3.4028235677973366e38), d(3.4028235677973362e38), d(3.4028234663852886e38 * 1.0000001),
            d(2 ** -149 * 1.5), d(2 ** -150), d(2 ** -150 * 1.0000001), d(2 ** -149 * 2.5),
            d(2 ** -126 * (1 - 2 ** -25)), d(5e-324), d(2.2250738585072009e-308), d(1e300), d(-1e-300)]


def int_to_float_cases():
    s32 = [0, 1, M32, 0x7FFFFFFF, 0x80000000, 0x80000001, (1 << 24) + 1, (1 << 24) + 3, (1 << 24) + 2,
           0xFFFFFF80, 0xFFFFFF7F, 0xFFFFFFC0, 0x7FFFFFC0, 0x7FFFFF40, 0xFF000001, 12345, 0xFFFF8000]
    s32 += [rng.getrandbits(32) >> rng.randrange(32) for _ in range(40)]
    s64 = [0, 1, M64, (1 << 63) - 1, 1 << 63, (1 << 63) + 1, (1 << 53) + 1, (1 << 53) + 3,
           (1 << 24) + 1, M64 - 1024, M64 - 1023, M64 - 2047, 0xFFFFFF8000000000, 0x7FFFFFFFFFFFFC00,
           0x7FFFFFFFFFFFFE00, 0xFFFFFFFFFFFFF800, 0x8000000000000400, 1 << 32, (1 << 32) - 1]
    s64 += [rng.getrandbits(64) >> rng.randrange(64) for _ in range(60)]
    def sx(v, bits):
        return v - (1 << bits) if v >> (bits - 1) else v
    r32 = [(v, F32.round(Fraction(sx(v, 32))), F32.round(Fraction(v)), F64.round(Fraction(sx(v, 32))),
            F64.round(Fraction(v))) for v in s32]
    r64 = [(v, F32.round(Fraction(sx(v, 64))), F32.round(Fraction(v)), F64.round(Fraction(sx(v, 64))),
            F64.round(Fraction(v))) for v in s64]
    for v, a, b, c, dd in r32:
        assert bits_f32(float(sx(v, 32))) == a and bits_f64(float(v)) == dd
    for v, a, b, c, dd in r64:
        assert bits_f64(float(sx(v, 64))) == c and bits_f64(float(v)) == dd
    return r32, r64


# ---- integers -----------------------------------------------------------------------------

def sx(v, bits):
    return v - (1 << bits) if v >> (bits - 1) else v


def tdiv(n, d):
    q = abs(n) // abs(d)
    return q if (n < 0) == (d < 0) else -q


def int64_cases():
    vals = [0, 1, M64, 2, M64 - 1, 3, 7, 10, (1 << 63) - 1, 1 << 63, (1 << 63) + 1, 1 << 32,
            (1 << 32) - 1, (1 << 32) + 1, 1 << 31, (M64 << 31) & M64, 0xFFFFFFFF00000000,
            0x123456789ABCDEF0, 0xFEDCBA9876543210, 1000000007]
    pairs = [(a, b) for a in vals for b in vals]
    pairs += [(rng.getrandbits(64) >> rng.randrange(64), rng.getrandbits(64) >> rng.randrange(64))
              for _ in range(150)]
    rows = []
    for a, b in pairs:
        sa, sb = sx(a, 64), sx(b, 64)
        mul = (a * b) & M64
        if b == 0:
            udiv, umod = M64, a  # documented: quotient all ones, remainder the dividend
            sdiv = smod = None
        else:
            udiv, umod = a // b, a % b
            if sa == -(1 << 63) and sb == -1:
                sdiv = smod = None
            else:
                sdiv = tdiv(sa, sb) & M64
                smod = (sa - tdiv(sa, sb) * sb) & M64
        cmp = 0 if sa < sb else 1 if sa == sb else 2
        ucmp = 0 if a < b else 1 if a == b else 2
        rows.append((a, b, mul, udiv, umod, sdiv, smod, cmp, ucmp))
    return rows


def int32_cases():
    vals = [0, 1, M32, 2, 3, 7, 10, 0x7FFFFFFF, 0x80000000, 0x80000001, 0xFFFF, 0x10000, 0x10001,
            0xFFFF0000, 12345678, 0xDEADBEEF]
    pairs = [(a, b) for a in vals for b in vals]
    pairs += [(rng.getrandbits(32) >> rng.randrange(32), rng.getrandbits(32) >> rng.randrange(32))
              for _ in range(100)]
    rows = []
    for a, b in pairs:
        sa, sb = sx(a, 32), sx(b, 32)
        mul = (a * b) & M32
        if b == 0:
            udiv, umod, sdiv, smod = M32, a, None, None
        else:
            udiv, umod = a // b, a % b
            if sa == -(1 << 31) and sb == -1:
                sdiv = smod = None
            else:
                sdiv = tdiv(sa, sb) & M32
                smod = (sa - tdiv(sa, sb) * sb) & M32
        rows.append((a, b, mul, udiv, umod, sdiv, smod))
    return rows


def shift_cases():
    vals = [0x8000000000000001, 0x0123456789ABCDEF, 0xFEDCBA9876543210, M64, 1]
    rows = []
    for v in vals:
        for n in range(64):
            rows.append((v, n, (v << n) & M64, v >> n, (sx(v, 64) >> n) & M64))
    return rows


def bit_cases():
    vals = [0, 1, M64, 1 << 63, 0x8000000000000001, 0x0000000100000000, 0x00000000FFFFFFFF,
            0xFFFFFFFF00000000, 0x0123456789ABCDEF, 0x00F0000000000000, 0x0000000000000F00]
    vals += [rng.getrandbits(64) >> rng.randrange(64) for _ in range(30)]
    rows = []
    for v in vals:
        lo = v & M32
        def clz(x, bits):
            return bits - x.bit_length()
        def ctz(x, bits):
            return (x & -x).bit_length() - 1 if x else bits
        def ffs(x):
            return (x & -x).bit_length()
        rows.append((v, clz(lo, 32), clz(v, 64), ctz(lo, 32), ctz(v, 64), ffs(lo), ffs(v),
                     bin(lo).count('1'), bin(v).count('1'), bin(lo).count('1') & 1,
                     bin(v).count('1') & 1, int.from_bytes(lo.to_bytes(4, 'big'), 'little'),
                     int.from_bytes(v.to_bytes(8, 'big'), 'little')))
    return rows


def powi_cases(fmt):
    bases = [0x3F800000 if fmt is F32 else 0x3FF0000000000000]
    one = fmt.bias << fmt.mbits
    bases += [one | (1 << (fmt.mbits - 1)), (fmt.bias + 1) << fmt.mbits, ((fmt.bias - 1) << fmt.mbits) | 5,
              (one | 3) | fmt.sign, 0, fmt.sign, fmt.inf, fmt.qnan, 1, fmt.inf - 1]
    bases += [random_value(fmt) for _ in range(10)]
    rows = []
    for b in bases:
        for n in (0, 1, 2, 3, 7, 10, 31, -1, -2, -5, -31, 64, -128):
            if fmt.is_nan(b) and n in (0, 1):
                continue  # libgcc returns x itself (or 1): no operation to quiet a NaN
            rows.append((b, n, powi(fmt, b, n)))
    return rows


# ---- output -------------------------------------------------------------------------------

def c_str(s):
    return '"%s"' % s.replace('\\', '\\\\').replace('"', '\\"')


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    out = []
    w = out.append
    w('/* Generated by tests/tos/gen_runtime_cases.py - do not edit. Inputs and bit-exact results,')
    w(' * computed on the host, for runtime_helpers_are_exact.c. */')
    w('#include <stdint.h>')
    w('#define NAN32 0x7FC00000u')
    w('#define NAN64 0x7FF8000000000000ull')
    w('#define NONE 0 /* no expected value: undefined in C */')

    def h32(v):
        return '0x%08Xu' % v

    def h64(v):
        return '0x%016Xull' % v

    for fmt, tag, hx in ((F32, 'f32', h32), (F64, 'f64', h64)):
        ty = 'uint32_t' if fmt is F32 else 'uint64_t'
        w('struct %s_case { const char *what; %s a, b, add, sub, mul, div; char rel; };' % (tag, ty))
        w('static const struct %s_case %s_cases[] = {' % (tag, tag))
        for what, a, b, add, sub, mul, div, rel in float_cases(fmt):
            w('  {%s, %s, %s, %s, %s, %s, %s, \'%s\'},' % (c_str(what), hx(a), hx(b), hx(add), hx(sub),
                                                          hx(mul), hx(div), rel))
        w('};')
        other = h64 if fmt is F32 else h32
        w('struct %s_conv { %s a; int32_t i32; uint32_t u32; int64_t i64; uint64_t u64; %s other; };' % (
            tag, ty, 'uint64_t' if fmt is F32 else 'uint32_t'))
        w('static const struct %s_conv %s_convs[] = {' % (tag, tag))
        rows = conversions_from_float(fmt)
        if fmt is F64:
            for v in trunc_directed():
                rows.append((v, to_int(F64, v, 32, True), to_int(F64, v, 32, False), to_int(F64, v, 64, True),
                             to_int(F64, v, 64, False), F32.round(F64.value(v))))
                assert bits_f32(host_f64(v)) == rows[-1][5]
        for a, i32, u32, i64, u64, conv in rows:
            w('  {%s, (int32_t)%s, %s, (int64_t)%s, %s, %s},' % (hx(a), h32(i32 & M32), h32(u32), h64(i64 & M64),
                                                                h64(u64), other(conv)))
        w('};')
        w('struct %s_powi { %s a; int n; %s r; };' % (tag, ty, ty))
        w('static const struct %s_powi %s_powis[] = {' % (tag, tag))
        for b, n, r in powi_cases(fmt):
            w('  {%s, %d, %s},' % (hx(b), n, hx(r)))
        w('};')

    r32, r64 = int_to_float_cases()
    w('/* integer -> float: the integer, then (signed) float, (unsigned) float, (signed) double, (unsigned) double */')
    w('struct i32_tofloat { uint32_t v; uint32_t sf, uf; uint64_t sd, ud; };')
    w('static const struct i32_tofloat i32_tofloats[] = {')
    for v, a, b, c, d in r32:
        w('  {%s, %s, %s, %s, %s},' % (h32(v), h32(a), h32(b), h64(c), h64(d)))
    w('};')
    w('struct i64_tofloat { uint64_t v; uint32_t sf, uf; uint64_t sd, ud; };')
    w('static const struct i64_tofloat i64_tofloats[] = {')
    for v, a, b, c, d in r64:
        w('  {%s, %s, %s, %s, %s},' % (h64(v), h32(a), h32(b), h64(c), h64(d)))
    w('};')

    w('/* has: bit 0 = signed quotient and remainder defined */')
    w('struct i64_case { uint64_t a, b, mul, udiv, umod, sdiv, smod; char has, cmp, ucmp; };')
    w('static const struct i64_case i64_cases[] = {')
    for a, b, mul, udiv, umod, sdiv, smod, cmp, ucmp in int64_cases():
        w('  {%s, %s, %s, %s, %s, %s, %s, %d, %d, %d},' % (
            h64(a), h64(b), h64(mul), h64(udiv), h64(umod), h64(sdiv or 0), h64(smod or 0),
            sdiv is not None, cmp, ucmp))
    w('};')
    w('struct i32_case { uint32_t a, b, mul, udiv, umod, sdiv, smod; char has; };')
    w('static const struct i32_case i32_cases[] = {')
    for a, b, mul, udiv, umod, sdiv, smod in int32_cases():
        w('  {%s, %s, %s, %s, %s, %s, %s, %d},' % (h32(a), h32(b), h32(mul), h32(udiv), h32(umod),
                                                 h32(sdiv or 0), h32(smod or 0), sdiv is not None))
    w('};')
    w('struct shift_case { uint64_t v; int n; uint64_t shl, lshr, ashr; };')
    w('static const struct shift_case shift_cases[] = {')
    for v, n, a, b, c in shift_cases():
        w('  {%s, %d, %s, %s, %s},' % (h64(v), n, h64(a), h64(b), h64(c)))
    w('};')
    w('struct bit_case { uint64_t v; char clz32, clz64, ctz32, ctz64, ffs32, ffs64, pop32, pop64, par32, par64;')
    w('                  uint32_t bswap32; uint64_t bswap64; };')
    w('static const struct bit_case bit_cases[] = {')
    for row in bit_cases():
        w('  {%s, %s, %s, %s},' % (h64(row[0]), ', '.join(str(x) for x in row[1:11]), h32(row[11]), h64(row[12])))
    w('};')
    text = '\n'.join(out) + '\n'
    try:
        with open(sys.argv[1]) as f:
            if f.read() == text:
                return 0
    except OSError:
        pass
    os.makedirs(os.path.dirname(os.path.abspath(sys.argv[1])), exist_ok=True)
    with open(sys.argv[1], 'w') as f:
        f.write(text)
    return 0


if __name__ == '__main__':
    sys.exit(main())
