/* An optimistic active message aborts on a page away (kernel/region.c): a region homed on fire,
 * a guest part of this process (a thread created there made it), whose pages come from earth
 * on demand. The computation air migrates there lies alone on its page of code, which no
 * thread on fire has run, so fire has not fetched it: the handler cannot start without that
 * fetch, which would block, and is aborted to fire's server thread, which faults the page in
 * and runs it. The same computation again finds the page there and completes as a handler. A
 * third, on the same page, reads a long of a data page fire has not fetched either: the handler
 * faults there, after it began, and continues in the server thread, whose rerun of the access
 * fetches the page. Fire's counts after the three: exactly one completed, two aborted on a page
 * away, none other; the results are the sums a single run of each gives. */
#include <tos/region.h>
#include "tos_check.h"

#define ME "oam_page_away"
#define AIR 2
#define FIRE 3
#define CH_ID 1
#define CH_RESULT 2
#define CH_DONE 3
#define STR_(x) #x
#define STR(x) STR_(x)

/* long far_fn(void *rgn, long arg): adds arg to the region's first long and returns it; alone on
 * its page of code (its own section, page aligned and padded to the page's end: written here in
 * assembly, as the compiler may put other functions of this file next to a C one). */
long far_fn(void *rgn, long arg);
long far_read(void *rgn, long arg);
/* a page of data of its own, written here on earth: fire fetches it when a thread there reads it */
static volatile long far_data[TOS_PAGE_SIZE / sizeof(long)] __attribute__((aligned(TOS_PAGE_SIZE)));
__asm__(".section .text.oam_far,\"ax\",@progbits\n"
        ".balign " STR(TOS_PAGE_SIZE) "\n"
        ".globl far_fn\n"
        "far_fn:\n"
        "\tmove.l 4(%sp),%a0\n"
        "\tmove.l 8(%sp),%d0\n"
        "\tadd.l (%a0),%d0\n"
        "\tmove.l %d0,(%a0)\n"
        "\trts\n"
        ".globl far_read\n"
        "far_read:\n" /* long far_read(void *rgn, long *p): adds *p to the region's first long */
        "\tmove.l 4(%sp),%a0\n"
        "\tmove.l 8(%sp),%a1\n"
        "\tmove.l (%a1),%d0\n"
        "\tadd.l (%a0),%d0\n"
        "\tmove.l %d0,(%a0)\n"
        "\trts\n"
        ".balign " STR(TOS_PAGE_SIZE) "\n"
        ".text\n");

static void maker(void *unused) { /* on fire: the region's home */
  (void)unused;
  rid_t id = rgn_create(64);
  void *r = rgn_map(id);
  CHECK(id && r, "rgn_create on fire: %s", tos_strerror(tos_errno));
  CHECK(rgn_policy(r, TOS_CM_POLICY_RPC) == 0, "rgn_policy");
  CHECK(send_block(CH_ID, &id, sizeof id) == 0, "send the id");
  int done;
  CHECK(receive(CH_DONE, &done, sizeof done) == sizeof done, "receive done");
  long oam = rgn_count(r, TOS_CM_COUNT_OAM), page = rgn_count(r, TOS_CM_COUNT_ABORT_PAGE),
       others = rgn_count(r, TOS_CM_COUNT_ABORT_BUSY) + rgn_count(r, TOS_CM_COUNT_ABORT_BUDGET) +
                rgn_count(r, TOS_CM_COUNT_ABORT_CALL);
  printf("%s: on fire: %ld completed, %ld aborted on a page away, %ld aborted otherwise\n", ME, oam, page, others);
  CHECK(oam == 1 && page == 2 && others == 0, "fire's counts");
  cm_serve_stop();
  exit(0);
}

static void client(void *arg) { /* on air */
  void *r = rgn_map((rid_t)(long)arg);
  CHECK(r, "rgn_map on air: %s", tos_strerror(tos_errno));
  int how1 = 0, how2 = 0, how3 = 0;
  long v[3] = {cm_call_how(r, TOS_CM_WRITE, far_fn, 3, &how1), cm_call_how(r, TOS_CM_WRITE, far_fn, 4, &how2),
               cm_call_how(r, TOS_CM_WRITE, far_read, (long)&far_data[5], &how3)};
  CHECK(v[0] == 3 && v[1] == 7 && v[2] == 107 && how1 == TOS_CM_DONE && how2 == TOS_CM_DONE && how3 == TOS_CM_DONE,
        "results %ld %ld %ld (how %d %d %d)", v[0], v[1], v[2], how1, how2, how3);
  CHECK(send_block(CH_RESULT, v, sizeof v) == 0, "send the results");
  exit(0);
}

int main(void) {
  far_data[5] = 100;
  cm_oam(1);
  CHECK(create(FIRE, 4, FIRE, maker, NULL), "the maker on fire: %s", tos_strerror(tos_errno));
  rid_t id;
  CHECK(receive(CH_ID, &id, sizeof id) == sizeof id, "receive the id");
  CHECK(cm_serve_start_on(FIRE, 4), "a server on fire: %s", tos_strerror(tos_errno));
  CHECK(create(AIR, 4, AIR, client, (void *)(long)id), "the client on air");
  long v[3];
  CHECK(receive(CH_RESULT, v, sizeof v) == sizeof v, "receive the results");
  int done = 1;
  CHECK(send_block(CH_DONE, &done, sizeof done) == 0, "send done");
  CHECK(wait() == 0, "a thread failed (its board's console says why)");
  tos_pass(ME);
  return 0;
}
