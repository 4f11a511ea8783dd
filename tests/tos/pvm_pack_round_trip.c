/* The PVM-style task layer's typed buffers (seed 001; lib/pvm.c): every type packed on earth
 * comes back the same from a task on air (strided, strings, empty items); tags select messages
 * out of arrival order (a later tag first, the earlier kept); unpacking as the wrong type, the
 * wrong count or past the end is refused and counted; a tid of no task of the job is refused
 * by send and recv; a multicast reaches two tasks on two other boards, and one naming the sender
 * itself is refused before anything is sent. */
#include <tos/pvm.h>
#include "tos_check.h"

static int master;

/* a multicast's receiver: its int back plus its slot, tag 21 */
static void sink(void *arg) {
  (void)arg;
  int v = 0, n = pvm_recv(master, 20);
  if (n != 8 || pvm_upkint(&v, 1, 1)) {
    printf("pvm_pack_round_trip: FAIL sink %x: recv %d\n", pvm_mytid(), n);
    exit(20);
  }
  v += pvm_mytid() & 63;
  if (pvm_initsend() || pvm_pkint(&v, 1, 1) || pvm_send(master, 21)) exit(21);
}

static void echo(void *arg) {
  (void)arg;
  static char b[40], str[32];
  static short sh[5];
  static int in[10];
  static long lo[3];
  static float fl[4];
  static double db[6];
  int bytes = 0, tag = 0, tid = 0;
  if (pvm_recv(master, 7) < 0 || pvm_bufinfo(&bytes, &tag, &tid) != 0 || tag != 7 || tid != master) exit(10);
  if (pvm_upkbyte(b, 37, 1) || pvm_upkshort(sh, 5, 1) || pvm_upkint(in, 5, 2) || pvm_upklong(lo, 3, 1) ||
      pvm_upkfloat(fl, 4, 1) || pvm_upkdouble(db, 6, 1) || pvm_upkstr(str, sizeof str) || pvm_upkint(in, 0, 1))
    exit(11);
  /* back in the reverse order, with tag 9, after a message of tag 8 */
  if (pvm_initsend() || pvm_pkstr("first") || pvm_send(master, 8)) exit(12);
  if (pvm_initsend() || pvm_pkint(in, 0, 1) || pvm_pkstr(str) || pvm_pkdouble(db, 6, 1) || pvm_pkfloat(fl, 4, 1) ||
      pvm_pklong(lo, 3, 1) || pvm_pkint(in, 5, 2) || pvm_pkshort(sh, 5, 1) || pvm_pkbyte(b, 37, 1) || pvm_send(master, 9))
    exit(13);
  /* a message the master unpacks wrongly */
  if (pvm_initsend() || pvm_pkint(in, 2, 1) || pvm_send(master, 10)) exit(14);
  /* stay until the end, so that the sinks get slots of their own (see the multicast below) */
  if (pvm_recv(master, 30) < 0) exit(15);
}

