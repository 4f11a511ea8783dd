/* dgl: switch event classes on and off (seed 000 section 2.2.3's diagnostic level).
 *   dgl                 print the classes that are on
 *   dgl +comms -rq ...  switch classes on (+) or off (-); "all" names every class
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

int main(int argc, char **argv) {
  int set = 0, clear = 0;
  for (int i = 1; i < argc; ++i) {
    int m = (argv[i][0] == '+' || argv[i][0] == '-') ? lookup(argv[i] + 1) : 0;
    if (!m) {
      printf("dgl: unknown class '%s' (use +name or -name; classes:", argv[i]);
      for (int k = 0; k < NCLASSES; ++k) printf(" %s", classes[k].name);
      printf(")\n");
      return 2;
    }
    if (argv[i][0] == '+') set |= m; else clear |= m;
  }
  int now = dgl_set(set, clear);
  printf("dgl on board %ld:", tos_info(TOS_INFO_BOARD));
  for (int k = 0; k < NCLASSES; ++k)
    if (now & classes[k].mask) printf(" %s", classes[k].name);
  printf(now ? "\n" : " (none)\n");
  return 0;
}
