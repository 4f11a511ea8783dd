/* newlib 3.3's modf and modff return 0 for a NaN (they take a NaN for a number too large to
 * have a fraction); C99 (Annex F.9.3.12, and F.9: a NaN argument gives a NaN) and glibc return
 * the NaN. Programs are linked with --wrap=modf,--wrap=modff (CMakeLists.txt), so their calls
 * come here first; newlib's functions do the rest. Found by libc_math_matches_host. */
double __real_modf(double x, double *ip);
float __real_modff(float x, float *ip);

double __wrap_modf(double x, double *ip) {
  if (x != x) {
    *ip = x;
    return x;
  }
  return __real_modf(x, ip);
}

float __wrap_modff(float x, float *ip) {
  if (x != x) {
    *ip = x;
    return x;
  }
  return __real_modff(x, ip);
}
