#!/usr/bin/env python3
"""The printf cases of libc_printf_matches_host: formats crossed with values, each formatted by
the host's C library (its snprintf, called through ctypes), written as a C header for the TOS
program, which formats the same on the simulated 68010 and compares.

    gen_libc_printf_matches_host.py OUT.h

Every C99 conversion with every length modifier (hh h l ll j z t), flags, widths and
precisions given literally and through '*', for integers at their limits and random ones, and
doubles: zeros, denormals, the limits, infinities, NaN, rounding ties and random magnitudes.
Values fit the 68010's types (int and long 32 bits, size_t 32 bits, intmax_t 64 bits): on the
host each argument is passed with the C type its length modifier names. Each expected output is
stored as its length and a 32-bit FNV-1a hash (the strings would not fit a TOS program); a
mismatch prints the format, the value and what the 68010 printed. The table is deterministic
(fixed seed)."""
import ctypes
import random
import struct
import sys

libc = ctypes.CDLL(None)
snprintf = libc.snprintf

# argument kinds (the program's switch): integers by the C type the length modifier reads
K_INT, K_UINT, K_LONG, K_ULONG, K_LL, K_ULL, K_DOUBLE, K_STR, K_CHAR = range(9)

def fnv(b):
    h = 0x811C9DC5
    for c in b:
        h = ((h ^ c) * 0x01000193) & 0xFFFFFFFF
    return h

def host_format(fmt, kind, stars, value):
    buf = ctypes.create_string_buffer(512)
    args = [ctypes.c_int(s) for s in stars]
    if kind == K_INT:
        args.append(ctypes.c_int(value))
    elif kind == K_UINT:
        args.append(ctypes.c_uint(value))
    elif kind in (K_LONG, K_ULONG, K_LL, K_ULL):
        # l, z, t are 32 bits on the 68010 and 64 on the host: the host gets the 64-bit type
        # with the value the 68010 would have (it fits)
        args.append(ctypes.c_longlong(value) if kind in (K_LONG, K_LL) else ctypes.c_ulonglong(value))
    elif kind == K_DOUBLE:
        args.append(ctypes.c_double(value))
    elif kind == K_STR:
        args.append(ctypes.c_char_p(value.encode()))
    elif kind == K_CHAR:
        args.append(ctypes.c_int(value))
    n = snprintf(buf, 512, fmt.encode(), *args)
    assert 0 <= n < 512, fmt
    return buf.raw[:n]

rng = random.Random(2026)
formats = []   # distinct format strings
cases = []     # (format index, kind, star width, star precision, value)

def add(fmt, kind, values, stars=()):
    if fmt not in formats:
        formats.append(fmt)
    fi = formats.index(fmt)
    for v in values:
        cases.append((fi, kind, stars, v))

