/* malloc, free, calloc, realloc: TOS's own allocator, kept under newlib (README "The C
 * library"): newlib's stdio and dtoa allocate through the _malloc_r family below, which sets
 * errno on failure.
 *
 * malloc is Kernighan and Ritchie's (section 8.7): a circular free list in address order, first
 * fit, neighbours joined on free, 8-byte headers. The heap grows by sbrk, at least 4 KB at a
 * time; its frames go back to the kernel when the process ends. A TAS lock makes it safe for
 * the threads of a process (a thread that finds it taken yields). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <tos/tos.h>

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


/* newlib's reentrant entry points (its stdio, dtoa and the rest call these). */
struct _reent;
void *_malloc_r(struct _reent *r, size_t n) {
  (void)r;
  void *p = malloc(n);
  if (!p) errno = ENOMEM;
  return p;
}
void _free_r(struct _reent *r, void *p) {
  (void)r;
  free(p);
}
void *_calloc_r(struct _reent *r, size_t n, size_t size) {
  (void)r;
  void *p = calloc(n, size);
  if (!p) errno = ENOMEM;
  return p;
}
void *_realloc_r(struct _reent *r, void *p, size_t n) {
  (void)r;
  void *q = realloc(p, n);
  if (!q && n) errno = ENOMEM;
  return q;
}
