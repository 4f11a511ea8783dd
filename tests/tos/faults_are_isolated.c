/* Fault isolation: processes that write to their own code, to address 0xFFFFFF, divide by
 * zero or execute an illegal instruction are reported and removed, while a process computing
 * beside them on the same board finishes with the right answer. Run without arguments it is
 * the driver; with an argument it is one of the actors. */
#include "tos_check.h"

static volatile int zero;

static unsigned long work(void) {
  unsigned long h = 5381;
  for (unsigned long i = 0; i < 200000; ++i) h = h * 33 + (i & 0xFF);
  return h;
}

int main(int argc, char **argv) {
  if (argc > 1) {
    const char *what = argv[1];
    if (strcmp(what, "code") == 0) *(volatile unsigned short *)main = 0x4E71;
    if (strcmp(what, "top") == 0) *(volatile unsigned char *)0xFFFFFF = 1;
    if (strcmp(what, "divide") == 0) {
      unsigned long x = 100;
      __asm__ volatile("divu.w %1,%0" : "+d"(x) : "d"(zero)); /* DIVU by zero: the CPU's trap */
      printf("%lu\n", x);
    }
    if (strcmp(what, "illegal") == 0) __asm__ volatile(".word 0x4AFC"); /* ILLEGAL */
    if (strcmp(what, "work") == 0) {
      unsigned long h = work();
      printf("faults: worker computed %lx\n", h);
      return h == 0x2271D665ul ? 0 : 2;
    }
    return 3; /* a victim that survived its fault */
  }
  long frames0 = tos_info(TOS_INFO_FREE_FRAMES);
  int worker = spawn("faults_are_isolated", "faults_are_isolated work");
  CHECK(worker >= 0, "spawn worker: %d", worker);
  static const char *const victims[] = {"code", "top", "divide", "illegal"};
  for (int i = 0; i < 4; ++i) {
    char args[64];
    snprintf(args, sizeof args, "faults_are_isolated %s", victims[i]);
    int pid = spawn("faults_are_isolated", args);
    CHECK(pid >= 0, "spawn %s: %d", victims[i], pid);
    int code = pwait(pid);
    printf("faults: %s ended with %d\n", victims[i], code);
    CHECK(code < 0, "the %s victim was not stopped (exit %d)", victims[i], code);
  }
  int code = pwait(worker);
  CHECK(code == 0, "the worker beside the faults ended with %d", code);
  CHECK(tos_info(TOS_INFO_PROCS) == 1, "processes left: %ld", tos_info(TOS_INFO_PROCS));
  CHECK(tos_info(TOS_INFO_FREE_FRAMES) == frames0, "frames leaked");
  tos_pass("faults_are_isolated");
  return 0;
}
