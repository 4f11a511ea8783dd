/* <time.h> of the TOS C library (seed 000 section 2.1.3: reading the real-time clock).
 * The board's clock starts at 0 when TOS boots: time() counts seconds since boot, so gmtime()
 * of it is 1 January 1970 plus the uptime. clock() is the time since the process started
 * (microseconds; TOS does not count processor time per process). */
#ifndef TOS_TIME_H
#define TOS_TIME_H
#include <stddef.h>

#ifndef NULL
#define NULL ((void *)0)
#endif
#define CLOCKS_PER_SEC 1000000L

typedef long time_t;
typedef long clock_t;

struct tm {
  int tm_sec, tm_min, tm_hour; /* 0..59, 0..59, 0..23 */
  int tm_mday, tm_mon, tm_year; /* 1..31, 0..11, years since 1900 */
  int tm_wday, tm_yday;         /* 0..6 (Sunday 0), 0..365 */
  int tm_isdst;                 /* 0 */
};

time_t time(time_t *t);
clock_t clock(void);
struct tm *gmtime(const time_t *t);
struct tm *localtime(const time_t *t);      /* the same as gmtime: the Testbed has no time zone */
time_t mktime(struct tm *tm);
size_t strftime(char *s, size_t max, const char *fmt, const struct tm *tm); /* %Y %m %d %H %M %S %j %% */

#endif
