/* The environment (seed 000 section 2.1.2: "a form of environment variables"). spawn copies
 * a block of NUL-terminated NAME=value strings, ended by an empty one, onto the new process's
 * stack; __tos_start points environ at its strings. getenv reads environ; setenv / unsetenv
 * (setenv.c) change it and keep __tos_env_passed, the block spawn() gives children, current. */
#include <reent.h>
#include <stdlib.h>
#include <string.h>

char **environ;
const char *__tos_env_passed; /* NULL: unchanged, the kernel passes the block this process got */

int __tos_env_count(const char *block) {
  int n = 0;
  if (block)
    for (; *block; block += strlen(block) + 1) ++n;
  return n;
}

void __tos_env_init(char *block, char **vec) {
  int n = 0;
  if (block)
    for (; *block; block += strlen(block) + 1) vec[n++] = block;
  vec[n] = NULL;
  environ = vec;
}

char *getenv(const char *name) {
  size_t n = strlen(name);
  for (char **e = environ; e && *e; ++e)
    if (strncmp(*e, name, n) == 0 && (*e)[n] == '=') return *e + n + 1;
  return NULL;
}

/* newlib's reentrant form, which its time functions call (tzset reads TZ): the environment is
 * one per process, so the reent structure adds nothing. */
char *_getenv_r(struct _reent *r, const char *name) {
  (void)r;
  return getenv(name);
}
