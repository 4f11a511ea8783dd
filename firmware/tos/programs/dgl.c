/* dgl: switch event classes on and off (seed 000 section 2.2.3's diagnostic level).
 *   dgl                 print the classes that are on
 *   dgl +comms -rq ...  switch classes on (+) or off (-); "all" names every class
 *   dgl @air +comms     on another board (a name or number; "@*": every slave), by a thread
 *                       created there (the classes are each board's own)
 * The classes and their events: docs/tos_abi.md. The master has no SMI: its dgl stays 0. */
#include <tos/tos.h>

static const struct {
  const char *name;
  int mask;
} classes[] = {
#define X(name, mask) {#name, mask},
    TOS_EVENT_CLASS_LIST(X)
#undef X
};
#define NCLASSES (int)(sizeof classes / sizeof classes[0])

static int lookup(const char *name) {
  if (strcmp(name, "all") == 0) return 0xFFFF;
  for (int i = 0; i < NCLASSES; ++i)
    if (strcmp(classes[i].name, name) == 0) return classes[i].mask;
  return 0;
}

static int set, clear;

static void there(void *arg) {
  (void)arg;
  int now = dgl_set(set, clear);
  printf("dgl on board %ld: 0x%x\n", tos_info(TOS_INFO_BOARD), now);
  exit(0);
}

static int board_of(const char *s) {
  static const char *const names[] = TOS_BOARD_NAMES;
  for (int b = 0; b < TOS_BOARD_NAME_COUNT; ++b)
    if (strcmp(names[b], s) == 0) return b;
  return (s[0] >= '0' && s[0] <= '9') ? atoi(s) : -1;
}

int main(int argc, char **argv) {
  int boards[TOS_BOARD_NAME_COUNT], nboards = 0;
  for (int i = 1; i < argc; ++i) {
    if (argv[i][0] == '@') {
      if (strcmp(argv[i] + 1, "*") == 0) {
        for (int b = 1; b < TOS_BOARD_NAME_COUNT && nboards < TOS_BOARD_NAME_COUNT; ++b) boards[nboards++] = b;
      } else {
        int b = board_of(argv[i] + 1);
        if (b < 0 || b >= TOS_BOARD_NAME_COUNT) {
          printf("dgl: unknown board '%s'\n", argv[i] + 1);
          return 2;
        }
        if (nboards < TOS_BOARD_NAME_COUNT) boards[nboards++] = b;
      }
      continue;
    }
    int m = (argv[i][0] == '+' || argv[i][0] == '-') ? lookup(argv[i] + 1) : 0;
    if (!m) {
      printf("dgl: unknown class '%s' (use +name or -name; classes:", argv[i]);
      for (int k = 0; k < NCLASSES; ++k) printf(" %s", classes[k].name);
      printf(")\n");
      return 2;
    }
    if (argv[i][0] == '+') set |= m; else clear |= m;
  }
  if (nboards) {
    for (int k = 0; k < nboards; ++k)
      if (boards[k] == HERE) dgl_set(set, clear);
      else if (!create(2 + k, 2, boards[k], there, NULL)) printf("dgl: board %d: %s\n", boards[k], tos_strerror(tos_errno));
    return wait();
  }
  int now = dgl_set(set, clear);
  printf("dgl on board %ld:", tos_info(TOS_INFO_BOARD));
  for (int k = 0; k < NCLASSES; ++k)
    if (now & classes[k].mask) printf(" %s", classes[k].name);
  printf(now ? "\n" : " (none)\n");
  return 0;
}
