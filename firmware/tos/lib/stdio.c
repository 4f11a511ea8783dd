/* <stdio.h>: streams over descriptors. stdin is buffered (a console line at a time); stdout
 * and stderr are written at the end of every call (each printf is one write, or one per 128
 * bytes, so the lines of threads printing at once do not mix); fopen's streams have a BUFSIZ
 * buffer from malloc (one byte inside the FILE if there is no memory), used for reading or
 * for writing at a time: a write after reads first seeks back over the read-ahead, a read
 * after writes first flushes. exit() flushes every stream (through __tos_exit_flush). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tos/tos.h>

int tos_vformat(void (*put)(void *, char), void *ctx, const char *fmt, va_list ap);
extern void (*__tos_exit_flush)(void);

enum {
  S_OPEN = 1, S_READ = 2, S_WRITE = 4, S_APPEND = 8, /* how it was opened */
  S_EOF = 16, S_ERR = 32,                            /* what happened */
  S_UNBUF = 64,                                      /* every call writes through */
  S_MALLOC = 128                                     /* buf is ours to free */
};

struct tos_file {
  int fd;
  int flags;
  char *buf;
  int size;
  int pos, len; /* mode 'r': buf[pos, len) read ahead; mode 'w': buf[0, len) not yet written */
  int mode;     /* 0, 'r' or 'w' */
  int unget;    /* a character pushed back, or EOF */
  char one;     /* the buffer when malloc has none */
};

static char stdin_buf[256];
static FILE files[FOPEN_MAX] = {
    {0, S_OPEN | S_READ, stdin_buf, sizeof stdin_buf, 0, 0, 0, EOF, 0},
    {1, S_OPEN | S_WRITE | S_UNBUF, NULL, 0, 0, 0, 0, EOF, 0},
    {2, S_OPEN | S_WRITE | S_UNBUF, NULL, 0, 0, 0, 0, EOF, 0},
};
FILE *const stdin = &files[0], *const stdout = &files[1], *const stderr = &files[2];

static int fail(FILE *f, int err) {
  f->flags |= S_ERR;
  if (err) tos_errno = err;
  return EOF;
}

static void need_buffer(FILE *f) {
  if (f->buf) return;
  f->buf = malloc(BUFSIZ);
  if (f->buf) {
    f->size = BUFSIZ;
    f->flags |= S_MALLOC;
  } else {
    f->buf = &f->one;
    f->size = 1;
  }
}

/* Write out what the buffer holds. */
static int flush_out(FILE *f) {
  if (f->mode != 'w') return 0;
  int at = 0, rc = 0;
  while (at < f->len) {
    int n = write(f->fd, f->buf + at, f->len - at);
    if (n <= 0) {
      rc = fail(f, 0);
      break;
    }
    at += n;
  }
  f->len = 0;
  f->mode = 0;
  return rc;
}

/* Forget what was read ahead (and pushed back): the descriptor's offset goes back to where the
 * reader is. */
static void drop_input(FILE *f) {
  if (f->mode == 'r' || f->unget != EOF) {
    long back = (f->mode == 'r' ? f->len - f->pos : 0) + (f->unget != EOF);
    if (back) lseek(f->fd, -back, SEEK_CUR);
  }
  if (f->mode == 'r') f->mode = 0;
  f->pos = f->len = 0;
  f->unget = EOF;
}

static void flush_all(void) {
  for (int i = 0; i < FOPEN_MAX; ++i)
    if (files[i].flags & S_OPEN) flush_out(&files[i]);
}

/* ---- opening and closing ---- */
static int mode_flags(const char *mode, int *oflags) {
  int o;
  switch (mode[0]) {
    case 'r': o = TOS_O_READ; break;
    case 'w': o = TOS_O_WRITE | TOS_O_CREATE | TOS_O_TRUNC; break;
    case 'a': o = TOS_O_WRITE | TOS_O_CREATE | TOS_O_APPEND; break;
    default: return 0;
  }
  if (strchr(mode + 1, '+')) o |= TOS_O_READ | TOS_O_WRITE;
  *oflags = o;
  return 1;
}

static FILE *stream(int fd, int oflags) {
  FILE *f = NULL;
  for (int i = 3; i < FOPEN_MAX && !f; ++i)
    if (!(files[i].flags & S_OPEN)) f = &files[i];
  if (!f) {
    tos_errno = TOS_EMFILE;
    return NULL;
  }
  memset(f, 0, sizeof *f);
  f->fd = fd;
  f->flags = S_OPEN | (oflags & TOS_O_READ ? S_READ : 0) | (oflags & TOS_O_WRITE ? S_WRITE : 0) |
             (oflags & TOS_O_APPEND ? S_APPEND : 0);
  f->unget = EOF;
  __tos_exit_flush = flush_all;
  return f;
}

