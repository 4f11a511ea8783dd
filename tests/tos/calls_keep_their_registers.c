/* The registers a system call keeps (issue 32, tos.toml): a call through TRAP #0 and a yield
 * through TRAP #1 (its own vector) or through TRAP #0 with yield's number keep d2-d7 and a2-a6,
 * the C ABI's callee-saved registers, while another thread of the process runs in between (the
 * fast yield saves only those eleven into the TCB); a thread preempted at its slice's end gets
 * all fifteen back, the scratch ones too (d0-d1/a0-a1 are lost only across a call). Each check
 * fills the registers with patterns in assembly, so the compiler keeps nothing of its own there,
 * and returns the number of registers that changed. */
#include "tos_check.h"

#define STR_(x) #x
#define STR(x) STR_(x)

/* long NAME(void): the callee-saved registers filled, the trap sequence TRAP run, the eleven
 * compared; the count of those changed in d0 */
#define KEPT_ACROSS(NAME, TRAP)                                                          \
  __asm__(".text\n.globl " #NAME "\n" #NAME ":\n"                                      \
          "  movem.l %d2-%d7/%a2-%a6,-(%sp)\n"                                         \
          "  move.l #0x22222202,%d2\n  move.l #0x33333303,%d3\n  move.l #0x44444404,%d4\n" \
          "  move.l #0x55555505,%d5\n  move.l #0x66666606,%d6\n  move.l #0x77777707,%d7\n" \
          "  move.l #0x0A0A0A2A,%a2\n  move.l #0x0B0B0B3B,%a3\n  move.l #0x0C0C0C4C,%a4\n" \
          "  move.l #0x0D0D0D5D,%a5\n  move.l #0x0E0E0E6E,%a6\n" TRAP                    \
          "  moveq #0,%d0\n"                                                           \
          "  cmp.l #0x22222202,%d2\n  beq.s 1f\n  addq.l #1,%d0\n"                     \
          "1: cmp.l #0x33333303,%d3\n  beq.s 1f\n  addq.l #1,%d0\n"                    \
          "1: cmp.l #0x44444404,%d4\n  beq.s 1f\n  addq.l #1,%d0\n"                    \
          "1: cmp.l #0x55555505,%d5\n  beq.s 1f\n  addq.l #1,%d0\n"                    \
          "1: cmp.l #0x66666606,%d6\n  beq.s 1f\n  addq.l #1,%d0\n"                    \
          "1: cmp.l #0x77777707,%d7\n  beq.s 1f\n  addq.l #1,%d0\n"                    \
          "1: cmp.l #0x0A0A0A2A,%a2\n  beq.s 1f\n  addq.l #1,%d0\n"                    \
          "1: cmp.l #0x0B0B0B3B,%a3\n  beq.s 1f\n  addq.l #1,%d0\n"                    \
          "1: cmp.l #0x0C0C0C4C,%a4\n  beq.s 1f\n  addq.l #1,%d0\n"                    \
          "1: cmp.l #0x0D0D0D5D,%a5\n  beq.s 1f\n  addq.l #1,%d0\n"                    \
          "1: cmp.l #0x0E0E0E6E,%a6\n  beq.s 1f\n  addq.l #1,%d0\n"                    \
          "1: movem.l (%sp)+,%d2-%d7/%a2-%a6\n  rts\n")

KEPT_ACROSS(kept_across_yield_trap, "  trap #" STR(TOS_YIELD_TRAP) "\n");
KEPT_ACROSS(kept_across_yield_call, "  moveq #" STR(SYS_YIELD) ",%d0\n  trap #" STR(TOS_SYSCALL_TRAP) "\n");
KEPT_ACROSS(kept_across_gettid, "  moveq #" STR(SYS_GETTID) ",%d0\n  trap #" STR(TOS_SYSCALL_TRAP) "\n");
long kept_across_yield_trap(void);
long kept_across_yield_call(void);
long kept_across_gettid(void);

/* long kept_through_slices(void): all fifteen registers filled, a loop of about 180 ms (nine
 * 20 ms slices, the other thread running in each gap) counting d0 down, then d1-d7/a0-a6
 * compared: the count of those changed */
