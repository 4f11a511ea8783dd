/* hello: the smallest TOS program. Prints its board, its thread and its arguments. */
#include <tos/tos.h>

int main(int argc, char **argv) {
  printf("hello from board %ld, thread %x:", tos_info(TOS_INFO_BOARD), gettid());
  for (int i = 0; i < argc; ++i) printf(" %s", argv[i]);
  printf("\n");
  return 0;
}
