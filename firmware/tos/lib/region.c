/* The user side of shared regions and computation migration (<tos/region.h>): system call
 * wrappers, cm_call's three outcomes, and the home's computation server thread. */
#include <string.h>
#include <tos/region.h>
#include <tos/tos.h>

long __tos_syscall(long n, long a, long b, long c, long d, long e, long f);
#define S(n, a, b, c, d, e) __tos_syscall((n), (long)(a), (long)(b), (long)(c), (long)(d), (long)(e), 0)
static long check(long r) {
  if (r < 0) tos_errno = (int)-r;
  return r;
}

rid_t rgn_create(unsigned size) {
  long r = check(S(SYS_RGN_CREATE, size, 0, 0, 0, 0));
  return r < 0 ? 0 : (rid_t)r;
}
int rgn_delete(void *rgn) { return (int)check(S(SYS_RGN_DELETE, rgn, 0, 0, 0, 0)); }
void *rgn_map(rid_t rid) {
  long r = check(S(SYS_RGN_MAP, rid, 0, 0, 0, 0));
  return r < 0 ? NULL : (void *)r;
}
int rgn_unmap(void *rgn) { return (int)check(S(SYS_RGN_UNMAP, rgn, 0, 0, 0, 0)); }
int rgn_start_read(void *rgn) { return (int)check(S(SYS_RGN_START_READ, rgn, 0, 0, 0, 0)); }
int rgn_end_read(void *rgn) { return (int)check(S(SYS_RGN_END_READ, rgn, 0, 0, 0, 0)); }
int rgn_start_write(void *rgn) { return (int)check(S(SYS_RGN_START_WRITE, rgn, 0, 0, 0, 0)); }
int rgn_end_write(void *rgn) { return (int)check(S(SYS_RGN_END_WRITE, rgn, 0, 0, 0, 0)); }
int rgn_flush(void *rgn) { return (int)check(S(SYS_RGN_FLUSH, rgn, 0, 0, 0, 0)); }
int rgn_policy(void *rgn, int policy) { return (int)check(S(SYS_RGN_POLICY, rgn, policy, 0, 0, 0)); }
long rgn_count(void *rgn, int what) { return check(S(SYS_RGN_POLICY, rgn, 0, what, 0, 0)); }

long cm_call_how(void *rgn, int mode, cm_fn fn, long arg, int *how) {
  long result = 0;
  long st = check(S(SYS_RGN_CM, rgn, mode, fn, arg, &result));
  if (how) *how = (int)st;
  int write = mode == TOS_CM_WRITE;
  if (st == TOS_CM_LOCAL) { /* this board's copy will do (or this is the home) */
    st = check(write ? rgn_start_write(rgn) : rgn_start_read(rgn));
    if (st < 0) {
      if (how) *how = (int)st;
      return 0;
    }
    result = fn(rgn, arg);
    if (write) rgn_end_write(rgn);
    else rgn_end_read(rgn);
  } else if (st == TOS_CM_STARTED) { /* the home sent the data: the access is open here */
    result = fn(rgn, arg);
    if (write) rgn_end_write(rgn);
    else rgn_end_read(rgn);
  } else if (st != TOS_CM_DONE) {
    return 0;
  }
  return result;
}

/* The home's server: each job is a computation another board migrated here; it runs as an
 * ordinary access of the home (which may itself have to call a copy back first). */
static void serve(void *unused) {
  (void)unused;
  struct tos_rgn_job j;
  while (__tos_syscall(SYS_RGN_SERVE, (long)&j, 0, 0, 0, 0, 0) == 1) {
    void *rgn = (void *)j.rgn;
    int write = j.mode == TOS_CM_WRITE;
    long result = 0;
    if ((write ? rgn_start_write(rgn) : rgn_start_read(rgn)) == 0) {
      result = ((cm_fn)j.fn)(rgn, (long)j.arg);
      if (write) rgn_end_write(rgn);
      else rgn_end_read(rgn);
    }
    __tos_syscall(SYS_RGN_SERVE_DONE, (long)j.id, result, 0, 0, 0, 0);
  }
  exit(0);
}

int cm_serve_start(int n_pages) { return create(0, n_pages > 0 ? n_pages : 4, HERE, serve, NULL); }
int cm_serve_start_on(int board, int n_pages) { return create(0, n_pages > 0 ? n_pages : 4, board, serve, NULL); }
void cm_serve(void) { serve(NULL); }
void cm_serve_stop(void) { __tos_syscall(SYS_RGN_SERVE, 0, 0, 0, 0, 0, 0); }

static const struct {
  const char *name;
  int policy;
} policies[] = {{"data", TOS_CM_POLICY_DATA}, {"rpc", TOS_CM_POLICY_RPC}, {"static", TOS_CM_POLICY_STATIC},
                {"repeat", TOS_CM_POLICY_REPEAT}};

int cm_policy_named(const char *name) {
  for (unsigned i = 0; i < sizeof policies / sizeof policies[0]; ++i)
    if (!strcmp(name, policies[i].name)) return policies[i].policy;
  return -1;
}

const char *cm_policy_name(int policy) {
  for (unsigned i = 0; i < sizeof policies / sizeof policies[0]; ++i)
    if (policies[i].policy == policy) return policies[i].name;
  return "?";
}
