/* Environment variables: spawn passes a block of NAME=value strings; getenv sees it in the
 * child; setenv / unsetenv change this process's environment and spawn() passes the changed
 * one on; spawn with no block passes the spawner's own (the kernel copies it). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tos_check.h"

#define ME "getenv_sees_its_environment"

static int count(void) {
  int n = 0;
  while (environ[n]) ++n;
  return n;
}

static int child(const char *what) {
  if (strcmp(what, "block") == 0) { /* spawned with HOME=/earth and LANG=occam */
    CHECK(getenv("HOME") && strcmp(getenv("HOME"), "/earth") == 0, "HOME is %s", getenv("HOME"));
    CHECK(getenv("LANG") && strcmp(getenv("LANG"), "occam") == 0, "LANG");
    CHECK(getenv("HOM") == NULL && getenv("NOPE") == NULL && getenv("") == NULL, "no other names");
    CHECK(count() == 2 && strcmp(environ[0], "HOME=/earth") == 0, "environ has %d entries", count());
    return 0;
  }
  if (strcmp(what, "changed") == 0) { /* the parent's setenv / unsetenv */
    CHECK(getenv("STAGE") && strcmp(getenv("STAGE"), "two") == 0, "STAGE is %s", getenv("STAGE"));
    CHECK(getenv("GONE") == NULL && getenv("KEPT") && strcmp(getenv("KEPT"), "first") == 0, "GONE / KEPT");
    /* no block: the kernel passes on this process's own */
    int pid = spawn_env(ME, ME " inherited", NULL);
    CHECK(pid >= 0, "spawn grandchild: %d", pid);
    return pwait(pid);
  }
  if (strcmp(what, "inherited") == 0) {
    CHECK(getenv("STAGE") && strcmp(getenv("STAGE"), "two") == 0, "the grandchild's STAGE is %s", getenv("STAGE"));
    CHECK(count() == 2, "the grandchild has %d variables", count());
    return 0;
  }
  if (strcmp(what, "empty") == 0) {
    CHECK(count() == 0 && getenv("STAGE") == NULL, "an empty block gives an empty environment");
    return 0;
  }
  return 99;
}

int main(int argc, char **argv) {
  if (argc > 1) return child(argv[1]);
  CHECK(environ && count() == 0 && getenv("HOME") == NULL, "the boot script passes no variables");
  int pid = spawn_env(ME, ME " block", "HOME=/earth\0LANG=occam\0");
  CHECK(pid >= 0 && pwait(pid) == 0, "the child with HOME and LANG failed");

  CHECK(setenv("STAGE", "one", 0) == 0 && setenv("STAGE", "two", 0) == 0, "setenv");
  CHECK(strcmp(getenv("STAGE"), "one") == 0, "setenv without overwrite keeps the value");
  CHECK(setenv("STAGE", "two", 1) == 0 && strcmp(getenv("STAGE"), "two") == 0, "setenv overwrites");
  CHECK(setenv("GONE", "soon", 1) == 0 && setenv("KEPT", "first", 1) == 0 && unsetenv("GONE") == 0, "unsetenv");
  CHECK(getenv("GONE") == NULL && count() == 2, "%d variables", count());
  CHECK(setenv("BAD=NAME", "x", 1) == -1 && setenv("", "x", 1) == -1, "bad names refused");
  pid = spawn(ME, ME " changed");
  CHECK(pid >= 0 && pwait(pid) == 0, "the child with the changed environment failed");
  pid = spawn_env(ME, ME " empty", "");
  CHECK(pid >= 0 && pwait(pid) == 0, "the child with an empty environment failed");

  static char huge[TOS_MAX_ENV_BYTES + 64];
  memset(huge, 'a', sizeof huge - 2);
  huge[1] = '=';
  CHECK(spawn_env(ME, ME " block", huge) == -TOS_EINVAL, "a block past %d bytes is refused", TOS_MAX_ENV_BYTES);
  tos_pass("getenv_sees_its_environment");
  return 0;
}
