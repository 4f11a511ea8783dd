/* The image the gdb tests (tests/gdb) debug on a board of its own:
 *  - `table` holds known words to read back with x/4x;
 *  - `message` is printed by report(): gdb changes it before report() runs;
 *  - `counter` is stored by bump() a few times: a watchpoint stops on each store;
 *  - spin() loops until gdb clears `hold` (for Ctrl-C and the all-stop test). */
#include <testbed_board.h>

const unsigned long table[4] = {0x11223344, 0x55667788, 0x99AABBCC, 0xDDEEFF00};
volatile unsigned long message = 0x1234;
volatile unsigned long counter;
volatile unsigned long hold = 1;
volatile unsigned long spins;

void __attribute__((noinline)) report(unsigned long v) {
  tb_puts("message ");
  tb_puthex(v);
  tb_putc('\n');
}

void __attribute__((noinline)) bump(void) { counter = counter + 1; }

void __attribute__((noinline)) spin(void) {
  while (hold) spins = spins + 1;
}

int main(void) {
  tb_puts("gdb-target up\n");
  for (int i = 0; i < 3; ++i) bump();
  report(message);
  tb_puts("counter ");
  tb_puthex(counter);
  tb_putc('\n');
  spin();
  tb_puts("released\n");
  tb_exit(1);
  return 0;
}