__asm__(".text\n.globl kept_through_slices\nkept_through_slices:\n"
        "  movem.l %d2-%d7/%a2-%a6,-(%sp)\n"
        "  move.l #0x11111101,%d1\n  move.l #0x22222202,%d2\n  move.l #0x33333303,%d3\n"
        "  move.l #0x44444404,%d4\n  move.l #0x55555505,%d5\n  move.l #0x66666606,%d6\n"
        "  move.l #0x77777707,%d7\n  move.l #0x08080818,%a0\n  move.l #0x09090929,%a1\n"
        "  move.l #0x0A0A0A2A,%a2\n  move.l #0x0B0B0B3B,%a3\n  move.l #0x0C0C0C4C,%a4\n"
        "  move.l #0x0D0D0D5D,%a5\n  move.l #0x0E0E0E6E,%a6\n"
        "  move.l #100000,%d0\n"
        "2: subq.l #1,%d0\n  bne.s 2b\n"
        "  cmp.l #0x11111101,%d1\n  beq.s 1f\n  addq.l #1,%d0\n"
        "1: cmp.l #0x22222202,%d2\n  beq.s 1f\n  addq.l #1,%d0\n"
        "1: cmp.l #0x33333303,%d3\n  beq.s 1f\n  addq.l #1,%d0\n"
        "1: cmp.l #0x44444404,%d4\n  beq.s 1f\n  addq.l #1,%d0\n"
        "1: cmp.l #0x55555505,%d5\n  beq.s 1f\n  addq.l #1,%d0\n"
        "1: cmp.l #0x66666606,%d6\n  beq.s 1f\n  addq.l #1,%d0\n"
        "1: cmp.l #0x77777707,%d7\n  beq.s 1f\n  addq.l #1,%d0\n"
        "1: cmp.l #0x08080818,%a0\n  beq.s 1f\n  addq.l #1,%d0\n"
        "1: cmp.l #0x09090929,%a1\n  beq.s 1f\n  addq.l #1,%d0\n"
        "1: cmp.l #0x0A0A0A2A,%a2\n  beq.s 1f\n  addq.l #1,%d0\n"
        "1: cmp.l #0x0B0B0B3B,%a3\n  beq.s 1f\n  addq.l #1,%d0\n"
        "1: cmp.l #0x0C0C0C4C,%a4\n  beq.s 1f\n  addq.l #1,%d0\n"
        "1: cmp.l #0x0D0D0D5D,%a5\n  beq.s 1f\n  addq.l #1,%d0\n"
        "1: cmp.l #0x0E0E0E6E,%a6\n  beq.s 1f\n  addq.l #1,%d0\n"
        "1: movem.l (%sp)+,%d2-%d7/%a2-%a6\n  rts\n");
long kept_through_slices(void);

static volatile int stop, partner_runs;

/* The other thread: its own registers through the same yields, and the CPU in between. */
static void partner(void *arg) {
  (void)arg;
  while (!stop) {
    ++partner_runs;
    if (kept_across_yield_trap() != 0) exit(2);
    if (kept_across_yield_call() != 0) exit(3);
  }
  exit(0);
}

int main(void) {
  CHECK(create(1, 2, HERE, partner, NULL), "create: %s", tos_strerror(tos_errno));
  for (int i = 0; i < 200; ++i) {
    long n = kept_across_yield_trap();
    CHECK(n == 0, "TRAP #1 (yield) changed %ld of d2-d7/a2-a6", n);
    n = kept_across_yield_call();
    CHECK(n == 0, "TRAP #0 with yield's number changed %ld of d2-d7/a2-a6", n);
    n = kept_across_gettid();
    CHECK(n == 0, "TRAP #0 (gettid) changed %ld of d2-d7/a2-a6", n);
  }
  /* the yields switched: the other thread ran about once a round (two yields each way) */
  CHECK(partner_runs >= 100, "the other thread ran %d times in 200 rounds of yields", partner_runs);
  unsigned long t0 = time_us();
  long n = kept_through_slices();
  unsigned long ms = (time_us() - t0) / 1000;
  CHECK(n == 0, "%ld of d1-d7/a0-a6 changed across %lu ms of preemptions", n, ms);
  CHECK(ms > 3 * TOS_SLICE_US / 1000, "the loop took %lu ms: no slice ended inside it", ms);
  stop = 1;
  CHECK(wait() == 0, "the other thread found its registers changed");
  printf("calls_keep_their_registers: 600 calls and yields, %lu ms preempted\n", ms);
  tos_pass("calls_keep_their_registers");
  return 0;
}