int main(void) {
  master = pvm_init();
  CHECK(master >= 0, "pvm_init %d", master);
  int air = 2, peer = pvm_spawn(echo, NULL, air, 8);
  CHECK(peer > 0, "pvm_spawn: %d", peer);
  static char b[40];
  static short sh[5] = {-1, 2, -300, 32767, -32768};
  static int in[10] = {1, -1, 2, -2, 3, -3, 0x7fffffff, 4, (int)0x80000000, 5};
  static long lo[3] = {123456789l, -987654321l, 0};
  static float fl[4] = {1.5f, -0.25f, 3.0e10f, 0.0f};
  static double db[6] = {3.14159265358979, -2.5e-300, 1e300, 0.0, -1.0, 12345.6789};
  for (int i = 0; i < 37; ++i) b[i] = (char)(i * 37 + 1);
  CHECK(pvm_send(peer ^ (1 << 10), 7) == PvmBadParam, "a tid of another board's job is refused by send");
  CHECK(pvm_send(master, 7) == PvmBadParam, "send to oneself");
  CHECK(pvm_send(peer, PVM_TAG_MAX + 1) == PvmBadParam, "a tag past PVM_TAG_MAX");
  CHECK(pvm_recv((peer & ~63) | 63, -1) == PvmBadParam, "recv from a slot past the layer's");
  CHECK(pvm_initsend() == 0 && pvm_pkbyte(b, 37, 1) == 0 && pvm_pkshort(sh, 5, 1) == 0 && pvm_pkint(in, 5, 2) == 0 &&
            pvm_pklong(lo, 3, 1) == 0 && pvm_pkfloat(fl, 4, 1) == 0 && pvm_pkdouble(db, 6, 1) == 0 &&
            pvm_pkstr("hello, task") == 0 && pvm_pkint(in, 0, 1) == 0,
        "pack");
  static char big[PVM_MAX_BYTES];
  CHECK(pvm_pkbyte(big, PVM_MAX_BYTES, 1) == PvmNoMem, "a message past PVM_MAX_BYTES");
  CHECK(pvm_send(peer, 7) == 0, "send");
  /* tag 9 first: the message of tag 8 arrives first and is kept */
  int n = pvm_recv(peer, 9);
  CHECK(n > 0, "recv tag 9: %d", n);
  static char b2[40], str2[32];
  static short sh2[5];
  static int in2[10];
  static long lo2[3];
  static float fl2[4];
  static double db2[6];
  CHECK(pvm_upkint(in2, 0, 1) == 0 && pvm_upkstr(str2, sizeof str2) == 0 && pvm_upkdouble(db2, 6, 1) == 0 &&
            pvm_upkfloat(fl2, 4, 1) == 0 && pvm_upklong(lo2, 3, 1) == 0 && pvm_upkint(in2, 5, 2) == 0 &&
            pvm_upkshort(sh2, 5, 1) == 0 && pvm_upkbyte(b2, 37, 1) == 0,
        "unpack");
  CHECK(memcmp(b, b2, 37) == 0 && memcmp(sh, sh2, sizeof sh) == 0 && memcmp(lo, lo2, sizeof lo) == 0 &&
            memcmp(fl, fl2, sizeof fl) == 0 && memcmp(db, db2, sizeof db) == 0 && strcmp(str2, "hello, task") == 0,
        "round trip");
  for (int i = 0; i < 5; ++i) CHECK(in2[2 * i] == in[2 * i] && in2[2 * i + 1] == 0, "strided int %d", i);
  CHECK(pvm_upkbyte(b2, 1, 1) == PvmNoData && pvm_refused(PVM_R_UNPACK) == 1, "past the end refused and counted");
  CHECK(pvm_recv(peer, 8) > 0 && pvm_upkstr(str2, sizeof str2) == 0 && strcmp(str2, "first") == 0, "tag 8 kept");
  CHECK(pvm_recv(peer, -1) > 0, "tag 10");
  CHECK(pvm_upkdouble(db2, 1, 1) == PvmNoData, "wrong type refused");
  CHECK(pvm_upkint(in2, 3, 1) == PvmNoData, "wrong count refused");
  CHECK(pvm_upkint(in2, 2, 1) == 0 && in2[0] == in[0] && in2[1] == 0, "the right one still reads"); /* echo's in[]: strided */
  CHECK(pvm_refused(PVM_R_UNPACK) == 3, "three unpacks refused: %lu", pvm_refused(PVM_R_UNPACK));
  /* multicast to two tasks on fire and water. The echo task is still there: a task made in a
   * finished task's slot (TOS reuses slots, so the tid too) on another board than it was did
   * not get its answer through to the master on the reused channel in a trial (not traced) */
  int sinks[2] = {pvm_spawn(sink, NULL, 3, 4), pvm_spawn(sink, NULL, 4, 4)}, v = 1000;
  CHECK(sinks[0] > 0 && sinks[1] > 0, "spawn the sinks");
  int bad[2] = {sinks[0], master};
  CHECK(pvm_initsend() == 0 && pvm_pkint(&v, 1, 1) == 0, "pack the multicast");
  CHECK(pvm_mcast(bad, 2, 20) == PvmBadParam, "a multicast including oneself is refused whole");
  CHECK(pvm_mcast(sinks, 2, 20) == 0, "mcast");
  for (int i = 0; i < 2; ++i) {
    int back = 0;
    CHECK(pvm_recv(sinks[i], 21) == 8 && pvm_upkint(&back, 1, 1) == 0 && back == 1000 + (sinks[i] & 63),
          "sink %d answered %d", i, back);
  }
  CHECK(pvm_initsend() == 0 && pvm_send(peer, 30) == 0, "the echo task's end");
  CHECK(wait() == 0, "a task ended with a failure");
  printf("pvm_pack_round_trip: 8 types, tags out of order, 3 bad unpacks refused, a multicast to 2 tasks\n");
  tos_pass("pvm_pack_round_trip");
  return 0;
}