FILE *fopen(const char *path, const char *mode) {
  int oflags;
  if (!mode_flags(mode, &oflags)) {
    tos_errno = TOS_EINVAL;
    return NULL;
  }
  int slot = 3;
  while (slot < FOPEN_MAX && (files[slot].flags & S_OPEN)) ++slot;
  if (slot == FOPEN_MAX) {
    tos_errno = TOS_EMFILE;
    return NULL;
  }
  int fd = open(path, oflags);
  if (fd < 0) return NULL;
  return stream(fd, oflags);
}

FILE *fdopen(int fd, const char *mode) {
  int oflags;
  if (!mode_flags(mode, &oflags)) {
    tos_errno = TOS_EINVAL;
    return NULL;
  }
  return stream(fd, oflags & (TOS_O_READ | TOS_O_WRITE | TOS_O_APPEND));
}

int fclose(FILE *f) {
  if (!(f->flags & S_OPEN)) return EOF;
  int rc = flush_out(f);
  if (close(f->fd) < 0) rc = EOF;
  if (f->flags & S_MALLOC) free(f->buf);
  f->flags = 0;
  f->buf = NULL;
  return rc;
}

int fflush(FILE *f) {
  if (!f) {
    int rc = 0;
    for (int i = 0; i < FOPEN_MAX; ++i)
      if ((files[i].flags & S_OPEN) && flush_out(&files[i])) rc = EOF;
    return rc;
  }
  return flush_out(f);
}

int fileno(FILE *f) { return f->fd; }

/* ---- positioning ---- */
int fseek(FILE *f, long offset, int whence) {
  if (flush_out(f)) return -1;
  if (whence == SEEK_CUR && f->mode == 'r') offset -= f->len - f->pos;
  if (whence == SEEK_CUR && f->unget != EOF) offset -= 1;
  if (f->mode == 'r') f->mode = 0;
  f->pos = f->len = 0;
  f->unget = EOF;
  if (lseek(f->fd, offset, whence) < 0) return fail(f, 0), -1;
  f->flags &= ~S_EOF;
  return 0;
}

long ftell(FILE *f) {
  long at = lseek(f->fd, 0, SEEK_CUR);
  if (at < 0) return -1;
  if (f->mode == 'w') at += f->len;
  if (f->mode == 'r') at -= f->len - f->pos;
  if (f->unget != EOF) at -= 1;
  return at;
}

void rewind(FILE *f) {
  fseek(f, 0, SEEK_SET);
  f->flags &= ~S_ERR;
}

/* ---- writing ---- */
size_t fwrite(const void *buf, size_t size, size_t n, FILE *f) {
  size_t total = size * n, done = 0;
  const char *p = buf;
  if (!total) return 0;
  if (!(f->flags & S_WRITE)) return fail(f, TOS_EBADF), 0;
  if (f->mode == 'r' || f->unget != EOF) drop_input(f);
  if (!(f->flags & S_UNBUF)) need_buffer(f);
  if ((f->flags & S_UNBUF) || (f->len == 0 && total >= (size_t)f->size)) { /* straight through */
    while (done < total) {
      int k = write(f->fd, p + done, (int)(total - done));
      if (k <= 0) return fail(f, 0), done / size;
      done += (size_t)k;
    }
    return n;
  }
  while (done < total) {
    if (f->len == f->size && flush_out(f)) return done / size;
    size_t k = total - done, room = (size_t)(f->size - f->len);
    if (k > room) k = room;
    memcpy(f->buf + f->len, p + done, k);
    f->len += (int)k;
    f->mode = 'w';
    done += k;
  }
  return n;
}

int fputc(int c, FILE *f) {
  unsigned char ch = (unsigned char)c;
  if (f->mode == 'w' && f->len < f->size) { /* the common case, at once */
    f->buf[f->len++] = (char)ch;
    return ch;
  }
  return fwrite(&ch, 1, 1, f) == 1 ? ch : EOF;
}
int putc(int c, FILE *f) { return fputc(c, f); }
int putchar(int c) { return fputc(c, stdout); }

int fputs(const char *s, FILE *f) {
  size_t n = strlen(s);
  return fwrite(s, 1, n, f) == n ? 0 : EOF;
}

int puts(const char *s) {
  char line[128];
  size_t n = strlen(s);
  if (n < sizeof line) { /* one write with its newline */
    memcpy(line, s, n);
    line[n] = '\n';
    return fwrite(line, 1, n + 1, stdout) == n + 1 ? 0 : EOF;
  }
  return fputs(s, stdout) || fputc('\n', stdout) == EOF ? EOF : 0;
}

/* ---- formatted output ---- */
struct out {
  FILE *f;
  int n, err;
  char chunk[128];
};

