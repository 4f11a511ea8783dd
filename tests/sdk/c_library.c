/* The C library of the installed SDK against its own headers (issue 62, item 7): every function
 * here was missing from the library, or gave wrong answers because the installed headers were
 * not the ones the library was built with (time_t). tests/sdk/sdk_test.py builds this file from
 * an installed prefix with tos-cc, runs it on earth, builds it on the host with cc, and compares
 * the lines: they must be the same, line for line. Plain C99 and POSIX: nothing TOS's own. */
#define _GNU_SOURCE
#include <limits.h>
#include <search.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <wchar.h>
#include <wctype.h>

#ifdef __NEWLIB__
/* newlib's configuration (TOS's newlib.h) is the one installed: its multibyte bound is there */
#if _MB_LEN_MAX != 1
#error "_MB_LEN_MAX is not TOS's"
#endif
#endif

/* A wide string as narrow ASCII, with any other character as \x{N}: printed the same by both. */
static const char *narrow(const wchar_t *w) {
  static char out[256];
  size_t n = 0;
  for (; *w && n < sizeof out - 12; ++w) {
    if (*w >= 32 && *w < 127) out[n++] = (char)*w;
    else n += (size_t)snprintf(out + n, sizeof out - n, "\\x{%lx}", (unsigned long)*w);
  }
  out[n] = 0;
  return out;
}

static void show_tm(const char *what, const struct tm *tm) {
  printf("libc: %s %04d-%02d-%02d %02d:%02d:%02d wday %d yday %d isdst %d\n", what, tm->tm_year + 1900,
         tm->tm_mon + 1, tm->tm_mday, tm->tm_hour, tm->tm_min, tm->tm_sec, tm->tm_wday, tm->tm_yday, tm->tm_isdst);
}

static int my_vswprintf(wchar_t *buf, size_t n, const wchar_t *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int r = vswprintf(buf, n, fmt, ap);
  va_end(ap);
  return r;
}

static int my_vswscanf(const wchar_t *in, const wchar_t *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int r = vswscanf(in, fmt, ap);
  va_end(ap);
  return r;
}

static void at_exit_plain(void) { printf("libc: atexit ran after on_exit\n"); }
static void at_exit_with(int status, void *arg) { printf("libc: on_exit status %d arg %s\n", status, (const char *)arg); }

int main(void) {
  /* time_t as the library has it: gmtime of a fixed instant */
  time_t t = 946080000;
  struct tm g = *gmtime(&t);
  show_tm("gmtime", &g);
  time_t now = 0, got = time(&now);
  printf("libc: time %s\n", got != (time_t)-1 && got == now ? "ok" : "FAILED");

  /* the time functions that read TZ (_getenv_r), in a zone with a daylight rule */
  setenv("TZ", "XST5XDT,M3.2.0,M11.1.0", 1);
  tzset();
#ifdef __NEWLIB__ /* newlib names XSI's timezone and daylight with an underscore only */
  long zone = _timezone;
  int dst = _daylight;
#else
  long zone = timezone;
  int dst = daylight;
#endif
  printf("libc: tzname %s %s timezone %ld daylight %d\n", tzname[0], tzname[1], zone, dst);
  struct tm l = *localtime(&t);
  show_tm("localtime", &l);
  printf("libc: ctime %s", ctime(&t));
  struct tm m = {.tm_year = 100, .tm_mon = 6, .tm_mday = 35, .tm_hour = 12, .tm_isdst = -1};
  time_t mt = mktime(&m);
  printf("libc: mktime %ld\n", (long)mt);
  show_tm("normalised", &m);
  char s[256];
  size_t sn = strftime(s, sizeof s, "%a %A %b %B %d %e %H %I %j %m %M %p %S %U %w %W %y %Y %Z %z %% %c | %x | %X", &l);
  printf("libc: strftime %zu [%s]\n", sn, s);
  printf("libc: strftime too small %zu\n", strftime(s, 4, "%Y-%m-%d", &l));

  /* the wide printf and scanf on strings */
  wchar_t w[64];
  int wn = swprintf(w, 64, L"%d|%5.2f|%-4ls|%x|%lld|%c", 42, 3.14159, L"ab", 255u, -1234567890123LL, 'Z');
  printf("libc: swprintf %d [%s]\n", wn, narrow(w));
  printf("libc: swprintf too small %d\n", swprintf(w, 4, L"%d", 123456));
  wn = my_vswprintf(w, 64, L"%s=%e", "pi", 3.14159265358979);
  printf("libc: vswprintf %d [%s]\n", wn, narrow(w));
  int a = 0;
  double d = 0;
  wchar_t word[16] = {0};
  int sc = swscanf(L"  17 -2.5e3 wide rest", L"%d %lf %15ls", &a, &d, word);
  printf("libc: swscanf %d %d %g [%s]\n", sc, a, d, narrow(word));
  unsigned x = 0;
  long long ll = 0;
  sc = my_vswscanf(L"ff:-9000000000", L"%x:%lld", &x, &ll);
  printf("libc: vswscanf %d %u %lld\n", sc, x, ll);

  /* strtold, wcstold: the value and where the number ended */
  const char *nums[] = {"1.5e3", "  -0.1xyz", "1e300", "0x1.8p1", "inf", "nope"};
  for (size_t i = 0; i < sizeof nums / sizeof nums[0]; ++i) {
    char *end;
    long double v = strtold(nums[i], &end);
    printf("libc: strtold(\"%s\") %.17g end %d\n", nums[i], (double)v, (int)(end - nums[i]));
  }
  wchar_t *wend;
  const wchar_t *wnum = L"  -2.5e-3tail";
  long double wv = wcstold(wnum, &wend);
  printf("libc: wcstold %.17g end %d\n", (double)wv, (int)(wend - wnum));

  /* towctrans through wctrans */
  wchar_t cases[] = {towctrans(L'q', wctrans("toupper")), towctrans(L'Q', wctrans("tolower")),
                     towctrans(L'7', wctrans("toupper")), 0};
  printf("libc: towctrans %s\n", narrow(cases));

  /* hcreate, hsearch: enter, find, miss */
  static char *keys[] = {"earth", "air", "fire", "water", "master"};
  if (!hcreate(16)) printf("libc: hcreate FAILED\n");
  for (int i = 0; i < 5; ++i) {
    ENTRY e = {keys[i], (void *)(long)(i * 10)};
    if (!hsearch(e, ENTER)) printf("libc: hsearch ENTER %s FAILED\n", keys[i]);
  }
  for (int i = 4; i >= 0; --i) {
    ENTRY q = {keys[i], NULL};
    ENTRY *f = hsearch(q, FIND);
    printf("libc: hsearch %s %ld\n", keys[i], f ? (long)f->data : -1L);
  }
  ENTRY miss = {"aether", NULL};
  printf("libc: hsearch aether %s\n", hsearch(miss, FIND) ? "found" : "absent");
  hdestroy();

  /* on_exit: with atexit, last registered first; the status main returns reaches it */
  atexit(at_exit_plain);
  on_exit(at_exit_with, "bye");
  printf("libc: main returns\n");
  return 0;
}
