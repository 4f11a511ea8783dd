/* The locks newlib takes around shared state (built with _RETARGETABLE_LOCKING, newlib.h):
 * every FILE, the list of streams, atexit's list, the time zone. The threads of a TOS process
 * share one address space and are preempted, so two threads printing to stdout at once must
 * not interleave inside one stream's buffer.
 *
 * A lock is a TAS byte (one indivisible read-modify-write cycle on the 68010) and, for the
 * recursive kind, its owner's TID and depth; a thread that finds it taken yields. */
#include <stdlib.h>
#include <sys/lock.h>
#include <tos/tos.h>

struct __lock {
  volatile char taken;
  int owner; /* TID + 1 of the holder (TIDs start at 0), 0 when free */
  int depth;
};

/* The static locks newlib names (sys/lock.h's __LOCK_INIT). */
struct __lock __lock___sinit_recursive_mutex, __lock___sfp_recursive_mutex,
    __lock___atexit_recursive_mutex, __lock___at_quick_exit_mutex, __lock___malloc_recursive_mutex,
    __lock___env_recursive_mutex, __lock___tz_mutex, __lock___dd_hash_mutex, __lock___arc4random_mutex;

/* For a stream whose lock could not be allocated: one lock shared by all of them (correct, if
 * coarser). */
static struct __lock fallback;

static int try_take(struct __lock *l) {
  char was;
  __asm__ volatile("tas %1\n\tsne %0" : "=d"(was), "+m"(l->taken) : : "cc", "memory");
  return !was;
}

static struct __lock *lock_or_fallback(_LOCK_T l) { return l ? l : &fallback; }

void __retarget_lock_init(_LOCK_T *lock) {
  *lock = calloc(1, sizeof(struct __lock));
}
void __retarget_lock_init_recursive(_LOCK_T *lock) { __retarget_lock_init(lock); }
void __retarget_lock_close(_LOCK_T lock) {
  if (lock && lock != &fallback) free(lock);
}
void __retarget_lock_close_recursive(_LOCK_T lock) { __retarget_lock_close(lock); }

void __retarget_lock_acquire(_LOCK_T lock) {
  struct __lock *l = lock_or_fallback(lock);
  while (!try_take(l)) yield();
}
int __retarget_lock_try_acquire(_LOCK_T lock) { return try_take(lock_or_fallback(lock)); }
void __retarget_lock_release(_LOCK_T lock) { lock_or_fallback(lock)->taken = 0; }

void __retarget_lock_acquire_recursive(_LOCK_T lock) {
  struct __lock *l = lock_or_fallback(lock);
  int me = gettid() + 1;
  if (l->owner == me) {
    ++l->depth;
    return;
  }
  while (!try_take(l)) yield();
  l->owner = me;
  l->depth = 1;
}
int __retarget_lock_try_acquire_recursive(_LOCK_T lock) {
  struct __lock *l = lock_or_fallback(lock);
  int me = gettid() + 1;
  if (l->owner == me) {
    ++l->depth;
    return 1;
  }
  if (!try_take(l)) return 0;
  l->owner = me;
  l->depth = 1;
  return 1;
}
void __retarget_lock_release_recursive(_LOCK_T lock) {
  struct __lock *l = lock_or_fallback(lock);
  if (--l->depth > 0) return;
  l->owner = 0;
  l->taken = 0;
}
