/* Entries (issue #30): create() starts a thread only at mapped, read-only code of its process,
 * here or on another board (the home checks: it has every code page). An entry inside the image
 * area but unmapped used to pass, and the RTE that entered the thread faulted in supervisor
 * mode: a kernel fault, every process on the board gone. Refused now: unmapped, in data, odd,
 * outside the image, the kernel's own memory. And should a thread's PC lose its page while it
 * is not running (code it runs from its heap, freed by another thread), the fault in the RTE
 * that resumes it is that thread's: its process is removed with a bus error, the board goes on
 * (the child process "entries_must_be_mapped_code rte" shows it; the ctest regex reads the
 * message). */
#include "tos_check.h"

static volatile int ran;
static int data_word = 0x4E75; /* RTS: executable bytes, but a data page */
static void good(void *arg) { ran = (int)arg; exit(0); }

static void jump(void *code) { ((void (*)(void))code)(); }

/* The child: a thread runs a loop in a heap page; the page is freed while it is preempted. */
static int rte_child(void) {
  long pad = -(long)sbrk(0) & (TOS_PAGE_SIZE - 1);
  if (pad) sbrk(pad);
  unsigned short *code = sbrk(TOS_PAGE_SIZE);
  CHECK(code != (void *)-1, "sbrk");
  for (int i = 0; i < TOS_PAGE_SIZE / 2; ++i) code[i] = 0x60FE; /* bra.s . */
  int tid = create(1, 4, HERE, jump, code);
  CHECK(tid, "create: %s", tos_strerror(tos_errno));
  for (int k = 0; k < 5; ++k) yield(); /* it runs, its slice ends inside the loop */
  compute_ms(50);
  sbrk(-TOS_PAGE_SIZE);
  for (;;) yield(); /* it is scheduled again: its RTE faults; the process is removed */
}

int main(int argc, char **argv) {
  if (argc > 1 && !strcmp(argv[1], "rte")) return rte_child();
  int air = (int)tos_info(TOS_INFO_BOARD) == 2 ? 3 : 2;
  static const struct { const char *what; unsigned long entry; } bad[] = {
      {"unmapped, inside the image area", 0x7F000},
      {"unmapped, last word of the image area", 0x80FFE},
      {"a data word", 0},
      {"odd", 0},
      {"page 0", 0x0},
      {"the kernel's vectors", 0x8},
      {"a stack window", 0x100400},
      {"past the address space", 0x00F00000},
  };
  unsigned long entries[8];
  for (int i = 0; i < 8; ++i) entries[i] = bad[i].entry;
  entries[2] = (unsigned long)&data_word;
  entries[3] = (unsigned long)good + 1;
  for (int i = 0; i < 8; ++i)
    for (int remote = 0; remote < 2; ++remote) {
      int tid = create(i, 4, remote ? air : HERE, (void (*)(void *))entries[i], NULL);
      CHECK(tid == 0 && tos_errno == TOS_EINVAL, "create at %s (0x%lx)%s: tid %x, %s", bad[i].what, entries[i],
            remote ? " on another board" : "", tid, tos_strerror(tos_errno));
    }
  printf("create refused every entry that is not mapped code, here and on board %d\n", air);
  CHECK(create(1, 4, HERE, good, (void *)7) && wait() == 0 && ran == 7, "a good entry here");
  CHECK(create(1, 4, air, good, (void *)8) && wait() == 0, "a good entry on board %d", air);

  int pid = spawn("entries_must_be_mapped_code", "entries_must_be_mapped_code rte");
  CHECK(pid >= 0, "spawn: %d", pid);
  int code = pwait(pid);
  CHECK(code == -(0x100 + 2), "the child whose thread lost its code page ended %d, not with a bus error", code);
  printf("a thread resumed on a page that went: its process removed (bus error), the board goes on\n");
  tos_pass("entries_must_be_mapped_code");
  return 0;
}
