/* Boot and the main loop (seed 000 section 3.2.1).
 *
 * One image boots on every board; BOARDID says which board this is and whether it is the
 * master. Boot: vectors (linked at 0), interrupt controller, MMU, timer, console, filestore,
 * then the loop: send phase, receive phase, schedule phase, service phase, repeat. */
#include "defs.h"

uint16_t board_id;
int board_master;
const char *board_name;
uint32_t ram_bytes;

static const char *const names[] = TOS_BOARD_NAMES;
static char other_name[12];

extern char __kernel_end[];

static void identify(void) {
  board_id = REG16(TB_BOARDID_ID);
  board_master = (REG16(TB_BOARDID_ROLE) & TB_BOARDID_ROLE_MASTER) != 0;
  ram_bytes = REG32(TB_BOARDID_RAMSIZE);
  if (board_id < TOS_BOARD_NAME_COUNT) {
    board_name = names[board_id];
  } else {
    char *p = other_name + sizeof other_name - 1;
    uint32_t v = board_id;
    *p = 0;
    do *--p = (char)('0' + v % 10); while ((v /= 10) != 0);
    p -= 5;
    memcpy(p, "board", 5);
    board_name = p;
  }
}

void halt_board(uint32_t code) {
  splhigh();
  REG32(TB_SIMCTL_EXIT) = code;
  for (;;) cpu_idle();
}

/* The send and receive phases: Centrenet's transmit and input queues. Remote channels and
 * migration put their work here; on a single board there is nothing to move yet. */
static void send_phase(void) { EVENT(DGL_PHASE, EV_PHASE_SEND); }
static void receive_phase(void) {
  EVENT(DGL_PHASE, EV_PHASE_RECEIVE);
  console_service();
  lan_service();
  boot_service();
}

void kmain(void) {
  identify();
  event_init();
  console_init();
  lan_init();
  vm_init();
  thread_init();
  timer_init();
  fs_init();
  uint32_t lo = fs_end();
  if (lo < TOS_FS_BASE) lo = TOS_FS_BASE;
  mem_init(lo, ram_bytes);
  REG16(TB_INTC_ENABLE) = TB_INTC_ENABLE_TIMER | TB_INTC_ENABLE_SERIAL0 |
                          (board_master ? TB_INTC_ENABLE_SERIAL1 : 0); /* the LAN link */
  spl0();
  kprintf("TOS on %s (board %u, %s): %u KB RAM, %u KB kernel, %u frames free\n", board_name,
          board_id, board_master ? "master" : "slave", ram_bytes >> 10,
          (uint32_t)__kernel_end >> 10, frames_free());
  boot_start();

  for (;;) {
    send_phase();
    receive_phase();
    EVENT(DGL_PHASE, EV_PHASE_SCHEDULE);
    struct tcb *t = schedule();
    if (!t) {
      if (boot_done() && nprocs == 0) {
        kprintf("tos: %s: all programs done, %u frames free, %u TCBs free\n", board_name,
                frames_free(), tcbs_free());
        console_flush();
        halt_board(1);
      }
      EVENT(DGL_PHASE, EV_IDLE);
      cpu_idle();
      continue;
    }
    uint32_t vector;
    for (;;) {
      vector = run_user(t);
      if (vector < 24 || vector > 31) break;
      intr(vector); /* a device interrupt while the thread ran: back to it, unless its slice is over */
      spl0();
      if (slice_over) break;
    }
    EVENT(DGL_PHASE, EV_PHASE_SERVICE);
    service(t, vector);
  }
}
