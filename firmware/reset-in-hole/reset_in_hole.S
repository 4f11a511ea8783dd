/* Reset vectors only: the initial SSP in RAM, the initial PC in the hole between the monitor
 * interface and the user devices (DEV) (docs/memory_map.md), where no device answers. The simulator must halt
 * this board with a message naming the address, not abort. */
#include <testbed/memory_map.h>
    .section .vectors,"a"
    .long 0x1000
    .long 0xFD8000

    .section .text.start,"ax"
    .globl _start
_start:
    bra.s   _start
