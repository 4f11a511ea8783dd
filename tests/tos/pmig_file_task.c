/* The task pmigrate_carries_open_files moves (seed 001): a process with files open when it is
 * checkpointed. Before its move it writes data.SEED (3000 bytes of a pattern), reads 100 of
 * them from offset 1234 and stays there; opens log.SEED for appending, writes "before\n" and
 * makes descriptor 9 a second name of it (dup2). Then it computes, inside no call, until it is
 * on another board, where the next 100 bytes must come from offset 1334 (the offset kept); it
 * writes 2000 bytes there, and the whole file must read back as written (the bytes from before
 * the move intact); "after\n" goes through descriptor 9 and log.SEED must read back whole.
 * With `back` it then seeks to offset 500 and computes until it is home again, where the next
 * 100 bytes must come from offset 500, the whole file read back as written, "home\n" go through
 * descriptor 9 and log.SEED read "before\nafter\nhome\n".
 *   pmig_file_task SEED [back] */
#include <stdlib.h>
#include "tos_check.h"

#define OLD 3000
#define AT 1234
#define NEW 2000
static unsigned long seed;
static unsigned char old_byte(long i) { return (unsigned char)(i * 7 + (long)seed); }
static unsigned char new_byte(long i) { return (unsigned char)(i * 11 + (long)seed * 3 + 1); }

int main(int argc, char **argv) {
  CHECK(argc == 2 || (argc == 3 && strcmp(argv[2], "back") == 0), "usage: pmig_file_task SEED [back]");
  seed = strtoul(argv[1], NULL, 10);
  long home = tos_info(TOS_INFO_BOARD); /* (before the driver can see it ready: it may move at once) */
  char data_name[24], log_name[24];
  snprintf(data_name, sizeof data_name, "data.%lu", seed);
  snprintf(log_name, sizeof log_name, "log.%lu", seed);
  static unsigned char buf[OLD + NEW];
  for (long i = 0; i < OLD; ++i) buf[i] = old_byte(i);
  int fd = open(data_name, TOS_O_READ | TOS_O_WRITE | TOS_O_CREATE | TOS_O_TRUNC);
  CHECK(fd >= 0, "open %s: %s", data_name, tos_strerror(fd));
  CHECK(write(fd, buf, OLD) == OLD, "write");
  CHECK(lseek(fd, AT, TOS_SEEK_SET) == AT, "lseek");
  unsigned char got[100];
  CHECK(read(fd, got, 100) == 100 && memcmp(got, buf + AT, 100) == 0, "read before the move");
  int log = open(log_name, TOS_O_WRITE | TOS_O_CREATE | TOS_O_TRUNC | TOS_O_APPEND);
  CHECK(log >= 0, "open %s: %s", log_name, tos_strerror(log));
  CHECK(dup2(log, 9) == 9, "dup2");
  CHECK(write(log, "before\n", 7) == 7, "write log"); /* the driver waits for this */
  unsigned long t0 = time_us();
  while (tos_info(TOS_INFO_BOARD) == home) {
    CHECK(time_us() - t0 < 60000000ul, "not moved in 60 s");
    tos_check_spin_us(500);
  }
  long here = tos_info(TOS_INFO_BOARD);
  int n = read(fd, got, 100);
  CHECK(n == 100 && memcmp(got, buf + AT + 100, 100) == 0,
        "read after the move: %d bytes, not the file's from offset %d (offset or bytes lost)", n, AT + 100);
  for (long i = 0; i < NEW; ++i) buf[AT + 200 + i] = new_byte(i);
  CHECK(write(fd, buf + AT + 200, NEW) == NEW, "write after the move");
  static unsigned char back[OLD + NEW];
  CHECK(lseek(fd, 0, TOS_SEEK_SET) == 0, "lseek");
  n = read(fd, back, sizeof back);
  CHECK(n == AT + 200 + NEW, "the file is %d bytes, not %d", n, AT + 200 + NEW);
  for (long i = 0; i < n; ++i)
    CHECK(back[i] == buf[i], "byte %ld of %s is %u, not %u (written %s the move)", i, data_name, back[i], buf[i],
          i < AT + 200 ? "before" : "after");
  CHECK(write(9, "after\n", 6) == 6, "write through the second descriptor");
  int in = open(log_name, TOS_O_READ);
  CHECK(in >= 0, "open %s here: %s", log_name, tos_strerror(in));
  char text[32] = {0};
  n = read(in, text, sizeof text - 1);
  CHECK(n == 13 && strcmp(text, "before\nafter\n") == 0, "%s reads %d bytes '%s'", log_name, n, text);
  close(in);
  static struct tos_stat st;
  CHECK(stat(data_name, &st) == 0 && st.size == (unsigned long)(AT + 200 + NEW), "stat %s here", data_name);
  printf("pmig_file_task %lu: read position kept, written data intact, files on board %ld\n", seed, here);
  if (argc == 2) return 0;
  CHECK(lseek(fd, 500, TOS_SEEK_SET) == 500, "lseek");
  t0 = time_us();
  while (tos_info(TOS_INFO_BOARD) != home) {
    CHECK(time_us() - t0 < 60000000ul, "not moved home in 60 s");
    tos_check_spin_us(500);
  }
  n = read(fd, got, 100);
  CHECK(n == 100 && memcmp(got, buf + 500, 100) == 0, "read back home: %d bytes, not the file's from offset 500", n);
  CHECK(lseek(fd, 0, TOS_SEEK_SET) == 0, "lseek");
  n = read(fd, back, sizeof back);
  CHECK(n == AT + 200 + NEW && memcmp(back, buf, (size_t)n) == 0, "%s back home: %d bytes, not as written", data_name,
        n);
  CHECK(write(9, "home\n", 5) == 5, "write through the second descriptor at home");
  in = open(log_name, TOS_O_READ);
  CHECK(in >= 0, "open %s at home: %s", log_name, tos_strerror(in));
  memset(text, 0, sizeof text);
  n = read(in, text, sizeof text - 1);
  CHECK(n == 18 && strcmp(text, "before\nafter\nhome\n") == 0, "%s reads %d bytes '%s' at home", log_name, n, text);
  close(in);
  printf("pmig_file_task %lu: back home, offset and bytes kept both ways\n", seed);
  return 0;
}
