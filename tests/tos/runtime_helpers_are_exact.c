/* The 68010 runtime (firmware/lib/runtime) is exact: every helper, called the way GCC calls it
 * (C operators and casts on volatile operands, so nothing is folded at compile time) and, for
 * the ones GCC inlines or whose raw return value matters, directly - over a table of cases whose
 * bit-exact results were computed on the host (gen_runtime_cases.py, generated at build time
 * into runtime_cases.h): zeros of both signs, denormals, the smallest and largest normals,
 * infinities, NaNs (NaN-ness and quietness are compared, not payloads), rounding ties,
 * overflow and underflow, integer edge cases and conversions at the limits.
 *
 * Prints "FAIL: <helper> case <n> (<what>): ..." for each wrong result (the first 40) and
 * "runtime_helpers_are_exact: PASS" when there is none. */
#include <stdint.h>
#include <tos/tos.h>
#include "runtime_cases.h"

/* The helpers GCC inlines at -O2 (or whose return value convention is checked), called
 * directly. Their prototypes are libgcc's. */
float __negsf2(float);
double __negdf2(double);
int __eqsf2(float, float), __nesf2(float, float), __ltsf2(float, float), __lesf2(float, float);
int __gtsf2(float, float), __gesf2(float, float), __unordsf2(float, float);
int __eqdf2(double, double), __nedf2(double, double), __ltdf2(double, double);
int __ledf2(double, double), __gtdf2(double, double), __gedf2(double, double);
int __unorddf2(double, double);
long long __negdi2(long long);
int __cmpdi2(long long, long long), __ucmpdi2(unsigned long long, unsigned long long);
long long __ashldi3(long long, int), __ashrdi3(long long, int), __lshrdi3(long long, int);
int __clzsi2(unsigned), __clzdi2(unsigned long long), __ctzsi2(unsigned), __ctzdi2(unsigned long long);
int __ffssi2(unsigned), __ffsdi2(unsigned long long), __popcountsi2(unsigned);
int __popcountdi2(unsigned long long), __paritysi2(unsigned), __paritydi2(unsigned long long);
unsigned __bswapsi2(unsigned);
unsigned long long __bswapdi2(unsigned long long);
float __powisf2(float, int);
double __powidf2(double, int);

static int failures, checks;

