/* A guest that fails (the hardening tests, tests/hardening.cmake): each board says so on its
 * console, then the master waits forever in STOP with every interrupt masked, and each slave
 * jumps to an odd address with an odd stack pointer: the address error's frame cannot be
 * stacked, a double bus fault, and the CPU halts. The simulator must say which board stopped
 * and why, detect that the master can never go on, and keep what the consoles showed. */
#include <testbed_board.h>

int main(void) {
  if (TB_REG16(TB_BOARDID_ROLE) & TB_BOARDID_ROLE_MASTER) {
    tb_puts("fault-target: the master stops with every interrupt masked\n");
    for (;;) __asm__ volatile("stop #0x2700");
  }
  tb_puts("fault-target: this slave double-faults\n");
  __asm__ volatile("move.l #0x3001,%%sp\n\t" /* an odd stack pointer */
                   "jmp 0x3001"              /* an address error, whose frame cannot be stacked */
                   : : : "memory");
  return 0;
}
