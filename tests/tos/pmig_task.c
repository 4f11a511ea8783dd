/* The task pmigrate_moves_processes_keeping_every_byte moves (seed 001): a process of two
 * threads that talk over channels while it is moved whole. The producer sends MESSAGES numbered,
 * checksummed messages of random length (1..1500 bytes, from its stack) on channel 1 and waits
 * for each acknowledgement on channel 2; main receives and checks each (number, checksum) and
 * adds the number into a word of its data array of KB kilobytes, filled at the start with a
 * known pattern. At the end main checks every word of the array and says where it ended.
 * With MESSAGES -1 main only waits on a channel nobody sends on (inside a channel operation
 * for ever: a process pmigrate must refuse to checkpoint).
 *   pmig_task KB MESSAGES SEED */
#include <stdlib.h>
#include "tos_check.h"

#define MAXLEN 1500
static long messages = 50;
static unsigned long seed = 1;

struct head {
  long seq, len;
  unsigned long sum;
};

static void producer(void *arg) {
  (void)arg;
  unsigned char buf[sizeof(struct head) + MAXLEN];
  unsigned long s = seed * 7919;
  for (long k = 1; k <= messages; ++k) {
    struct head h = {k, (long)(tos_check_next(&s) % MAXLEN) + 1, 0};
    for (long i = 0; i < h.len; ++i) {
      buf[sizeof h + i] = (unsigned char)(k * 7 + i * 13 + seed);
      h.sum += buf[sizeof h + i] * (unsigned long)(i + 1);
    }
    memcpy(buf, &h, sizeof h);
    if (send_block(1, buf, (int)(sizeof h + h.len)) != 0) exit(3);
    long ack = 0;
    if (receive(2, &ack, sizeof ack) != sizeof ack || ack != k) exit(4);
    tos_check_spin_us(tos_check_next(&s) % 3000);
  }
  exit(0);
}

int main(int argc, char **argv) {
  CHECK(argc == 4, "usage: pmig_task KB MESSAGES SEED");
  long kb = atol(argv[1]);
  messages = atol(argv[2]);
  seed = strtoul(argv[3], NULL, 10);
  if (messages < 0) {
    long x;
    return receive(3, &x, sizeof x);
  }
  long words = kb * 256 + 1;
  unsigned long *data = malloc((size_t)words * sizeof *data);
  CHECK(data, "malloc %ld KB", kb);
  for (long i = 0; i < words; ++i) data[i] = (unsigned long)i * 2654435761ul ^ seed;
  CHECK(create(1, 4, (int)tos_info(TOS_INFO_BOARD), producer, NULL) > 0, "create: %s", tos_strerror(tos_errno));
  unsigned char buf[sizeof(struct head) + MAXLEN];
  for (long k = 1; k <= messages; ++k) {
    int n = receive(1, buf, sizeof buf);
    struct head h;
    memcpy(&h, buf, sizeof h);
    unsigned long sum = 0;
    for (long i = 0; i < h.len && (long)sizeof h + i < n; ++i) sum += buf[sizeof h + i] * (unsigned long)(i + 1);
    if (n != (int)(sizeof h + h.len) || h.seq != k || sum != h.sum) {
      printf("pmig_task %lu: FAIL message %ld: got %ld (%d bytes), sum %lu want %lu on board %ld\n", seed, k, h.seq, n,
             sum, h.sum, tos_info(TOS_INFO_BOARD));
      exit(5);
    }
    data[(k * 97) % words] += (unsigned long)k;
    CHECK(send_block(2, &k, sizeof k) == 0, "ack");
  }
  long bad = 0;
  for (long k = 1; k <= messages; ++k) data[(k * 97) % words] -= (unsigned long)k;
  for (long i = 0; i < words; ++i)
    if (data[i] != ((unsigned long)i * 2654435761ul ^ seed)) ++bad;
  if (bad) {
    printf("pmig_task %lu: FAIL %ld of %ld words wrong on board %ld\n", seed, bad, words, tos_info(TOS_INFO_BOARD));
    exit(6);
  }
  printf("pmig_task %lu: %ld messages, %ld KB intact, ends on board %ld\n", seed, messages, kb,
         tos_info(TOS_INFO_BOARD));
  return 0;
}
