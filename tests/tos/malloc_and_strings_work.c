/* malloc, free, calloc, realloc on the sbrk heap: blocks do not overlap, freed memory is reused
 * (the heap stops growing), two threads allocate at once, nothing leaks: the board's free
 * frame count is back after the process that did it all has ended. And the string, conversion
 * and sorting functions against known answers. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tos_check.h"

#define NBLOCKS 100

static void fill(unsigned char *p, size_t n, int tag) {
  for (size_t i = 0; i < n; ++i) p[i] = (unsigned char)(tag + i);
}
static int filled(const unsigned char *p, size_t n, int tag) {
  for (size_t i = 0; i < n; ++i)
    if (p[i] != (unsigned char)(tag + i)) return 0;
  return 1;
}

static void worker(void *arg) {
  int tag = (int)(long)arg;
  for (int round = 0; round < 300; ++round) {
    size_t n = 16 + (size_t)((round * 37 + tag) % 700);
    unsigned char *p = malloc(n);
    CHECK(p != NULL, "thread %d: malloc %u", tag, (unsigned)n);
    fill(p, n, tag + round);
    if (round % 7 == 0) yield();
    CHECK(filled(p, n, tag + round), "thread %d: a block changed under it", tag);
    free(p);
  }
  exit(0);
}

static void heap(void) {
  char *start = sbrk(0);
  CHECK(start != (char *)-1 && ((unsigned long)start & 1023) == 0, "sbrk(0) = %p", (void *)start);
  unsigned char *b[NBLOCKS];
  size_t size[NBLOCKS], total = 0;
  srand(7);
  for (int i = 0; i < NBLOCKS; ++i) {
    size[i] = 1 + (size_t)(rand() % 2000);
    total += size[i];
    b[i] = malloc(size[i]);
    CHECK(b[i] != NULL, "malloc %u", (unsigned)size[i]);
    fill(b[i], size[i], i);
  }
  for (int i = 0; i < NBLOCKS; ++i) CHECK(filled(b[i], size[i], i), "block %d overlaps another", i);
  for (int i = 0; i < NBLOCKS; ++i) { /* free in a scrambled order */
    int k = (i * 37) % NBLOCKS;
    free(b[k]);
  }
  char *top = sbrk(0);
  CHECK(top > start && top - start < (long)(total * 2 + 8192), "the heap grew to %ld for %u bytes", (long)(top - start),
        (unsigned)total);
  /* everything was freed and joined: one block as large as all of them comes from the same heap */
  unsigned char *all = malloc(total);
  CHECK(all != NULL && sbrk(0) == top, "a block of all %u bytes reuses the heap (grew by %ld)", (unsigned)total,
        (long)((char *)sbrk(0) - top));
  memset(all, 0xAA, total);
  free(all);
  int *z = calloc(total / sizeof(int), sizeof(int));
  CHECK(z != NULL, "calloc");
  for (size_t i = 0; i < total / sizeof(int); ++i) CHECK(z[i] == 0, "calloc's memory is not zero at %u", (unsigned)i);
  free(z);

  /* realloc growing one byte pattern, ten times over: the heap stops growing after the first */
  char *after_first = NULL;
  for (int round = 0; round < 10; ++round) {
    unsigned char *p = NULL;
    for (int i = 1; i <= 300; ++i) {
      p = realloc(p, (size_t)i * 16);
      CHECK(p != NULL, "realloc to %d", i * 16);
      CHECK(i == 1 || filled(p, (size_t)(i - 1) * 16, 3), "realloc lost the old contents at %d", i);
      fill(p, (size_t)i * 16, 3);
    }
    CHECK(realloc(p, 0) == NULL, "realloc to 0 frees");
    if (round == 0) after_first = sbrk(0);
    CHECK(sbrk(0) == after_first, "round %d: the heap grew from %p to %p", round, (void *)after_first, sbrk(0));
  }
  CHECK(malloc(600 * 1024) == NULL && malloc(0x7FFFFFF0) == NULL, "more than the 512 KB image is refused");
  CHECK(sbrk(TOS_MAX_IMAGE_BYTES) == (void *)-1 && tos_errno == TOS_ENOMEM, "sbrk past the image: ENOMEM");
  /* a large block: 300 KB of fresh frames */
  long frames = tos_info(TOS_INFO_FREE_FRAMES);
  unsigned char *large = malloc(300 * 1024);
  CHECK(large != NULL, "malloc 300 KB");
  CHECK(tos_info(TOS_INFO_FREE_FRAMES) <= frames - 290, "300 KB took %ld frames", frames - tos_info(TOS_INFO_FREE_FRAMES));
  fill(large, 300 * 1024, 9);
  CHECK(filled(large, 300 * 1024, 9), "the large block");
  free(large);
  /* two threads at once */
  CHECK(create(1, 4, HERE, worker, (void *)1) && create(2, 4, HERE, worker, (void *)2), "create");
  CHECK(wait() == 0, "a thread failed");
}

static int cmp_int(const void *a, const void *b) {
  int x = *(const int *)a, y = *(const int *)b;
  return x < y ? -1 : x > y;
}

