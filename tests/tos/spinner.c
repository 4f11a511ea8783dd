/* spinner: a program for the console's job-control sessions (tests/tos_system.cmake). It says
 * it is running, then computes for MS milliseconds (default 60000) and says it is done, so a
 * session can interrupt it (Ctrl-C), stop it (Ctrl-Z) and resume it (fg, bg) while it runs.
 * `spinner wait` instead waits for ever on a channel nobody sends on: a program the end of a
 * scripted session must name as stopped. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tos/tos.h>

int main(int argc, char **argv) {
  if (argc > 1 && strcmp(argv[1], "wait") == 0) {
    char c;
    printf("spinner: waiting\n");
    receive(1, &c, 1);
    return 1;
  }
  long ms = argc > 1 ? atol(argv[1]) : 60000;
  printf("spinner: spinning\n");
  unsigned long t0 = time_us();
  volatile unsigned long n = 0;
  while (time_us() - t0 < (unsigned long)ms * 1000ul) ++n;
  printf("spinner: done after %ld ms\n", ms);
  return 0;
}
