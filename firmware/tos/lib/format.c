/* Formatted output, shared by the kernel (kprintf) and the user library (printf): %d %i %u
 * %x %X %o %c %s %p %%, with '-', '0', a width, a precision for strings and the sizes 'l', 'h',
 * 'z', 't' (every integer is 32 bits).
 * No floating point. Division by 10/16/8 goes through the 68010-safe __udivsi3. */
#include <stdarg.h>
#include <stdint.h>

int tos_vformat(void (*put)(void *, char), void *ctx, const char *fmt, va_list ap) {
  int count = 0;
  for (; *fmt; ++fmt) {
    if (*fmt != '%') {
      put(ctx, *fmt);
      ++count;
      continue;
    }
    int left = 0, zero = 0, width = 0, prec = -1;
    ++fmt;
    for (;; ++fmt) {
      if (*fmt == '-') left = 1;
      else if (*fmt == '0') zero = 1;
      else break;
    }
    if (*fmt == '*') {
      width = va_arg(ap, int);
      ++fmt;
    }
    while (*fmt >= '0' && *fmt <= '9') width = width * 10 + (*fmt++ - '0');
    if (*fmt == '.') {
      prec = 0;
      ++fmt;
      while (*fmt >= '0' && *fmt <= '9') prec = prec * 10 + (*fmt++ - '0');
    }
    while (*fmt == 'l' || *fmt == 'h' || *fmt == 'z' || *fmt == 't') ++fmt; /* all 32 bits */
    char buf[12];
    const char *s = buf;
    int len = 0, neg = 0;
    char c = *fmt;
    if (c == 0) break;
    switch (c) {
      case 'd': case 'i': case 'u': case 'x': case 'X': case 'o': case 'p': {
        uint32_t v = va_arg(ap, uint32_t);
        uint32_t base = c == 'o' ? 8 : (c == 'x' || c == 'X' || c == 'p') ? 16 : 10;
        if ((c == 'd' || c == 'i') && (int32_t)v < 0) {
          neg = 1;
          v = (uint32_t)-(int32_t)v;
        }
        const char *digits = c == 'X' ? "0123456789ABCDEF" : "0123456789abcdef";
        char *e = buf + sizeof buf;
        do {
          *--e = digits[v % base];
          v /= base;
        } while (v);
        s = e;
        len = (int)(buf + sizeof buf - e);
        break;
      }
      case 'c':
        buf[0] = (char)va_arg(ap, int);
        len = 1;
        break;
      case 's':
        s = va_arg(ap, const char *);
        if (!s) s = "(null)";
        while (s[len] && (prec < 0 || len < prec)) ++len;
        break;
      default:
        buf[0] = c;
        len = 1;
        break;
    }
    int pad = width - len - neg;
    if (!left && !zero)
      for (; pad > 0; --pad, ++count) put(ctx, ' ');
    if (neg) {
      put(ctx, '-');
      ++count;
    }
    if (!left && zero)
      for (; pad > 0; --pad, ++count) put(ctx, '0');
    for (int i = 0; i < len; ++i, ++count) put(ctx, s[i]);
    for (; pad > 0; --pad, ++count) put(ctx, ' ');
  }
  return count;
}
