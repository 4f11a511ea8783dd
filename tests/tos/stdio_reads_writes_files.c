/* Files and stdio: fopen / fprintf / fclose read back with fgets and fread; fseek and ftell;
 * append and update modes; rename and remove; a file growing past its blocks while another
 * sits after it (it moves); a 512 KB file and nothing past it (EFBIG); a store filled up
 * (ENOSPC, the refused write stores nothing and no other file changes); compaction joining
 * free runs; permissions (EPERM) and the program's own mapped file (EBUSY); descriptor and
 * directory limits (EMFILE, ENFILE). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tos_check.h"

#define CHUNK 32768 /* the longest single write below */
static unsigned long chunk[CHUNK / 4];

/* The content of file `tag` at byte offset `off` (a multiple of 4): one word per offset. */
static unsigned long word(int tag, unsigned long off) { return ((unsigned long)tag << 24) ^ (off * 2654435761ul); }

static void make(int tag, unsigned long off, int len) {
  CHECK(len <= CHUNK, "a piece of %d bytes", len);
  for (int i = 0; i < len / 4; ++i) chunk[i] = word(tag, off + 4ul * (unsigned long)i);
}

/* Write `len` bytes of file `tag`'s content from offset `off`: the write's result. */
static int put(int fd, int tag, unsigned long off, int len) {
  make(tag, off, len);
  return write(fd, chunk, len);
}

/* Is the file exactly `size` bytes of tag's content? */
static int intact(const char *name, int tag, unsigned long size) {
  struct tos_stat st;
  if (stat(name, &st) != 0 || st.size != size) {
    printf("%s: size %lu, expected %lu\n", name, (unsigned long)st.size, size);
    return 0;
  }
  int fd = open(name, TOS_O_READ);
  if (fd < 0) return 0;
  for (unsigned long off = 0; off < size; off += CHUNK) {
    int len = size - off < CHUNK ? (int)(size - off) : CHUNK;
    if (read(fd, chunk, len) != len) return close(fd), 0;
    for (int i = 0; i < len / 4; ++i)
      if (chunk[i] != word(tag, off + 4ul * (unsigned long)i)) {
        printf("%s: word at %lu is %08lx, expected %08lx\n", name, off + 4ul * (unsigned long)i, chunk[i],
               word(tag, off + 4ul * (unsigned long)i));
        close(fd);
        return 0;
      }
  }
  char extra;
  int more = read(fd, &extra, 1);
  close(fd);
  return more == 0;
}

static unsigned long first_block(const char *name) {
  struct tos_stat st;
  CHECK(stat(name, &st) == 0, "stat %s", name);
  return st.first_block;
}

