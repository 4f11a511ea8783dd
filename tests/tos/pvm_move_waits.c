/* pvm_move is held back while the task is inside a critical section (seed 001: DynamicPVM's
 * library blocks the migration signal inside a PVM call; kernel/migrate.c, pmig_critical,
 * lib/pvm.c). A task on air spends 400 ms inside pvm_critical_begin/_end computing, checking
 * after each millisecond that it is still on air; pvm_move, asked 100 ms in, must return only
 * once the task has left the section and moved to fire (so not before about 300 ms more), and
 * the task must never find itself moved inside it. A task inside a 3 s section is not moved:
 * pvm_move gives up after 2 s (PvmSysErr) and the task is still on air. */
#include <tos/pvm.h>
#include "tos_check.h"

static volatile long inside_moved = -1, done[2], after_board[2];
static volatile long section_ms[2] = {400, 3000};

static void task(void *arg) {
  int i = (int)(long)arg;
  long home = tos_info(TOS_INFO_BOARD);
  if (pvm_critical_begin() != 0) exit(4);
  for (long k = 0; k < section_ms[i]; ++k) {
    tos_check_spin_us(1000);
    if (tos_info(TOS_INFO_BOARD) != home && inside_moved < 0) inside_moved = k + 1;
  }
  if (pvm_critical_end() != 0) exit(4);
  unsigned long t0 = time_us();
  while (i == 0 && tos_info(TOS_INFO_BOARD) == home && time_us() - t0 < 5000000) tos_check_spin_us(200);
  after_board[i] = tos_info(TOS_INFO_BOARD);
  done[i] = 1;
}

static void wait_ms(unsigned long ms) {
  unsigned long t0 = time_us();
  while (time_us() - t0 < ms * 1000) yield();
}

int main(void) {
  CHECK(pvm_init() > 0, "pvm_init");
  int t = pvm_spawn(task, (void *)0L, 2, 4);
  CHECK(t > 0, "pvm_spawn: %d", t);
  wait_ms(100);
  unsigned long t0 = time_us();
  int r = pvm_move(t, 3);
  unsigned long took = (time_us() - t0) / 1000;
  CHECK(r == 0, "pvm_move during a 400 ms critical section: %d", r);
  CHECK(took >= 150, "pvm_move moved the task after %lu ms: it did not wait for the section's end", took);
  t0 = time_us();
  while (!done[0] && time_us() - t0 < 10000000) yield();
  CHECK(done[0] && inside_moved < 0, "the task was moved %ld ms into its critical section", inside_moved);
  CHECK(after_board[0] == 3, "the task ended on board %ld, not 3", after_board[0]);
  printf("pvm_move_waits: held back %lu ms by a critical section, then moved\n", took);
  t = pvm_spawn(task, (void *)1L, 2, 4);
  CHECK(t > 0, "pvm_spawn: %d", t);
  wait_ms(100);
  CHECK(pvm_move(t, 3) == PvmSysErr, "a task inside a 3 s critical section was moved");
  CHECK(tos_board_of(t) == 2, "the task left its board");
  t0 = time_us();
  while (!done[1] && time_us() - t0 < 10000000) yield();
  CHECK(done[1] && inside_moved < 0 && after_board[1] == 2, "the task inside a 3 s section moved");
  printf("pvm_move_waits: a section past 2 s: PvmSysErr, the task stayed\n");
  tos_pass("pvm_move_waits");
  return 0;
}
