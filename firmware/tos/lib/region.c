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

/* Where a migrated computation run as an optimistic active message returns (kernel/region.c):
 * its result (d0) to the kernel as rgn_serve_done(0, result). No thread ever comes here (the
 * ILLEGAL: one that jumped here faults). */
#define STR_(x) #x
#define STR(x) STR_(x)
void __cm_oam_return(void);
__asm__(".text\n.globl __cm_oam_return\n__cm_oam_return:\n"
        "\tmove.l %d0,%d2\n\tmoveq #0,%d1\n\tmoveq #" STR(SYS_RGN_SERVE_DONE) ",%d0\n"
        "\ttrap #" STR(TOS_SYSCALL_TRAP) "\n\tillegal\n");

int cm_onward(rid_t rid, int mode, cm_fn fn, long arg) {
  return check(S(SYS_RGN_ONWARD, rid, mode, fn, arg, 0)) < 0 ? -1 : 0;
}

static int oam_wanted, short_wanted;
void cm_oam(int on) { oam_wanted = on; }
void cm_short_messages(int on) { short_wanted = on; }
void *cm_map(rid_t rid) {
  void *r = rgn_map(rid);
  if (r && short_wanted && check(S(SYS_RGN_POLICY, r, 1, TOS_CM_SHORT_MESSAGES, 0, 0)) < 0) return NULL;
  return r;
}

/* The home's server: each job is a computation another board migrated here; it runs as an
 * ordinary access of the home (which may itself have to call a copy back first). With
 * optimistic active messages on, the computations run on arrival without it, and it runs those
 * that aborted (kernel/region.c). */
static void serve(void *unused) {
  (void)unused;
  struct tos_rgn_job j;
  long ret = oam_wanted ? (long)__cm_oam_return : 0;
  while (__tos_syscall(SYS_RGN_SERVE, (long)&j, ret, 0, 0, 0, 0) == 1) {
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

/* name[+oam][+cm5] */
static int suffix(const char *name, size_t *n, const char *s) {
  size_t k = strlen(s);
  if (*n <= k || strncmp(name + *n - k, s, k)) return 0;
  *n -= k;
  return 1;
}
int cm_policy_named(const char *name) {
  size_t n = strlen(name);
  int cm5 = suffix(name, &n, "+cm5");
  int oam = suffix(name, &n, "+oam");
  for (unsigned i = 0; i < sizeof policies / sizeof policies[0]; ++i)
    if (strlen(policies[i].name) == n && !strncmp(name, policies[i].name, n)) {
      if (oam) cm_oam(1);
      if (cm5) cm_short_messages(1);
      return policies[i].policy;
    }
  return -1;
}

const char *cm_policy_name(int policy) {
  for (unsigned i = 0; i < sizeof policies / sizeof policies[0]; ++i)
    if (policies[i].policy == policy) return policies[i].name;
  return "?";
}
