/* Assertions for TOS test programs: a failed CHECK prints "FAIL: <file>:<line>: <what>" on the
 * console and ends the program with exit code 1; tos_pass() prints "<name>: PASS". The ctest
 * entry (tests/tos.cmake) runs the program on a booted TOS and reads the console. */
#ifndef TOS_CHECK_H
#define TOS_CHECK_H
#include <tos/tos.h>

#define CHECK(cond, ...)                                        \
  do {                                                          \
    if (!(cond)) {                                              \
      printf("FAIL: %s:%d: %s: ", __FILE__, __LINE__, #cond);   \
      printf(__VA_ARGS__);                                      \
      printf("\n");                                             \
      exit(1);                                                  \
    }                                                           \
  } while (0)

static inline void tos_pass(const char *name) { printf("%s: PASS\n", name); }
#endif