static void text_files(void) {
  char line[64], want[64];
  FILE *f = fopen("notes", "w");
  CHECK(f != NULL, "fopen notes w: %s", tos_strerror(tos_errno));
  unsigned long size = 0;
  for (int i = 0; i < 100; ++i) {
    int n = fprintf(f, "line %d of the notes\n", i);
    CHECK(n == snprintf(want, sizeof want, "line %d of the notes\n", i), "fprintf returned %d", n);
    size += (unsigned long)n;
  }
  CHECK(fclose(f) == 0, "fclose");
  struct tos_stat st;
  CHECK(stat("notes", &st) == 0 && st.size == size, "notes holds %lu bytes, expected %lu", (unsigned long)st.size, size);
  CHECK(st.perm == (TOS_FS_PERM_READ | TOS_FS_PERM_WRITE), "a new file is rw-, not %lo", (unsigned long)st.perm);

  f = fopen("notes", "r");
  CHECK(f != NULL, "fopen notes r");
  int lines = 0;
  while (fgets(line, sizeof line, f)) {
    snprintf(want, sizeof want, "line %d of the notes\n", lines);
    CHECK(strcmp(line, want) == 0, "line %d reads back as '%s'", lines, line);
    ++lines;
  }
  CHECK(lines == 100 && feof(f) && !ferror(f), "%d lines read, eof %d", lines, feof(f));
  CHECK(fseek(f, 0, SEEK_SET) == 0 && ftell(f) == 0, "fseek to the start");
  CHECK(fgets(line, sizeof line, f) && strcmp(line, "line 0 of the notes\n") == 0, "the first line again");
  CHECK(ftell(f) == (long)strlen("line 0 of the notes\n"), "ftell after one line: %ld", ftell(f));
  CHECK(fseek(f, -(long)strlen("line 99 of the notes\n"), SEEK_END) == 0, "fseek from the end");
  CHECK(fgets(line, sizeof line, f) && strcmp(line, "line 99 of the notes\n") == 0, "the last line: '%s'", line);
  CHECK(fgetc(f) == EOF && feof(f), "end of file after the last line");
  CHECK(fseek(f, 5, SEEK_SET) == 0, "fseek 5");
  char four[8]; /* (not "= {0}": GCC 12 clears an odd-sized char array with clr.l at an odd address) */
  memset(four, 0, sizeof four);
  CHECK(fread(four, 1, 4, f) == 4 && strcmp(four, "0 of") == 0, "fread at 5: '%s'", four);
  CHECK(fgetc(f) == ' ' && ungetc('#', f) == '#' && fgetc(f) == '#' && fgetc(f) == 't', "fgetc / ungetc");
  CHECK(fseek(f, -3, SEEK_CUR) == 0 && ftell(f) == 8, "fseek back from the current position: %ld", ftell(f));
  CHECK(fclose(f) == 0, "fclose r");

  f = fopen("notes", "a"); /* append: at the end, whatever the position */
  CHECK(f && fputs("appended\n", f) == 0 && fclose(f) == 0, "append");
  CHECK(stat("notes", &st) == 0 && st.size == size + 9, "appended size %lu", (unsigned long)st.size);
  f = fopen("notes", "r+"); /* update: overwrite the first word in place */
  CHECK(f && fputs("LINE", f) == 0 && fseek(f, 0, SEEK_SET) == 0, "r+ write");
  CHECK(fgets(line, sizeof line, f) && strcmp(line, "LINE 0 of the notes\n") == 0, "r+ reads back '%s'", line);
  CHECK(fseek(f, -9, SEEK_END) == 0 && fgets(line, sizeof line, f) && strcmp(line, "appended\n") == 0, "the appended line");
  CHECK(fclose(f) == 0, "fclose r+");
  f = fopen("notes", "w+"); /* truncates */
  CHECK(f && fprintf(f, "%s %d", "short", 42) == 8 && fseek(f, 0, SEEK_SET) == 0, "w+");
  CHECK(fgets(line, sizeof line, f) && strcmp(line, "short 42") == 0 && fclose(f) == 0, "w+ reads back '%s'", line);

  CHECK(rename("notes", "renamed") == 0, "rename");
  CHECK(stat("notes", &st) == -TOS_ENOENT && stat("renamed", &st) == 0 && st.size == 8, "after rename");
  CHECK(fopen("notes", "r") == NULL && tos_errno == TOS_ENOENT, "the old name is gone");
  f = fopen("other", "w");
  CHECK(f && fputs("other", f) == 0 && fclose(f) == 0, "other");
  CHECK(rename("other", "renamed") == 0 && stat("renamed", &st) == 0 && st.size == 5, "rename replaces");
  CHECK(remove("renamed") == 0 && stat("renamed", &st) == -TOS_ENOENT, "remove");
  CHECK(remove("renamed") == -1 && tos_errno == TOS_ENOENT, "remove twice");
}