static void out_put(void *ctx, char c) {
  struct out *o = ctx;
  o->chunk[o->n++] = c;
  if (o->n == (int)sizeof o->chunk) {
    if (fwrite(o->chunk, 1, (size_t)o->n, o->f) != (size_t)o->n) o->err = 1;
    o->n = 0;
  }
}

int vfprintf(FILE *f, const char *fmt, va_list ap) {
  struct out o;
  o.f = f;
  o.n = o.err = 0;
  int n = tos_vformat(out_put, &o, fmt, ap);
  if (o.n && fwrite(o.chunk, 1, (size_t)o.n, f) != (size_t)o.n) o.err = 1;
  return o.err ? EOF : n;
}

int fprintf(FILE *f, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vfprintf(f, fmt, ap);
  va_end(ap);
  return n;
}

int vprintf(const char *fmt, va_list ap) { return vfprintf(stdout, fmt, ap); }

int printf(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vfprintf(stdout, fmt, ap);
  va_end(ap);
  return n;
}

struct sink {
  char *buf;
  size_t room, len;
};

static void sink_put(void *ctx, char c) {
  struct sink *s = ctx;
  if (s->len < s->room) s->buf[s->len] = c;
  ++s->len;
}

int vsnprintf(char *buf, size_t n, const char *fmt, va_list ap) {
  struct sink s = {buf, n ? n - 1 : 0, 0};
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

int vsprintf(char *buf, const char *fmt, va_list ap) { return vsnprintf(buf, 0x7FFFFFFF, fmt, ap); }

int sprintf(char *buf, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int r = vsprintf(buf, fmt, ap);
  va_end(ap);
  return r;
}

void perror(const char *s) {
  if (s && *s) fprintf(stderr, "%s: %s\n", s, tos_strerror(tos_errno));
  else fprintf(stderr, "%s\n", tos_strerror(tos_errno));
}

/* ---- reading ---- */
static int fill(FILE *f) {
  if (f->mode == 'w' && flush_out(f)) return EOF;
  need_buffer(f);
  int n = read(f->fd, f->buf, f->size);
  if (n < 0) return fail(f, 0);
  if (n == 0) {
    f->flags |= S_EOF;
    f->mode = 0;
    return EOF;
  }
  f->pos = 0;
  f->len = n;
  f->mode = 'r';
  return 0;
}

int fgetc(FILE *f) {
  if (f->unget != EOF) {
    int c = f->unget;
    f->unget = EOF;
    return c;
  }
  if (!(f->flags & S_READ)) return fail(f, TOS_EBADF);
  if ((f->mode != 'r' || f->pos == f->len) && fill(f)) return EOF;
  return (unsigned char)f->buf[f->pos++];
}
int getc(FILE *f) { return fgetc(f); }
int getchar(void) { return fgetc(stdin); }

int ungetc(int c, FILE *f) {
  if (c == EOF || f->unget != EOF) return EOF;
  f->unget = (unsigned char)c;
  f->flags &= ~S_EOF;
  return f->unget;
}

char *fgets(char *s, int n, FILE *f) {
  int i = 0;
  while (i < n - 1) {
    int c = fgetc(f);
    if (c == EOF) break;
    s[i++] = (char)c;
    if (c == '\n') break;
  }
  if (i == 0 || (f->flags & S_ERR)) return NULL;
  s[i] = 0;
  return s;
}

size_t fread(void *buf, size_t size, size_t n, FILE *f) {
  size_t total = size * n, done = 0;
  char *p = buf;
  if (!total) return 0;
  if (!(f->flags & S_READ)) return fail(f, TOS_EBADF), 0;
  if (f->unget != EOF) {
    p[done++] = (char)f->unget;
    f->unget = EOF;
  }
  while (done < total) {
    if (f->mode == 'r' && f->pos < f->len) {
      size_t k = (size_t)(f->len - f->pos);
      if (k > total - done) k = total - done;
      memcpy(p + done, f->buf + f->pos, k);
      f->pos += (int)k;
      done += k;
      continue;
    }
    if (f->mode == 'w' && flush_out(f)) break;
    need_buffer(f);
    if (total - done >= (size_t)f->size) { /* a large read goes straight into the caller's buffer */
      int k = read(f->fd, p + done, (int)(total - done));
      if (k < 0) {
        fail(f, 0);
        break;
      }
      if (k == 0) {
        f->flags |= S_EOF;
        break;
      }
      done += (size_t)k;
      continue;
    }
    if (fill(f)) break;
  }
  return done / size;
}

int feof(FILE *f) { return (f->flags & S_EOF) != 0; }
int ferror(FILE *f) { return (f->flags & S_ERR) != 0; }
void clearerr(FILE *f) { f->flags &= ~(S_EOF | S_ERR); }
