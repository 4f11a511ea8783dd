/* Region protocol messages are checked where they arrive (test kernel: net_inject). A region of
 * earth (the home) is read on air; then a thread on fire forges steps: to air, data and an
 * invalidation not from the region's home; to earth, answers to invalidations and recalls it
 * never asked for, a write-back from a board without the copy, a request of no kind, a migrated
 * computation at an odd address and one in the name of a thread that is not on fire, a map in
 * the name of air (only the process's home may ask for another board), a set-up (the CM-5's
 * round trip) with no thread's TID, onward steps (a computation going on from another home) for a
 * caller not on the board named, for a caller on no board and at an odd address; to air, a
 * set-up's answer not from the home and a migration's result from a board that homes no region
 * of the process air maps. Each is
 * refused (the consoles say so, once per kind), none changes the region, a size answer no one
 * asked for does no harm (it is counted as stale, info RGN_STALE on air), and the region works
 * on afterwards. */
#include <tos/region.h>
#include <testbed/tos_net.h>
#include "tos_check.h"

static rid_t id;

static long get(void *rgn, long unused) {
  (void)unused;
  return ((long *)rgn)[0];
}

static void reader(void *unused) {
  (void)unused;
  long *r = rgn_map(id);
  CHECK(r && rgn_start_read(r) == 0 && r[0] == 1234 && rgn_end_read(r) == 0, "air reads the region");
  exit(0);
}

static void forger(void *unused) {
  (void)unused;
  uint32_t me_tid = (uint32_t)gettid();
  uint32_t none = 0xFFFF;
  const struct {
    int board, type, nops;
    uint32_t ops[6];
  } f[] = {
      {2, NET_RGN_DATA, 5, {id, 1, none, 0, 1}},      /* data not from the home */
      {2, NET_RGN_INVAL, 1, {id}},                    /* an invalidation not from the home */
      {1, NET_RGN_INVAL_ACK, 1, {id}},                /* an answer not asked for */
      {1, NET_RGN_RECALL_ACK, 4, {id, 1, 0, 1}},      /* a recall's answer not asked for */
      {1, NET_RGN_FLUSH, 4, {id, 1, 0, 1}},           /* a write-back from a board without the copy */
      {1, NET_RGN_REQ, 2, {id, 7}},                   /* no such request kind */
      {1, NET_RGN_CM, 5, {id, 2, 0x1001, 0, me_tid}}, /* a computation at an odd address */
      {1, NET_RGN_CM, 5, {id, 2, 0x1000, 0, (me_tid & ~63u) | 63u}}, /* a caller that is not on fire */
      {1, NET_RGN_MAP, 5, {id, 2, 1, 0, 1}},          /* a map for air, sent by fire */
      {2, NET_RGN_MAPPED, 2, {id, 256}},              /* a size nobody asked for: counted */
      {1, NET_RGN_SETUP, 2, {id, 0x20000}},           /* a set-up for no thread (nor onward step) */
      {1, NET_RGN_CM_FWD, 6, {id, 2, 0x1000, 0, 2u << 16 | ((me_tid & ~63u) | 63u), id}}, /* a caller not on air */
      {1, NET_RGN_CM_FWD, 6, {id, 2, 0x1000, 0, 0xFFu << 16 | me_tid, id}}, /* a caller on no board */
      {1, NET_RGN_CM_FWD, 6, {id, 2, 0x1001, 0, 2u << 16 | me_tid, id}},     /* at an odd address */
      {2, NET_RGN_SETUP_ACK, 2, {id, me_tid}},        /* a set-up's answer not from the home */
      {2, NET_RGN_CM_DONE, 3, {id, me_tid, 0}},       /* a result from a board homing none of the regions air maps */
  };
  for (unsigned i = 0; i < sizeof f / sizeof f[0]; ++i)
    CHECK(net_inject(f[i].board, f[i].type, f[i].ops, f[i].nops) == 0, "inject %u: %s", i, tos_strerror(tos_errno));
  exit(0);
}

int main(void) {
  id = rgn_create(64);
  long *r = rgn_map(id);
  CHECK(id && r, "rgn_create");
  CHECK(rgn_start_write(r) == 0, "start_write");
  r[0] = 1234;
  rgn_end_write(r);
  CHECK(create(1, 4, 2, reader, NULL) && wait() == 0, "air read it");
  long refused0 = tos_info(TOS_INFO_NET_REFUSED);
  CHECK(create(2, 4, 3, forger, NULL) && wait() == 0, "fire forged");
  for (volatile int d = 0; d < 20000; ++d) { /* the forgeries arrive */
  }
  long refused = tos_info(TOS_INFO_NET_REFUSED) - refused0;
  CHECK(refused == 11, "earth refused %ld of the 11 forged steps sent to it", refused);
  CHECK(rgn_start_read(r) == 0 && r[0] == 1234 && rgn_end_read(r) == 0, "the home's copy is unchanged");
  CHECK(create(3, 4, 2, reader, NULL) && wait() == 0, "air reads it again");
  int how = 0;
  CHECK(cm_call_how(r, TOS_CM_READ, get, 0, &how) == 1234 && how == TOS_CM_LOCAL, "the home's own access");
  tos_pass("forged_region_steps_fail");
  return 0;
}
