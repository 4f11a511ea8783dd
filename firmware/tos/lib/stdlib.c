/* <stdlib.h>: conversions, malloc on the sbrk heap, qsort, bsearch, rand. exit is tos.c's,
 * getenv env.c's, setenv setenv.c's.
 *
 * malloc is Kernighan and Ritchie's (section 8.7): a circular free list in address order, first
 * fit, neighbours joined on free, 8-byte headers. The heap grows by sbrk, at least 4 KB at a
 * time; its frames go back to the kernel when the process ends. A TAS lock makes it safe for
 * the threads of a process (a thread that finds it taken yields). */
#include <stdlib.h>
#include <string.h>
#include <tos/tos.h>

/* ---- conversions ---- */
static int digit(char c, int base) {
  int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'z' ? c - 'a' + 10 : c >= 'A' && c <= 'Z' ? c - 'A' + 10 : 99;
  return d < base ? d : -1;
}

/* The magnitude of s in base (0: 0x.. hex, 0.. octal, else decimal), saturating at limit. */
static unsigned long convert(const char *s, char **end, int base, int *neg, unsigned long limit) {
  const char *p = s;
  while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r' || *p == '\f' || *p == '\v') ++p;
  *neg = 0;
  if (*p == '-' || *p == '+') *neg = *p++ == '-';
  if ((base == 0 || base == 16) && p[0] == '0' && (p[1] == 'x' || p[1] == 'X') && digit(p[2], 16) >= 0) {
    p += 2;
    base = 16;
  } else if (base == 0) {
    base = *p == '0' ? 8 : 10;
  }
  unsigned long v = 0;
  int any = 0, over = 0, d;
  if (base >= 2 && base <= 36)
    for (; (d = digit(*p, base)) >= 0; ++p) {
      any = 1;
      if (v > (limit - (unsigned long)d) / (unsigned long)base) over = 1;
      else v = v * (unsigned long)base + (unsigned long)d;
    }
  if (end) *end = (char *)(any ? p : s);
  return over ? limit : v;
}

long strtol(const char *s, char **end, int base) {
  int neg;
  unsigned long v = convert(s, end, base, &neg, 0x80000000ul);
  if (!neg && v > 0x7FFFFFFFul) return 0x7FFFFFFFl;
  return neg ? (long)(0 - v) : (long)v;
}

unsigned long strtoul(const char *s, char **end, int base) {
  int neg;
  unsigned long v = convert(s, end, base, &neg, 0xFFFFFFFFul);
  return neg ? 0 - v : v;
}

long atol(const char *s) { return strtol(s, NULL, 10); }
int atoi(const char *s) { return (int)strtol(s, NULL, 10); }
int abs(int v) { return v < 0 ? -v : v; }
long labs(long v) { return v < 0 ? -v : v; }

/* ---- malloc ---- */
typedef union header {
  struct {
    union header *next; /* next free block (in address order, circular) */
    size_t units;       /* size of this block in headers, the header included */
  } s;
  long align[2];
} Header;

static Header base;
static Header *freep;
static volatile char heap_lock;

static void lock(void) {
  for (;;) {
    char taken;
    __asm__ volatile("tas %1\n\tsne %0" : "=d"(taken), "+m"(heap_lock) : : "cc", "memory");
    if (!taken) return;
    yield();
  }
}
static void unlock(void) { heap_lock = 0; }

static void release(void *ap) {
  Header *bp = (Header *)ap - 1, *p;
  for (p = freep; !(bp > p && bp < p->s.next); p = p->s.next)
    if (p >= p->s.next && (bp > p || bp < p->s.next)) break; /* at an end of the arena */
  if (bp + bp->s.units == p->s.next) { /* join the upper neighbour */
    bp->s.units += p->s.next->s.units;
    bp->s.next = p->s.next->s.next;
  } else {
    bp->s.next = p->s.next;
  }
  if (p + p->s.units == bp) { /* join the lower neighbour */
    p->s.units += bp->s.units;
    p->s.next = bp->s.next;
  } else {
    p->s.next = bp;
  }
  freep = p;
}

static Header *morecore(size_t units) {
  size_t n = units < 4096 / sizeof(Header) ? 4096 / sizeof(Header) : units;
  char *cp = sbrk((long)(n * sizeof(Header)));
  if (cp == (char *)-1 && n > units) cp = sbrk((long)((n = units) * sizeof(Header)));
  if (cp == (char *)-1) return NULL;
  Header *up = (Header *)cp;
  up->s.units = n;
  release(up + 1);
  return freep;
}

void *malloc(size_t nbytes) {
  if (nbytes > TOS_MAX_IMAGE_BYTES) return NULL;
  size_t units = (nbytes + sizeof(Header) - 1) / sizeof(Header) + 1;
  lock();
  if (!freep) {
    base.s.next = freep = &base;
    base.s.units = 0;
  }
  Header *prev = freep, *p;
  for (p = prev->s.next;; prev = p, p = p->s.next) {
    if (p->s.units >= units) {
      if (p->s.units == units) {
        prev->s.next = p->s.next;
      } else { /* the tail end of the block */
        p->s.units -= units;
        p += p->s.units;
        p->s.units = units;
      }
      freep = prev;
      unlock();
      return p + 1;
    }
    if (p == freep && !(p = morecore(units))) {
      unlock();
      return NULL;
    }
  }
}

void free(void *ap) {
  if (!ap) return;
  lock();
  release(ap);
  unlock();
}

void *calloc(size_t n, size_t size) {
  if (size && n > TOS_MAX_IMAGE_BYTES / size) return NULL;
  void *p = malloc(n * size);
  if (p) memset(p, 0, n * size);
  return p;
}

void *realloc(void *ap, size_t nbytes) {
  if (!ap) return malloc(nbytes);
  if (!nbytes) {
    free(ap);
    return NULL;
  }
  size_t have = (((Header *)ap - 1)->s.units - 1) * sizeof(Header);
  if (have >= nbytes) return ap;
  void *np = malloc(nbytes);
  if (np) {
    memcpy(np, ap, have);
    free(ap);
  }
  return np;
}

/* ---- sorting and searching ---- */
static void swap(char *a, char *b, size_t n) {
  while (n--) {
    char t = *a;
    *a++ = *b;
    *b++ = t;
  }
}

/* Shell sort (gaps 1, 4, 13, 40, ...): no recursion, no extra memory. */
void qsort(void *base_, size_t n, size_t size, int (*cmp)(const void *, const void *)) {
  char *b = base_;
  size_t gap = 1;
  while (gap < n / 3) gap = gap * 3 + 1;
  for (; gap; gap /= 3)
    for (size_t i = gap; i < n; ++i)
      for (size_t j = i; j >= gap && cmp(b + (j - gap) * size, b + j * size) > 0; j -= gap)
        swap(b + (j - gap) * size, b + j * size, size);
}

void *bsearch(const void *key, const void *base_, size_t n, size_t size, int (*cmp)(const void *, const void *)) {
  const char *b = base_;
  while (n) {
    const char *mid = b + (n / 2) * size;
    int c = cmp(key, mid);
    if (c == 0) return (void *)mid;
    if (c > 0) {
      b = mid + size;
      n -= n / 2 + 1;
    } else {
      n /= 2;
    }
  }
  return NULL;
}

static unsigned long seed = 1;
int rand(void) {
  seed = seed * 1103515245ul + 12345ul;
  return (int)((seed >> 16) & RAND_MAX);
}
void srand(unsigned s) { seed = s; }