static void strings(void) {
  char buf[64];
  const char *abc = "abcdefghij";
  CHECK(strlen("") == 0 && strlen(abc) == 10, "strlen");
  CHECK(memcpy(buf, abc, 11) == buf && strcmp(buf, abc) == 0, "memcpy");
  memmove(buf + 2, buf, 8); /* overlapping, forwards */
  CHECK(memcmp(buf, "ababcdefgh", 10) == 0, "memmove up: %s", buf);
  strcpy(buf, abc);
  memmove(buf, buf + 3, 8); /* overlapping, backwards */
  CHECK(strcmp(buf, "defghij") == 0, "memmove down: %s", buf);
  memset(buf, 'x', 20);
  buf[20] = 0;
  CHECK(strspn(buf, "x") == 20, "memset");
  CHECK(memcmp("abc", "abd", 3) < 0 && memcmp("abd", "abc", 3) > 0 && memcmp("ab\xff", "ab\x01", 3) > 0, "memcmp sign");
  CHECK(memchr(abc, 'e', 10) == abc + 4 && memchr(abc, 'e', 4) == NULL, "memchr");
  CHECK(strcmp("a", "b") < 0 && strcmp("b", "a") > 0 && strcmp("abc", "abc") == 0 && strcmp("ab", "abc") < 0, "strcmp");
  CHECK(strncmp("abcX", "abcY", 3) == 0 && strncmp("abcX", "abcY", 4) < 0, "strncmp");
  strcpy(buf, "one");
  CHECK(strcat(buf, "two") == buf && strcmp(buf, "onetwo") == 0, "strcat");
  CHECK(strcmp(strncat(buf, "three", 2), "onetwoth") == 0, "strncat: %s", buf);
  memset(buf, 'z', sizeof buf);
  strncpy(buf, "ab", 5);
  CHECK(memcmp(buf, "ab\0\0\0z", 6) == 0, "strncpy pads with NULs");
  strncpy(buf, abc, 3);
  CHECK(memcmp(buf, "abc\0", 4) == 0, "strncpy stops at n");
  CHECK(strchr(abc, 'c') == abc + 2 && strchr(abc, 'z') == NULL && strchr(abc, 0) == abc + 10, "strchr");
  CHECK(strrchr("a/b/c", '/') && strcmp(strrchr("a/b/c", '/'), "/c") == 0 && strrchr(abc, 'z') == NULL, "strrchr");
  CHECK(strstr(abc, "def") == abc + 3 && strstr(abc, "dex") == NULL && strstr(abc, "") == abc, "strstr");
  CHECK(strspn("  \tword", " \t") == 3 && strcspn("word, more", ",;") == 4 && strcspn("word", ",") == 4, "strspn/strcspn");
  CHECK(strpbrk("key=value", "=:") && *strpbrk("key=value", "=:") == '=', "strpbrk");
  strcpy(buf, "  one two,,three ");
  char *t1 = strtok(buf, " ,"), *t2 = strtok(NULL, " ,"), *t3 = strtok(NULL, " ,"), *t4 = strtok(NULL, " ,");
  CHECK(t1 && t2 && t3 && !t4 && strcmp(t1, "one") == 0 && strcmp(t2, "two") == 0 && strcmp(t3, "three") == 0, "strtok");
  CHECK(strcmp(tos_strerror(TOS_ENOSPC), "ENOSPC") == 0, "tos_strerror: %s", tos_strerror(TOS_ENOSPC));

  char *end;
  CHECK(atoi("42") == 42 && atoi("  -17x") == -17 && atol("+2147483647") == 2147483647L, "atoi / atol");
  CHECK(strtol("0x1F", &end, 0) == 31 && *end == 0, "strtol hex");
  CHECK(strtol("0755", NULL, 0) == 493 && strtol("z", &end, 36) == 35, "strtol octal, base 36");
  CHECK(strtol("99999999999", NULL, 10) == 2147483647L && strtol("-99999999999", NULL, 10) == -2147483647L - 1,
        "strtol saturates");
  CHECK(strtol("12abc", &end, 10) == 12 && strcmp(end, "abc") == 0, "strtol end");
  CHECK(strtol("abc", &end, 10) == 0 && strcmp(end, "abc") == 0, "strtol with no digits");
  CHECK(strtoul("ffffffff", NULL, 16) == 0xFFFFFFFFul && strtoul("101", NULL, 2) == 5, "strtoul");
  CHECK(abs(-5) == 5 && abs(5) == 5 && labs(-70000L) == 70000L, "abs");

  int v[] = {5, -3, 99, 0, 42, 7, 7, -100, 12, 1};
  qsort(v, 10, sizeof v[0], cmp_int);
  for (int i = 1; i < 10; ++i) CHECK(v[i - 1] <= v[i], "qsort: %d before %d", v[i - 1], v[i]);
  int key = 42, missing = 8;
  int *found = bsearch(&key, v, 10, sizeof v[0], cmp_int);
  CHECK(found && *found == 42 && !bsearch(&missing, v, 10, sizeof v[0], cmp_int), "bsearch");

  CHECK(sprintf(buf, "%d|%5s|%-4d|%04x|%lu|%zu|%c", -12, "ab", 7, 0xBEEFu & 0xFF, 4000000000ul, (size_t)3, 'Q') == 34,
        "sprintf's count");
  CHECK(strcmp(buf, "-12|   ab|7   |00ef|4000000000|3|Q") == 0, "sprintf: %s", buf);
  CHECK(snprintf(buf, 5, "%s", "truncated") == 9 && strcmp(buf, "trun") == 0, "snprintf truncates: %s", buf);
}

int main(int argc, char **argv) {
  if (argc > 1 && strcmp(argv[1], "heap") == 0) {
    heap();
    return 0;
  }
  strings();
  long frames = tos_info(TOS_INFO_FREE_FRAMES);
  int pid = spawn("malloc_and_strings_work", "malloc_and_strings_work heap");
  CHECK(pid >= 0, "spawn: %d", pid);
  CHECK(pwait(pid) == 0, "the heap child failed");
  long after = tos_info(TOS_INFO_FREE_FRAMES);
  CHECK(after == frames, "free frames %ld before the heap child, %ld after: a leak", frames, after);
  tos_pass("malloc_and_strings_work");
  return 0;
}
