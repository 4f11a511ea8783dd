/* setenv / unsetenv: this process's environment changes, and spawn() passes the changed one to
 * the children (as a block rebuilt here after every change). Strings and the array come from
 * malloc; a replaced string is not freed (it may be the one on the stack). */
#include <stdlib.h>
#include <string.h>
#include <testbed/tos.h>

extern char **environ;
extern const char *__tos_env_passed;
static char **owned;   /* environ once it is ours (malloc'd) */
static int slots;      /* entries owned has room for, its NULL included */
static char *block;    /* what spawn passes: TOS_MAX_ENV_BYTES */

static int count(void) {
  int n = 0;
  while (environ && environ[n]) ++n;
  return n;
}

static int find(const char *name, size_t len) {
  for (int i = 0; environ && environ[i]; ++i)
    if (strncmp(environ[i], name, len) == 0 && environ[i][len] == '=') return i;
  return -1;
}

/* The block for spawn: as many whole strings as fit in TOS_MAX_ENV_BYTES. */
static void rebuild(void) {
  if (!block && !(block = malloc(TOS_MAX_ENV_BYTES))) return;
  size_t at = 0;
  for (char **e = environ; e && *e; ++e) {
    size_t n = strlen(*e) + 1;
    if (at + n + 1 > TOS_MAX_ENV_BYTES) break;
    memcpy(block + at, *e, n);
    at += n;
  }
  block[at] = 0;
  __tos_env_passed = block;
}

int setenv(const char *name, const char *value, int overwrite) {
  size_t len = strlen(name);
  if (!len || strchr(name, '=')) return -1;
  int i = find(name, len);
  if (i >= 0 && !overwrite) return 0;
  char *s = malloc(len + strlen(value) + 2);
  if (!s) return -1;
  strcpy(s, name);
  s[len] = '=';
  strcpy(s + len + 1, value);
  if (i < 0) {
    int n = count();
    if (!owned || n + 2 > slots) {
      int want = n + 8;
      char **v = malloc((size_t)want * sizeof *v);
      if (!v) {
        free(s);
        return -1;
      }
      memcpy(v, environ, (size_t)n * sizeof *v);
      free(owned);
      owned = v;
      slots = want;
      environ = v;
    }
    i = n;
    environ[n + 1] = NULL;
  }
  environ[i] = s;
  rebuild();
  return 0;
}

int unsetenv(const char *name) {
  size_t len = strlen(name);
  if (!len || strchr(name, '=')) return -1;
  int i;
  while ((i = find(name, len)) >= 0)
    for (; environ[i]; ++i) environ[i] = environ[i + 1];
  rebuild();
  return 0;
}