static void fail(const char *helper, int n, const char *what, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void fail(const char *helper, int n, const char *what, const char *fmt, ...) {
  if (++failures > 40) return;
  va_list ap;
  va_start(ap, fmt);
  printf("FAIL: %s case %d%s%s%s: ", helper, n, *what ? " (" : "", what, *what ? ")" : "");
  vprintf(fmt, ap);
  printf("\n");
  va_end(ap);
}

/* ---- bit patterns ---- */
static float F(uint32_t u) {
  union { uint32_t u; float f; } x = {.u = u};
  return x.f;
}
static uint32_t UF(float f) {
  union { float f; uint32_t u; } x = {.f = f};
  return x.u;
}
static double D(uint64_t u) {
  union { uint64_t u; double d; } x = {.u = u};
  return x.d;
}
static uint64_t UD(double d) {
  union { double d; uint64_t u; } x = {.d = d};
  return x.u;
}
static unsigned H(uint64_t v) { return (unsigned)(v >> 32); }
static unsigned L(uint64_t v) { return (unsigned)v; }

static int nan32(uint32_t u) { return (u & 0x7FFFFFFFu) > 0x7F800000u; }
static int nan64(uint64_t u) { return (u & ~0x8000000000000000ull) > 0x7FF0000000000000ull; }

/* A result matches: the same bits, or both NaN (the result a quiet one). */
static int same32(uint32_t got, uint32_t want) {
  return nan32(want) ? nan32(got) && (got & 0x00400000u) : got == want;
}
static int same64(uint64_t got, uint64_t want) {
  return nan64(want) ? nan64(got) && (got & 0x0008000000000000ull) : got == want;
}

#define CHECK32(helper, n, what, a, b, got, want)                                          \
  do {                                                                                     \
    ++checks;                                                                              \
    if (!same32((got), (want)))                                                            \
      fail(helper, n, what, "%08x, %08x -> %08x, want %08x", (unsigned)(a), (unsigned)(b), \
           (unsigned)(got), (unsigned)(want));                                             \
  } while (0)
#define CHECK64(helper, n, what, a, b, got, want)                                           \
  do {                                                                                      \
    ++checks;                                                                               \
    if (!same64((got), (want)))                                                             \
      fail(helper, n, what, "%08x%08x, %08x%08x -> %08x%08x, want %08x%08x", H(a), L(a), H(b), \
           L(b), H(got), L(got), H(want), L(want));                                         \
  } while (0)
#define CHECK_INT(helper, n, what, got, want)                                          \
  do {                                                                                 \
    ++checks;                                                                          \
    if ((uint64_t)(got) != (uint64_t)(want))                                           \
      fail(helper, n, what, "-> %08x%08x, want %08x%08x", H((uint64_t)(got)),          \
           L((uint64_t)(got)), H((uint64_t)(want)), L((uint64_t)(want)));              \
  } while (0)

/* The libgcc compare conventions, for relation rel ('l', 'e', 'g', 'u'). */
static void check_compares(const char *ty, int n, const char *what, char rel, int eq, int ne,
                           int lt, int le, int gt, int ge, int un) {
  int ok = ((eq == 0) == (rel == 'e')) && ((ne != 0) == (rel != 'e')) &&
           ((lt < 0) == (rel == 'l')) && ((le <= 0) == (rel == 'l' || rel == 'e')) &&
           ((gt > 0) == (rel == 'g')) && ((ge >= 0) == (rel == 'g' || rel == 'e')) &&
           ((un != 0) == (rel == 'u'));
  ++checks;
  if (!ok)
    fail(ty, n, what, "relation '%c': eq %d ne %d lt %d le %d gt %d ge %d unord %d", rel, eq, ne,
         lt, le, gt, ge, un);
}

#define COUNT(a) ((int)(sizeof(a) / sizeof((a)[0])))

static volatile float vf, wf;
static volatile double vd, wd;
static volatile int32_t vi32, wi32;
static volatile uint32_t vu32, wu32;
static volatile int64_t vi64, wi64;
static volatile uint64_t vu64, wu64;
static volatile int vn;

static void single(void) {
  for (int i = 0; i < COUNT(f32_cases); ++i) {
    const struct f32_case *c = &f32_cases[i];
    vf = F(c->a);
    wf = F(c->b);
    CHECK32("__addsf3", i, c->what, c->a, c->b, UF(vf + wf), c->add);
    CHECK32("__subsf3", i, c->what, c->a, c->b, UF(vf - wf), c->sub);
    CHECK32("__mulsf3", i, c->what, c->a, c->b, UF(vf * wf), c->mul);
    CHECK32("__divsf3", i, c->what, c->a, c->b, UF(vf / wf), c->div);
    CHECK_INT("__negsf2", i, c->what, UF(__negsf2(vf)), c->a ^ 0x80000000u); /* NaNs too */
    check_compares("float compares", i, c->what, c->rel, __eqsf2(vf, wf), __nesf2(vf, wf),
                   __ltsf2(vf, wf), __lesf2(vf, wf), __gtsf2(vf, wf), __gesf2(vf, wf),
                   __unordsf2(vf, wf));
    /* and as GCC uses them */
    check_compares("float operators", i, c->what, c->rel, !(vf == wf), vf != wf, -(vf < wf),
                   !(vf <= wf), vf > wf, -!(vf >= wf), __builtin_isunordered(vf, wf));
  }
  for (int i = 0; i < COUNT(f32_convs); ++i) {
    const struct f32_conv *c = &f32_convs[i];
    vf = F(c->a);
    CHECK_INT("__fixsfsi", i, "", (int32_t)vf, c->i32);
    CHECK_INT("__fixunssfsi", i, "", (uint32_t)vf, c->u32);
    CHECK_INT("__fixsfdi", i, "", (int64_t)vf, c->i64);
    CHECK_INT("__fixunssfdi", i, "", (uint64_t)vf, c->u64);
    CHECK64("__extendsfdf2", i, "", (uint64_t)c->a, 0ull, UD((double)vf), c->other);
  }
  for (int i = 0; i < COUNT(f32_powis); ++i) {
    const struct f32_powi *c = &f32_powis[i];
    vf = F(c->a);
    vn = c->n;
    CHECK32("__powisf2", i, "", c->a, (uint32_t)c->n, UF(__builtin_powif(vf, vn)), c->r);
  }
}

static void dbl(void) {
  for (int i = 0; i < COUNT(f64_cases); ++i) {
    const struct f64_case *c = &f64_cases[i];
    vd = D(c->a);
    wd = D(c->b);
    CHECK64("__adddf3", i, c->what, c->a, c->b, UD(vd + wd), c->add);
    CHECK64("__subdf3", i, c->what, c->a, c->b, UD(vd - wd), c->sub);
    CHECK64("__muldf3", i, c->what, c->a, c->b, UD(vd * wd), c->mul);
    CHECK64("__divdf3", i, c->what, c->a, c->b, UD(vd / wd), c->div);
    CHECK_INT("__negdf2", i, c->what, UD(__negdf2(vd)), c->a ^ 0x8000000000000000ull);
    check_compares("double compares", i, c->what, c->rel, __eqdf2(vd, wd), __nedf2(vd, wd),
                   __ltdf2(vd, wd), __ledf2(vd, wd), __gtdf2(vd, wd), __gedf2(vd, wd),
                   __unorddf2(vd, wd));
    check_compares("double operators", i, c->what, c->rel, !(vd == wd), vd != wd, -(vd < wd),
                   !(vd <= wd), vd > wd, -!(vd >= wd), __builtin_isunordered(vd, wd));
  }
  for (int i = 0; i < COUNT(f64_convs); ++i) {
    const struct f64_conv *c = &f64_convs[i];
    vd = D(c->a);
    CHECK_INT("__fixdfsi", i, "", (int32_t)vd, c->i32);
    CHECK_INT("__fixunsdfsi", i, "", (uint32_t)vd, c->u32);
    CHECK_INT("__fixdfdi", i, "", (int64_t)vd, c->i64);
    CHECK_INT("__fixunsdfdi", i, "", (uint64_t)vd, c->u64);
    CHECK32("__truncdfsf2", i, "", H(c->a), L(c->a), UF((float)vd), c->other);
  }
  for (int i = 0; i < COUNT(f64_powis); ++i) {
    const struct f64_powi *c = &f64_powis[i];
    vd = D(c->a);
    vn = c->n;
    CHECK64("__powidf2", i, "", c->a, (uint64_t)c->n, UD(__builtin_powi(vd, vn)), c->r);
  }
}

static void int_to_float(void) {
  for (int i = 0; i < COUNT(i32_tofloats); ++i) {
    const struct i32_tofloat *c = &i32_tofloats[i];
    vi32 = (int32_t)c->v;
    vu32 = c->v;
    CHECK32("__floatsisf", i, "", c->v, 0, UF((float)vi32), c->sf);
    CHECK32("__floatunsisf", i, "", c->v, 0, UF((float)vu32), c->uf);
    CHECK64("__floatsidf", i, "", (uint64_t)c->v, 0ull, UD((double)vi32), c->sd);
    CHECK64("__floatunsidf", i, "", (uint64_t)c->v, 0ull, UD((double)vu32), c->ud);
  }
  for (int i = 0; i < COUNT(i64_tofloats); ++i) {
    const struct i64_tofloat *c = &i64_tofloats[i];
    vi64 = (int64_t)c->v;
    vu64 = c->v;
    CHECK32("__floatdisf", i, "", L(c->v), H(c->v), UF((float)vi64), c->sf);
    CHECK32("__floatundisf", i, "", L(c->v), H(c->v), UF((float)vu64), c->uf);
    CHECK64("__floatdidf", i, "", c->v, 0ull, UD((double)vi64), c->sd);
    CHECK64("__floatundidf", i, "", c->v, 0ull, UD((double)vu64), c->ud);
  }
}

static void integers(void) {
  for (int i = 0; i < COUNT(i64_cases); ++i) {
    const struct i64_case *c = &i64_cases[i];
    vu64 = c->a;
    wu64 = c->b;
    vi64 = (int64_t)c->a;
    wi64 = (int64_t)c->b;
    CHECK_INT("__muldi3", i, "", vu64 * wu64, c->mul);
    CHECK_INT("__udivdi3", i, c->b ? "" : "by zero", vu64 / wu64, c->udiv);
    CHECK_INT("__umoddi3", i, c->b ? "" : "by zero", vu64 % wu64, c->umod);
    if (c->has) {
      CHECK_INT("__divdi3", i, "", vi64 / wi64, c->sdiv);
      CHECK_INT("__moddi3", i, "", vi64 % wi64, c->smod);
    }
    CHECK_INT("__cmpdi2", i, "", __cmpdi2(vi64, wi64), c->cmp);
    CHECK_INT("__ucmpdi2", i, "", __ucmpdi2(vu64, wu64), c->ucmp);
    CHECK_INT("__negdi2", i, "", __negdi2(vi64), -c->a);
  }
  for (int i = 0; i < COUNT(i32_cases); ++i) {
    const struct i32_case *c = &i32_cases[i];
    vu32 = c->a;
    wu32 = c->b;
    vi32 = (int32_t)c->a;
    wi32 = (int32_t)c->b;
    CHECK_INT("__mulsi3", i, "", (uint32_t)(vu32 * wu32), c->mul);
    CHECK_INT("__udivsi3", i, c->b ? "" : "by zero", (uint32_t)(vu32 / wu32), c->udiv);
    CHECK_INT("__umodsi3", i, c->b ? "" : "by zero", (uint32_t)(vu32 % wu32), c->umod);
    if (c->has) {
      CHECK_INT("__divsi3", i, "", (uint32_t)(vi32 / wi32), c->sdiv);
      CHECK_INT("__modsi3", i, "", (uint32_t)(vi32 % wi32), c->smod);
    }
  }
  for (int i = 0; i < COUNT(shift_cases); ++i) {
    const struct shift_case *c = &shift_cases[i];
    vi64 = (int64_t)c->v;
    vn = c->n;
    CHECK_INT("__ashldi3", i, "", __ashldi3(vi64, vn), c->shl);
    CHECK_INT("__lshrdi3", i, "", __lshrdi3(vi64, vn), c->lshr);
    CHECK_INT("__ashrdi3", i, "", __ashrdi3(vi64, vn), c->ashr);
  }
  for (int i = 0; i < COUNT(bit_cases); ++i) {
    const struct bit_case *c = &bit_cases[i];
    vu64 = c->v;
    vu32 = (uint32_t)c->v;
    CHECK_INT("__clzsi2", i, "", __clzsi2(vu32), c->clz32);
    CHECK_INT("__clzdi2", i, "", __clzdi2(vu64), c->clz64);
    CHECK_INT("__ctzsi2", i, "", __ctzsi2(vu32), c->ctz32);
    CHECK_INT("__ctzdi2", i, "", __ctzdi2(vu64), c->ctz64);
    CHECK_INT("__ffssi2", i, "", __builtin_ffs((int)vu32), c->ffs32);
    CHECK_INT("__ffsdi2", i, "", __builtin_ffsll((long long)vu64), c->ffs64);
    CHECK_INT("__popcountsi2", i, "", __builtin_popcount(vu32), c->pop32);
    CHECK_INT("__popcountdi2", i, "", __builtin_popcountll(vu64), c->pop64);
    CHECK_INT("__paritysi2", i, "", __builtin_parity(vu32), c->par32);
    CHECK_INT("__paritydi2", i, "", __builtin_parityll(vu64), c->par64);
    CHECK_INT("__bswapsi2", i, "", __bswapsi2(vu32), c->bswap32);
    CHECK_INT("__bswapdi2", i, "", __bswapdi2(vu64), c->bswap64);
    if (vu32) CHECK_INT("__builtin_clz", i, "", __builtin_clz(vu32), c->clz32);
    if (vu64) CHECK_INT("__builtin_ctzll", i, "", __builtin_ctzll(vu64), c->ctz64);
  }
}

int main(void) {
  unsigned long t0 = time_us();
  integers();
  int_to_float();
  single();
  dbl();
  printf("runtime_helpers_are_exact: %d checks, %d failures, %lu ms\n", checks, failures,
         (time_us() - t0) / 1000);
  if (failures) return 1;
  printf("runtime_helpers_are_exact: PASS\n");
  return 0;
}
