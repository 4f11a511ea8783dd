/* <time.h>: the board's real-time clock, which TOS starts at 0 when it boots. */
#include <time.h>
#include <tos/tos.h>

static unsigned long start_s, start_us; /* clock(): when the process first asked */
static int started;

time_t time(time_t *t) {
  time_t now = tos_clock(NULL);
  if (t) *t = now;
  return now;
}

/* Microseconds since the first call in this process (so the first call returns about 0). */
clock_t clock(void) {
  unsigned long us, s = (unsigned long)tos_clock(&us);
  if (!started) {
    started = 1;
    start_s = s;
    start_us = us;
  }
  return (clock_t)((s - start_s) * 1000000ul + us - start_us);
}

static int leap(int y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }
static const unsigned char mdays[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};

struct tm *gmtime(const time_t *t) {
  static struct tm tm;
  unsigned long v = (unsigned long)*t, days = v / 86400ul, rem = v % 86400ul;
  tm.tm_hour = (int)(rem / 3600);
  tm.tm_min = (int)(rem / 60 % 60);
  tm.tm_sec = (int)(rem % 60);
  tm.tm_wday = (int)((days + 4) % 7); /* 1 January 1970 was a Thursday */
  int y = 1970;
  while (days >= (unsigned long)(leap(y) ? 366 : 365)) days -= leap(y++) ? 366 : 365;
  tm.tm_year = y - 1900;
  tm.tm_yday = (int)days;
  int m = 0;
  for (;; ++m) {
    unsigned long n = mdays[m] + (m == 1 && leap(y));
    if (days < n) break;
    days -= n;
  }
  tm.tm_mon = m;
  tm.tm_mday = (int)days + 1;
  tm.tm_isdst = 0;
  return &tm;
}

struct tm *localtime(const time_t *t) { return gmtime(t); }

time_t mktime(struct tm *tm) {
  long days = 0;
  for (int y = 1970; y < tm->tm_year + 1900; ++y) days += leap(y) ? 366 : 365;
  for (int m = 0; m < tm->tm_mon && m < 12; ++m) days += mdays[m] + (m == 1 && leap(tm->tm_year + 1900));
  days += tm->tm_mday - 1;
  time_t t = ((days * 24 + tm->tm_hour) * 60 + tm->tm_min) * 60 + tm->tm_sec;
  *tm = *gmtime(&t); /* normalized, with the week day and year day */
  return t;
}

size_t strftime(char *s, size_t max, const char *fmt, const struct tm *tm) {
  size_t n = 0;
  for (; *fmt; ++fmt) {
    char part[8];
    int len;
    if (*fmt != '%' || !fmt[1]) {
      part[0] = *fmt;
      len = 1;
    } else {
      switch (*++fmt) {
        case 'Y': len = snprintf(part, sizeof part, "%d", tm->tm_year + 1900); break;
        case 'm': len = snprintf(part, sizeof part, "%02d", tm->tm_mon + 1); break;
        case 'd': len = snprintf(part, sizeof part, "%02d", tm->tm_mday); break;
        case 'H': len = snprintf(part, sizeof part, "%02d", tm->tm_hour); break;
        case 'M': len = snprintf(part, sizeof part, "%02d", tm->tm_min); break;
        case 'S': len = snprintf(part, sizeof part, "%02d", tm->tm_sec); break;
        case 'j': len = snprintf(part, sizeof part, "%03d", tm->tm_yday + 1); break;
        default: part[0] = *fmt; len = 1; break;
      }
    }
    if (n + (size_t)len >= max) return 0;
    for (int i = 0; i < len; ++i) s[n++] = part[i];
  }
  if (n >= max) return 0;
  s[n] = 0;
  return n;
}

/* Appendix A's compute(approx_N_ms): keep the CPU busy for ms milliseconds of the real-time
 * clock (a slice may end meanwhile; the time still counts). */
void compute_ms(unsigned long ms) {
  unsigned long t0 = time_us();
  while (time_us() - t0 < ms * 1000ul) {
    for (volatile int i = 0; i < 100; ++i) {
    }
  }
}
