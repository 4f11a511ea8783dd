/* The remote channel race (issue #30): a sender that blocks while its process has no thread on
 * another board takes the local path and tells no board; receivers are passive. A receiver
 * created on another board later -- or a thread that migrates there and then receives -- used
 * to wait for ever. The home now tells a board each waiting sender when the process gets a
 * thread there. This test forces that order: the sender is seen blocked (ps) before the
 * receiver's thread exists elsewhere. */
#include "tos_check.h"

static int my_pid(void) { return gettid() >> 6 & 15; }

static void wait_state(int tid, int state) {
  static struct tos_pinfo info;
  for (int k = 0; k < 100000; ++k) {
    CHECK(pinfo(my_pid(), &info) == 0, "pinfo");
    for (int i = 0; i < info.nthreads; ++i)
      if (info.thread[i].tid == tid && info.thread[i].state == state) return;
    yield();
  }
  CHECK(0, "thread %x never reached state %d", tid, state);
}

static char text[3000];
static void sender(void *ch) {
  for (int i = 0; i < (int)sizeof text; ++i) text[i] = (char)(i * 7 + (int)ch);
  CHECK(send_block((int)ch, text, sizeof text) == 0, "send on %d", (int)ch);
  exit(0);
}

static int check_text(int ch, const char *got, int n) {
  if (n != (int)sizeof text) return 0;
  for (int i = 0; i < n; ++i)
    if (got[i] != (char)(i * 7 + ch)) return 0;
  return 1;
}

static void receiver(void *ch) {
  static char got[4000];
  int n = receive((int)ch, got, sizeof got);
  exit(check_text((int)ch, got, n) ? 0 : 1000 + n);
}

static volatile int migrant_go;
static void migrant(void *ch) {
  while (!migrant_go) yield();
  CHECK(migrate(gettid(), (int)ch >> 8) == 0, "migrate");
  static char got[4000];
  int n = receive((int)ch & 0xFF, got, sizeof got);
  exit(check_text((int)ch & 0xFF, got, n) ? 0 : 1000 + n);
}

int main(void) {
  int me = (int)tos_info(TOS_INFO_BOARD), air = me == 2 ? 3 : 2, fire = me == 4 ? 5 : 4;

  /* a receiver created on another board after the sender here blocked */
  int s = create(1, 4, HERE, sender, (void *)5);
  CHECK(s, "create: %s", tos_strerror(tos_errno));
  wait_state(s, T_SEND);
  CHECK(create(2, 4, air, receiver, (void *)5), "create on %d: %s", air, tos_strerror(tos_errno));
  int rc = wait();
  CHECK(rc == 0, "the late receiver on board %d: %d", air, rc);
  printf("a receiver created on board %d after its sender blocked here: received\n", air);

  /* a thread that migrates to another board after the sender here blocked, then receives */
  int m = create(3, 4, HERE, migrant, (void *)(fire << 8 | 6));
  CHECK(m, "create: %s", tos_strerror(tos_errno));
  s = create(4, 4, HERE, sender, (void *)6);
  CHECK(s, "create: %s", tos_strerror(tos_errno));
  wait_state(s, T_SEND);
  migrant_go = 1;
  rc = wait();
  CHECK(rc == 0, "the receiver that migrated to board %d: %d", fire, rc);
  printf("a receiver that migrated to board %d after its sender blocked here: received\n", fire);
  tos_pass("late_receiver_finds_sender");
  return 0;
}