static void moving_and_limits(void) {
  struct tos_fsstat fs;
  /* A file that grows past its blocks while another file sits right after it moves. */
  int g = open("grower", TOS_O_WRITE | TOS_O_CREATE | TOS_O_EXCL);
  CHECK(g >= 3, "create grower: %d", g);
  CHECK(put(g, 1, 0, 1024) == 1024, "grower's first block");
  int a = open("after", TOS_O_WRITE | TOS_O_CREATE);
  CHECK(put(a, 2, 0, 2048) == 2048, "after");
  CHECK(first_block("after") == first_block("grower") + 1, "after sits right after grower (%lu, %lu)",
        first_block("after"), first_block("grower"));
  unsigned long before = first_block("grower");
  CHECK(put(g, 1, 1024, 5120) == 5120, "grower grows by 5 KB");
  CHECK(first_block("grower") != before, "grower moved");
  CHECK(close(g) == 0 && close(a) == 0, "close");
  CHECK(intact("grower", 1, 6144) && intact("after", 2, 2048), "grower and after intact after the move");

  /* 512 KB is the largest file. */
  int big = open("big", TOS_O_WRITE | TOS_O_CREATE);
  for (unsigned long off = 0; off < TOS_MAX_FS_FILE_BYTES; off += CHUNK)
    CHECK(put(big, 3, off, CHUNK) == CHUNK, "big at %lu: %s", off, tos_strerror(tos_errno));
  CHECK(write(big, "x", 1) == -TOS_EFBIG, "a byte past 512 KB: EFBIG");
  CHECK(lseek(big, 0, TOS_SEEK_END) == TOS_MAX_FS_FILE_BYTES, "big is 512 KB");
  close(big);
  FILE *f = fopen("big", "a");
  CHECK(f && fputc('x', f) == 'x' && fflush(f) == EOF && ferror(f) && tos_errno == TOS_EFBIG, "stdio sees EFBIG");
  fclose(f);
  CHECK(intact("big", 3, TOS_MAX_FS_FILE_BYTES), "big intact");

  /* Fill the store with 32 KB files, then 1 KB pieces: ENOSPC, and the refused write stores nothing. */
  char name[16];
  int pads = 0, fd = -1;
  for (;; ++pads) {
    snprintf(name, sizeof name, "pad%d", pads);
    fd = open(name, TOS_O_WRITE | TOS_O_CREATE);
    CHECK(fd >= 0, "create %s: %d", name, fd);
    int rc = put(fd, 10 + pads, 0, 32768);
    if (rc < 0) {
      CHECK(rc == -TOS_ENOSPC, "a full store refuses with ENOSPC, not %s", tos_strerror(rc));
      break;
    }
    close(fd);
  }
  CHECK(pads >= 6, "only %d pads fitted", pads);
  CHECK(lseek(fd, 0, TOS_SEEK_END) == 0, "the refused write stored nothing");
  unsigned long tail = 0;
  while (put(fd, 10 + pads, tail, 1024) == 1024) tail += 1024;
  CHECK(tos_errno == TOS_ENOSPC, "the last piece: %s", tos_strerror(tos_errno));
  close(fd);
  CHECK(fsstat(&fs) == 0 && fs.free_blocks == 0, "the store is full (%lu blocks free)", (unsigned long)fs.free_blocks);
  f = fopen("notes2", "w");
  CHECK(f && fprintf(f, "no room") == 7 && fclose(f) == EOF && tos_errno == TOS_ENOSPC, "stdio sees ENOSPC");
  CHECK(intact("big", 3, TOS_MAX_FS_FILE_BYTES) && intact("grower", 1, 6144) && intact("after", 2, 2048),
        "nothing stored was damaged by the full store");
  for (int i = 0; i < pads; ++i) {
    snprintf(name, sizeof name, "pad%d", i);
    CHECK(intact(name, 10 + i, 32768), "%s intact", name);
  }
  snprintf(name, sizeof name, "pad%d", pads);
  CHECK(intact(name, 10 + pads, tail), "the last pad intact");

  /* Free every other pad: the free space is in 32 KB holes; growing pad1 by 64 KB needs them joined. */
  for (int i = 0; i < pads; i += 2) {
    snprintf(name, sizeof name, "pad%d", i);
    CHECK(remove(name) == 0, "remove %s", name);
  }
  CHECK(fsstat(&fs) == 0 && fs.largest_free < 96 && fs.free_blocks >= 96, "fragmented: %lu free, largest run %lu",
        (unsigned long)fs.free_blocks, (unsigned long)fs.largest_free);
  fd = open("pad1", TOS_O_WRITE | TOS_O_APPEND);
  CHECK(put(fd, 11, 32768, 32768) == 32768 && put(fd, 11, 65536, 32768) == 32768, "pad1 grows by 64 KB: %s",
        tos_strerror(tos_errno));
  close(fd);
  CHECK(fsstat(&fs) == 0 && fs.largest_free == fs.free_blocks, "compacted: %lu free, largest run %lu",
        (unsigned long)fs.free_blocks, (unsigned long)fs.largest_free);
  CHECK(intact("pad1", 11, 98304), "pad1 intact after compaction");
  for (int i = 3; i < pads; i += 2) {
    snprintf(name, sizeof name, "pad%d", i);
    CHECK(intact(name, 10 + i, 32768), "%s intact after compaction", name);
  }
  CHECK(intact("big", 3, TOS_MAX_FS_FILE_BYTES) && intact("grower", 1, 6144) && intact("after", 2, 2048),
        "big, grower and after intact after compaction");
  for (int i = 0; i <= pads; ++i) {
    snprintf(name, sizeof name, "pad%d", i);
    remove(name);
  }
  CHECK(remove("big") == 0 && remove("grower") == 0 && remove("after") == 0 && remove("notes2") == 0, "clean up");
}

