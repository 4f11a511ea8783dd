/* A checkpoint's open files are checked where they land (seed 001; kernel/pmigrate.c, file.c):
 * earth forges to air four images of a process that does not exist, each with one bad file
 * record: descriptors that name no index, a name the filestore cannot hold, an offset past the
 * largest file, and a block of a file no record announced; and two requests to send a process
 * home: one for a process with no part on air, one naming another board as its home. Air must
 * refuse each (counted, said on its console), make nothing of it, tell the home an image failed,
 * and then still take a real process moved from earth with its files open, which ends well there. */
#include <testbed/tos_net.h>
#include "tos_check.h"

/* As the kernel lays them out (kernel/defs.h struct pmig_file(s), pmigrate.c's REC_*). */
struct pmig_file {
  uint16_t fds;
  uint8_t flags, pad;
  uint32_t off, size;
  char name[TOS_FS_NAME_LEN];
};
#define REC_FILES 0x10000u
#define REC_PIECE 0x20000u
static uint32_t block[TOS_PAGE_SIZE / 4];

static void inject(int to, int type, const uint32_t *ops, int nops, const void *data) {
  int r;
  unsigned long t0 = time_us();
  while ((r = data ? net_inject_data(to, type, ops, nops, data) : net_inject(to, type, ops, nops)) == -TOS_EAGAIN &&
         time_us() - t0 < 2000000)
    yield();
  CHECK(r == 0, "inject: %s", tos_strerror(r));
}

/* An image of two records for the made-up process (me, 14, serial): the file record, then `second`. */
static void forge(int air, int me, uint32_t serial, const struct pmig_file *f, uint32_t second) {
  const uint32_t begin[5] = {(uint32_t)me, 14, serial, TOS_PMIG_DIRECT, 2};
  inject(air, NET_PMIG_BEGIN, begin, 5, NULL);
  memset(block, 0, sizeof block);
  block[0] = 1;
  memcpy(&block[1], f, sizeof *f);
  const uint32_t rec[6] = {(uint32_t)me, 14, serial, REC_FILES, 0, 2};
  inject(air, NET_PMIG_PAGE, rec, 6, block);
  memset(block, 0, sizeof block);
  const uint32_t next[6] = {(uint32_t)me, 14, serial, second, 1, 2};
  inject(air, NET_PMIG_PAGE, next, 6, block);
}

int main(void) {
  int air = 2, me = (int)tos_info(TOS_INFO_BOARD);
  CHECK(me != air && me != 0, "run this on a slave other than air");
  const uint32_t page = (TOS_USER_BASE >> 10) + 8; /* a data page the image would hold */
  struct pmig_file f = {1u << 3, TOS_O_READ | TOS_O_WRITE, 0, 10, 100, "forged.f"};
  struct pmig_file bad = f;
  bad.fds = 0;
  forge(air, me, 1001, &bad, page);
  bad = f;
  strcpy(bad.name, "bad/name");
  forge(air, me, 1002, &bad, page);
  bad = f;
  bad.off = 512u * 1024u + 1u;
  forge(air, me, 1003, &bad, page);
  forge(air, me, 1004, &f, REC_PIECE | 5u << 9); /* the record announces one file: there is no file 5 */
  const uint32_t pull_none[6] = {(uint32_t)me, 14, 1005, TOS_PMIG_DIRECT, 0, 0};
  const uint32_t pull_other[6] = {3, 1, 1, TOS_PMIG_DIRECT, 0, 0};
  inject(air, NET_PMIG_PULL, pull_none, 6, NULL);
  inject(air, NET_PMIG_PULL, pull_other, 6, NULL);
  unsigned long t0 = time_us();
  while (time_us() - t0 < 200000) yield(); /* (air has them all) */
  int pid = spawn("pmig_file_task", "pmig_file_task 9");
  CHECK(pid >= 0, "spawn: %s", tos_strerror(pid));
  static struct tos_stat st;
  t0 = time_us();
  while ((stat("log.9", &st) != 0 || st.size != 7) && time_us() - t0 < 5000000) yield();
  int r;
  for (int k = 0; (r = pmigrate(pid, air, TOS_PMIG_DIRECT)) == -TOS_EAGAIN && k < 20; ++k) {
  }
  CHECK(r == 0, "a real pmigrate after the forgeries: %s", tos_strerror(r));
  CHECK(pwait(pid) == 0, "the moved task failed");
  tos_pass("pmig_files_forged_refused");
  return 0;
}
