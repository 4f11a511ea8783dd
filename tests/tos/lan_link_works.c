/* The master's LAN link (kernel/lan.c) against the host file service of the testbed, whose
 * upload and download folders are both the run's output folder: a file put can be got back.
 * The ctest places lan-upload.txt there first. Checks:
 *  - a file the host holds comes back whole (lan_get), and one put comes back the same;
 *  - a missing file: -ENOENT; a bad name: -EINVAL (refused before the link); a file larger than
 *    the buffer: -EFBIG; a bad buffer: -EFAULT;
 *  - a request with a corrupt frame (TOS_LAN_BAD_CHECKSUM): the host refuses it (status 3),
 *    the call returns -EIO, and nothing was stored;
 *  - a request whose data never comes (TOS_LAN_STALL): -ETIMEDOUT after 5 s, nothing stored,
 *    and the link still works;
 *  - a transfer blocks only its thread: another thread counts meanwhile, and two threads'
 *    transfers queue for the link and both complete;
 *  - a process killed in the middle of a put: the link stays in step and the host has nothing. */
#include "tos_check.h"

#define BIG 6000
static char big[BIG], back[BIG];
static volatile unsigned long counter;
static volatile int transfers_done;

static void count(void *arg) {
  (void)arg;
  while (!transfers_done) {
    ++counter;
    yield();
  }
  exit(0);
}

static char got2[64];
static int rc2;
static void second_getter(void *arg) {
  (void)arg;
  rc2 = lan_get("lan-upload.txt", got2, sizeof got2);
  exit(0);
}

static void fill(char *b, int n, int seed) {
  for (int i = 0; i < n; ++i) b[i] = (char)(i * 7 + seed);
}

int main(int argc, char **argv) {
  if (argc > 1 && strcmp(argv[1], "child") == 0) { /* to be killed in the middle of its put */
    fill(big, BIG, 3);
    lan_put("lan-killed.bin", big, BIG);
    printf("lan_link_works child: the put ended before the kill\n");
    return 0;
  }
  CHECK(tos_info(TOS_INFO_MASTER) == 1, "runs on the master");
  static const char expect[] = "Uploaded by the host for TOS.";
  char got[64];
  int n = lan_get("lan-upload.txt", got, sizeof got);
  CHECK(n == (int)sizeof expect - 1, "lan_get of the uploaded file: %d (%s)", n, tos_strerror(n));
  CHECK(memcmp(got, expect, (size_t)n) == 0, "its contents");

  /* round trip, while another thread counts */
  CHECK(create(2, 2, HERE, count, NULL), "create the counter");
  fill(big, BIG, 1);
  unsigned long c0 = counter;
  CHECK(lan_put("lan-round.bin", big, BIG) == 0, "lan_put of %d bytes", BIG);
  CHECK(counter > c0 + 100, "the other thread ran during the transfer (%lu times)", counter - c0);
  memset(back, 0, BIG);
  n = lan_get("lan-round.bin", back, BIG);
  CHECK(n == BIG, "lan_get of what was put: %d (%s)", n, tos_strerror(n));
  CHECK(memcmp(back, big, BIG) == 0, "the round trip keeps every byte");
  CHECK(lan_put("lan-empty.bin", big, 0) == 0, "an empty file");
  CHECK(lan_get("lan-empty.bin", back, BIG) == 0, "an empty file comes back empty");

  /* errors */
  n = lan_get("no-such-file.txt", got, sizeof got);
  CHECK(n == -TOS_ENOENT, "a missing file: %d (%s)", n, tos_strerror(n));
  printf("lan_link_works: missing file: %s\n", tos_strerror(n));
  CHECK(lan_get("bad/name", got, sizeof got) == -TOS_EINVAL, "a name with a slash");
  CHECK(lan_get(".hidden", got, sizeof got) == -TOS_EINVAL, "a name starting with a dot");
  CHECK(lan_get("", got, sizeof got) == -TOS_EINVAL, "an empty name");
  n = lan_get("lan-round.bin", got, sizeof got);
  CHECK(n == -TOS_EFBIG, "a file larger than the buffer: %d (%s)", n, tos_strerror(n));
  CHECK(lan_get("lan-upload.txt", (void *)0x10, 64) == -TOS_EFAULT, "an unmapped buffer");
  CHECK(lan_put("lan-x.bin", (void *)0xFFFFF0, 64) == -TOS_EFAULT, "an unmapped buffer to put");
  n = (int)__tos_syscall(SYS_LAN_PUT, (long)"lan-corrupt.bin", (long)big, 100, TOS_LAN_BAD_CHECKSUM, 0, 0);
  CHECK(n == -TOS_EIO, "a corrupt frame: %d (%s)", n, tos_strerror(n));
  printf("lan_link_works: corrupt frame: %s\n", tos_strerror(n));
  n = lan_get("lan-corrupt.bin", back, BIG);
  CHECK(n == -TOS_ENOENT, "the host stored nothing of the corrupt frame: %d", n);
  n = lan_get("lan-upload.txt", got, sizeof got);
  CHECK(n == (int)sizeof expect - 1, "the link works after the corrupt frame: %d", n);

  /* a request the host never sees the end of (TOS_LAN_STALL): -ETIMEDOUT after 5 s, not a hang */
  unsigned long t1 = time_us();
  n = (int)__tos_syscall(SYS_LAN_PUT, (long)"lan-stalled.bin", (long)big, 100, TOS_LAN_STALL, 0, 0);
  unsigned long waited_ms = (time_us() - t1) / 1000ul;
  CHECK(n == -TOS_ETIMEDOUT, "a stalled request: %d (%s)", n, tos_strerror(n));
  CHECK(waited_ms >= 5000 && waited_ms < 5200, "it gave up after 5 s: %lu ms", waited_ms);
  printf("lan_link_works: stalled request: %s after %lu ms\n", tos_strerror(n), waited_ms);
  n = lan_get("lan-stalled.bin", back, BIG);
  CHECK(n == -TOS_ENOENT, "the host stored nothing of the stalled request: %d (%s)", n, tos_strerror(n));
  n = lan_get("lan-upload.txt", got, sizeof got);
  CHECK(n == (int)sizeof expect - 1, "the link works after the time-out: %d", n);

  /* two transfers at once: they queue */
  CHECK(create(3, 2, HERE, second_getter, NULL), "create the second getter");
  n = lan_get("lan-round.bin", back, BIG);
  transfers_done = 1;
  CHECK(wait() == 0, "children");
  CHECK(n == BIG && rc2 == (int)sizeof expect - 1, "both queued transfers completed: %d %d", n, rc2);
  CHECK(memcmp(got2, expect, (size_t)rc2) == 0, "the second getter's contents");

  /* a process killed in the middle of its put */
  int pid = spawn("lan_link_works", "lan_link_works child");
  CHECK(pid >= 0, "spawn the child: %s", tos_strerror(pid));
  unsigned long t0 = time_us();
  while (time_us() - t0 < 300000ul) yield(); /* 6000 bytes take 1.6 s at 38400 baud */
  CHECK(kill(pid) == 0, "kill the child");
  pwait(pid);
  n = lan_get("lan-killed.bin", back, BIG);
  CHECK(n == -TOS_ENOENT, "the host stored nothing of the killed put: %d (%s)", n, tos_strerror(n));
  n = lan_get("lan-round.bin", back, BIG);
  CHECK(n == BIG && memcmp(back, big, BIG) == 0, "the link works after the kill: %d", n);
  tos_pass("lan_link_works");
  return 0;
}
