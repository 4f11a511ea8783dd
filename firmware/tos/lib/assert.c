/* assert's report: newlib's <assert.h> calls __assert_func on a false assertion. newlib's own
 * prints with fiprintf, which brings a second copy of printf (7.5 KB) into every program, since
 * newlib's dtoa asserts that its allocations succeed: here the same message is put together by
 * hand and written with one write, then abort() ends the process. */
#include <stdlib.h>
#include <string.h>

int _write(int fd, const void *buf, size_t n);

static char *put(char *p, char *end, const char *s) {
  while (*s && p < end) *p++ = *s++;
  return p;
}

void __assert_func(const char *file, int line, const char *func, const char *expr) {
  char msg[256], num[12], *p = msg, *end = msg + sizeof msg - 1;
  int n = 0;
  unsigned v = line < 0 ? 0u : (unsigned)line;
  do num[n++] = (char)('0' + v % 10); while (v /= 10);
  char digits[12];
  for (int i = 0; i < n; ++i) digits[i] = num[n - 1 - i];
  digits[n] = 0;
  p = put(p, end, "assertion \"");
  p = put(p, end, expr);
  p = put(p, end, "\" failed: file \"");
  p = put(p, end, file);
  p = put(p, end, "\", line ");
  p = put(p, end, digits);
  if (func) {
    p = put(p, end, ", function: ");
    p = put(p, end, func);
  }
  *p++ = '\n';
  _write(2, msg, (size_t)(p - msg));
  abort();
}

void __assert(const char *file, int line, const char *expr) { __assert_func(file, line, NULL, expr); }