def ints(bits, signed, n):
    lo, hi = (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if signed else (0, (1 << bits) - 1)
    edge = [0, 1, 7, 10, 255, 256, 65535, 65536, lo, hi, hi - 1, lo + 1, -1, -128, 127, 128, -129, 32767, -32768]
    vals = [v for v in edge if lo <= v <= hi]
    for _ in range(n):
        b = rng.randint(1, bits)
        v = rng.getrandbits(b)
        if signed and rng.random() < 0.5:
            v = -v
        if lo <= v <= hi:
            vals.append(v)
    return vals

flags_int = ["", "-", "+", " ", "0", "#", "-+", "+0", " 0", "#0", "-#"]
widths = ["", "1", "6", "14"]
precs = ["", ".0", ".1", ".5", ".12"]

# integers: every conversion with every length modifier (the host's argument type by the
# 68010's width: hh/h/none int, l long (32), ll/j long long, z size_t (32), t ptrdiff_t (32))
lengths = [("hh", 32, K_INT, K_UINT), ("h", 32, K_INT, K_UINT), ("", 32, K_INT, K_UINT),
           ("l", 32, K_LONG, K_ULONG), ("ll", 64, K_LL, K_ULL), ("j", 64, K_LL, K_ULL),
           ("z", 32, K_LONG, K_ULONG), ("t", 32, K_LONG, K_ULONG)]
for lm, bits, ks, ku in lengths:
    for conv in "diouxX":
        signed = conv in "di"
        hostlm = {"l": "ll", "z": "ll", "t": "ll"}.get(lm, lm)
        vals = ints(bits, signed, 6)
        for fl in flags_int:
            if conv in "di" and "#" in fl:
                continue
            for w in widths:
                for p in precs:
                    if rng.random() < 0.6:
                        continue
                    fmt = "%" + fl + w + p + lm + conv
                    hostfmt = "%" + fl + w + p + hostlm + conv
                    add((fmt, hostfmt), ks if signed else ku, rng.sample(vals, 2))
        add(("[%*.*" + lm + conv + "]", "[%*.*" + hostlm + conv + "]"), ks if signed else ku, vals[:8], (9, 4))
        add(("[%-*" + lm + conv + "]", "[%-*" + hostlm + conv + "]"), ks if signed else ku, vals[:8], (-12,))

# doubles
specials = [0.0, -0.0, 1.0, -1.0, 0.5, 0.1, 0.125, 0.375, 2.5, 3.5, -2.5, 1e-5, 123456.789, 1e15, 1e16,
            1e21, 1e22, 1e100, 1e-100, 1e308, 1.7976931348623157e308, 2.2250738585072014e-308,
            5e-324, 1e-310, float("inf"), float("-inf"), float("nan"), 9.5, 99.5, 0.05, 0.15, 1.005,
            2.0 ** 52, 2.0 ** 53 + 2, 1.0 / 3.0, 2.0 / 3.0, 314.159265358979]
randoms = []
for _ in range(60):
    m = rng.uniform(1, 10) * (1 if rng.random() < 0.7 else -1)
    e = rng.randint(-30, 30)
    randoms.append(m * 10.0 ** e)
for _ in range(20):
    randoms.append(struct.unpack(">d", struct.pack(">Q", rng.getrandbits(63)))[0])
doubles = specials + randoms
flags_f = ["", "-", "+", " ", "0", "#", "+0", "-#", " #0"]
fprecs = ["", ".0", ".1", ".2", ".6", ".10", ".17"]
for conv in "fFeEgGaA":
    for fl in flags_f:
        for w in ["", "1", "12", "30"]:
            for p in fprecs:
                if rng.random() < 0.6:
                    continue
                fmt = "%" + fl + w + p + conv
                vals = rng.sample(doubles, 5)
                if conv in "fF":
                    vals = [v for v in vals if v != v or abs(v) < 1e60]
                add((fmt, fmt), K_DOUBLE, vals)
    add(("<%*.*" + conv + ">",) * 2, K_DOUBLE, specials[:20], (15, 3))
    add(("%l" + conv,) * 2, K_DOUBLE, specials[:10])   # %lf is %f (C99)
for v in doubles:
    add(("%.3f",) * 2, K_DOUBLE, [v] if v != v or abs(v) < 1e60 else [])
    add(("%g",) * 2, K_DOUBLE, [v])
    add(("%.17g",) * 2, K_DOUBLE, [v])
    add(("%e",) * 2, K_DOUBLE, [v])
    add(("%a",) * 2, K_DOUBLE, [v])

# strings and characters
strs = ["", "a", "hello", "Testbed 68010", "x" * 40]
for fl in ["", "-"]:
    for w in ["", "3", "20"]:
        for p in ["", ".0", ".2", ".10"]:
            add(("%" + fl + w + p + "s",) * 2, K_STR, strs)
for fl in ["", "-"]:
    for w in ["", "4"]:
        add(("%" + fl + w + "c",) * 2, K_CHAR, [65, 122, 48, 32, 126, 33])
add(("100%% %s",) * 2, K_STR, strs[:3])

def is_denormal(v):
    return v != 0 and abs(v) < 2.2250738585072014e-308

formats_out = []
fmt_index = {}
rows = []
glibc_bugs = left_out = 0
for fi, kind, stars, v in cases:
    fmt, hostfmt = formats[fi]
    # C99 leaves the digit before %a's point unspecified for a denormal: glibc writes
    # 0x0.xxxp-1022, newlib normalises to 0x1.xxxp-1074 (both exact): not compared
    if kind == K_DOUBLE and fmt[-1] in "aA" and is_denormal(v):
        left_out += 1
        continue
    out = host_format(hostfmt, kind, stars, v)
    # glibc's %#g drops the zero after the point when rounding carries into the next power of
    # ten (%#.2g of 99.5 gives "1.e+02"; C99 7.19.6.1 says "1.0e+02", as newlib and Python
    # print): there the table holds Python's formatting of the finite value, which follows the
    # standard (Python pads infinities and NaN with zeros, C does not: those stay glibc's)
    if kind == K_DOUBLE and "#" in fmt and fmt[-1] in "gG" and abs(v) < float("inf"):
        py = (fmt % (tuple(stars) + (v,))).encode()
        if py != out:
            glibc_bugs += 1
            out = py
    if fmt not in fmt_index:
        fmt_index[fmt] = len(formats_out)
        formats_out.append(fmt)
    rows.append((fmt_index[fmt], kind, stars, v, out))

def cstr(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'

with open(sys.argv[1], "w") as f:
    f.write("/* Generated by tests/tos/gen_libc_printf_matches_host.py: do not edit. */\n")
    f.write("#define N_FORMATS %d\n#define N_CASES %d\n" % (len(formats_out), len(rows)))
    f.write("static const char *const formats[N_FORMATS] = {\n")
    for s in formats_out:
        f.write("  %s,\n" % cstr(s))
    f.write("};\n")
    f.write("static const char *const strings[] = {\n")
    for s in strs:
        f.write("  %s,\n" % cstr(s))
    f.write("};\n")
    f.write("static const struct pcase cases[N_CASES] = {\n")
    for fi, kind, stars, v, out in rows:
        w = stars[0] if len(stars) > 0 else 0
        p = stars[1] if len(stars) > 1 else 0
        ns = len(stars)
        if kind == K_DOUBLE:
            bits = struct.unpack(">Q", struct.pack(">d", v))[0]
        elif kind == K_STR:
            bits = strs.index(v)
        else:
            bits = v & 0xFFFFFFFFFFFFFFFF
        f.write("  {%d, %d, %d, %d, %d, 0x%08xu, 0x%08xu, %du, 0x%08xu},\n" % (
            fi, kind, ns, w, p, bits >> 32, bits & 0xFFFFFFFF, len(out), fnv(out)))
    f.write("};\n")
print("gen_libc_printf_matches_host: %d cases, %d formats (%d %%a of denormals left out; %d where glibc's %%#g is wrong, as C99 says)"
      % (len(rows), len(formats_out), left_out, glibc_bugs))