static void rules(void) {
  /* permissions */
  FILE *f = fopen("perm", "w");
  CHECK(f && fputs("secret", f) == 0 && fclose(f) == 0, "perm");
  CHECK(chmod("perm", TOS_FS_PERM_READ) == 0, "chmod r--");
  CHECK(fopen("perm", "w") == NULL && tos_errno == TOS_EPERM, "write to r--: %s", tos_strerror(tos_errno));
  CHECK(fopen("perm", "a") == NULL && tos_errno == TOS_EPERM, "append to r--");
  CHECK(open("perm", TOS_O_READ | TOS_O_WRITE) == -TOS_EPERM, "r+ of r--");
  f = fopen("perm", "r");
  char s[16];
  CHECK(f && fgets(s, sizeof s, f) && strcmp(s, "secret") == 0 && fclose(f) == 0, "r-- still reads");
  CHECK(chmod("perm", 0) == 0 && open("perm", TOS_O_READ) == -TOS_EPERM, "---: no reading");
  CHECK(chmod("perm", 8) == -TOS_EINVAL, "unknown permission bits");
  CHECK(remove("perm") == 0, "remove perm");
  /* The running program's file: its code pages are mapped from it. */
  CHECK(open("stdio_reads_writes_files", TOS_O_WRITE) == -TOS_EBUSY, "writing my own code: EBUSY");
  CHECK(remove("stdio_reads_writes_files") == -1 && tos_errno == TOS_EBUSY, "removing my own code: EBUSY");
  struct tos_stat st;
  CHECK(stat("stdio_reads_writes_files", &st) == 0 && st.busy >= 1, "busy %lu", (unsigned long)st.busy);
  /* an open file may not be removed; descriptors */
  int fd = open("open", TOS_O_WRITE | TOS_O_CREATE);
  CHECK(fd >= 3 && remove("open") == -1 && tos_errno == TOS_EBUSY, "removing an open file: EBUSY");
  CHECK(read(fd, s, 1) == -TOS_EBADF && read(99, s, 1) == -TOS_EBADF, "EBADF");
  CHECK(open("open", TOS_O_CREATE | TOS_O_EXCL | TOS_O_WRITE) == -TOS_EEXIST, "EXCL");
  CHECK(open("no/such", TOS_O_READ | TOS_O_WRITE | TOS_O_CREATE) == -TOS_EINVAL, "a bad name");
  int fds[16], n = 0;
  while ((fds[n] = open("open", TOS_O_READ)) >= 0) ++n;
  CHECK(fds[n] == -TOS_EMFILE && n == TOS_MAX_FDS - 4, "EMFILE after %d more", n);
  while (n) close(fds[--n]);
  CHECK(close(fd) == 0 && close(fd) == -TOS_EBADF && remove("open") == 0, "close and remove");
  /* 64 files at most */
  struct tos_fsstat fs;
  CHECK(fsstat(&fs) == 0 && fs.max_files == TOS_MAX_FS_FILES, "fsstat");
  int made = 0, rc;
  char name[16];
  for (;; ++made) {
    snprintf(name, sizeof name, "e%d", made);
    if ((rc = open(name, TOS_O_WRITE | TOS_O_CREATE)) < 0) break;
    close(rc);
  }
  CHECK(rc == -TOS_ENFILE && made == (int)(fs.max_files - fs.files), "ENFILE after %d files (%s)", made,
        tos_strerror(rc));
  for (int i = 0; i < made; ++i) {
    snprintf(name, sizeof name, "e%d", i);
    CHECK(remove(name) == 0, "remove %s", name);
  }
  /* readdir lists what is left */
  int seen = 0;
  for (int i = 0; readdir(i, &st) == 0; ++i) seen += strcmp(st.name, "stdio_reads_writes_files") == 0;
  CHECK(seen == 1, "readdir lists the program once");
}

int main(void) {
  text_files();
  moving_and_limits();
  rules();
  tos_pass("stdio_reads_writes_files");
  return 0;
}
