/* The TOS user library: system call wrappers (TRAP #0, see crt0.S), printf on the console,
 * and a few string routines. Programs start in __tos_start (argv from the command line). */
#include <tos/tos.h>

int tos_vformat(void (*put)(void *, char), void *ctx, const char *fmt, va_list ap);
int main(int argc, char **argv);
extern void __tos_thread_return(void);
int tos_errno;

#define SYS0(n) __tos_syscall((n), 0, 0, 0, 0, 0, 0)
#define SYS1(n, a) __tos_syscall((n), (long)(a), 0, 0, 0, 0, 0)

/* ---- start-up ---- */
void __tos_start(char *cmdline) {
  char *argv[24];
  int argc = 0;
  char *p = cmdline;
  while (*p && argc < 23) {
    while (*p == ' ' || *p == '\t') *p++ = 0;
    if (!*p) break;
    argv[argc++] = p;
    while (*p && *p != ' ' && *p != '\t') ++p;
  }
  argv[argc] = NULL;
  exit(main(argc, argv));
}

/* ---- threads, channels, processes ---- */
static long check(long r) {
  if (r < 0) tos_errno = (int)-r;
  return r;
}

int create(int id, int n_pages, int processor, void (*entry)(void *), void *arg) {
  long r = check(__tos_syscall(SYS_CREATE, id, n_pages, processor, (long)entry, (long)arg,
                               (long)__tos_thread_return));
  return r < 0 ? 0 : (int)r;
}
int wait(void) { return (int)SYS0(SYS_WAIT); }
void exit(int code) {
  SYS1(SYS_EXIT, code);
  for (;;) {
  }
}
int gettid(void) { return (int)SYS0(SYS_GETTID); }
void yield(void) { SYS0(SYS_YIELD); }
int send_block(int chan, const void *buf, int len) {
  return (int)check(__tos_syscall(SYS_SEND, chan, (long)buf, len, 0, 0, 0));
}
int receive(int chan, void *buf, int len) {
  return (int)check(__tos_syscall(SYS_RECEIVE, chan, (long)buf, len, 0, 0, 0));
}
int spawn(const char *path, const char *args) {
  return (int)check(__tos_syscall(SYS_SPAWN, (long)path, (long)(args ? args : path), 0, 0, 0, 0));
}
int pwait(int pid) { return (int)SYS1(SYS_PWAIT, pid); }
int kill(int pid) { return (int)check(SYS1(SYS_KILL, pid)); }
long tos_info(int what) { return SYS1(SYS_INFO, what); }
int dgl_set(int set, int clear) { return (int)__tos_syscall(SYS_DGL, set, clear, 0, 0, 0, 0); }
void send_event(int code) { SYS1(SYS_EVENT, code); }
unsigned long time_us(void) { return (unsigned long)SYS0(SYS_TIME); }

const char *tos_strerror(int err) {
  if (err < 0) err = -err;
#define X(name, value, desc) if (err == value) return #name;
  TOS_ERROR_LIST(X)
#undef X
  return "unknown error";
}

/* ---- output ---- */
int write(int fd, const void *buf, int len) {
  return (int)check(__tos_syscall(SYS_WRITE, fd, (long)buf, len, 0, 0, 0));
}

struct sink {
  char *buf;
  size_t n, len;
  int flush; /* console: write out when full */
};

static void sink_put(void *ctx, char c) {
  struct sink *s = ctx;
  if (s->flush && s->len == s->n) {
    write(1, s->buf, (int)s->len);
    s->len = 0;
  }
  if (s->len < s->n) s->buf[s->len] = c;
  ++s->len;
}

int vprintf(const char *fmt, va_list ap) {
  char buf[128];
  struct sink s = {buf, sizeof buf, 0, 1};
  int n = tos_vformat(sink_put, &s, fmt, ap);
  if (s.len) write(1, buf, (int)s.len);
  return n;
}

int printf(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vprintf(fmt, ap);
  va_end(ap);
  return n;
}

int vsnprintf(char *buf, size_t n, const char *fmt, va_list ap) {
  struct sink s = {buf, n ? n - 1 : 0, 0, 0};
  int r = tos_vformat(sink_put, &s, fmt, ap);
  if (n) buf[s.len < n - 1 ? s.len : n - 1] = 0;
  return r;
}

int snprintf(char *buf, size_t n, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int r = vsnprintf(buf, n, fmt, ap);
  va_end(ap);
  return r;
}

int putchar(int c) {
  char ch = (char)c;
  write(1, &ch, 1);
  return c;
}

int puts(const char *s) {
  write(1, s, (int)strlen(s));
  write(1, "\n", 1);
  return 0;
}

/* ---- strings ---- */
void *memcpy(void *d, const void *s, size_t n) {
  char *dp = d;
  const char *sp = s;
  if ((((unsigned long)dp | (unsigned long)sp) & 1) == 0)
    for (; n >= 4; n -= 4, dp += 4, sp += 4) *(long *)dp = *(const long *)sp;
  while (n--) *dp++ = *sp++;
  return d;
}
void *memset(void *d, int c, size_t n) {
  char *p = d;
  while (n--) *p++ = (char)c;
  return d;
}
int memcmp(const void *a, const void *b, size_t n) {
  const unsigned char *x = a, *y = b;
  for (; n; --n, ++x, ++y)
    if (*x != *y) return *x - *y;
  return 0;
}
size_t strlen(const char *s) {
  size_t n = 0;
  while (s[n]) ++n;
  return n;
}
int strcmp(const char *a, const char *b) {
  while (*a && *a == *b) ++a, ++b;
  return (unsigned char)*a - (unsigned char)*b;
}
char *strcpy(char *d, const char *s) {
  char *r = d;
  while ((*d++ = *s++) != 0) {
  }
  return r;
}
int atoi(const char *s) {
  int neg = 0, v = 0;
  while (*s == ' ') ++s;
  if (*s == '-' || *s == '+') neg = *s++ == '-';
  while (*s >= '0' && *s <= '9') v = v * 10 + (*s++ - '0');
  return neg ? -v : v;
}
