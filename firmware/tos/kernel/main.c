/* Boot and the main loop (seed 000 section 3.2.1).
 *
 * One image boots on every board; BOARDID says which board this is and whether it is the
 * master (board.c). Boot: vectors (linked at 0), interrupt controller, MMU, timer, console, filestore,
 * then the loop: send phase, receive phase, schedule phase, service phase, repeat. */
#include "defs.h"

extern char __kernel_end[];

void halt_board(uint32_t code) {
  splhigh();
  REG32(TB_SIMCTL_EXIT) = code;
  for (;;) cpu_idle();
}

volatile union loop_flags loop_flags KERNEL_HOT;

/* halt(all): this board, or (master, all) every board: the others first, by message. */
static int done_told = -1; /* what this board last told the master it is (1 done, 0 busy) */
static void say_done(void);
static void on_halt(uint32_t from, const uint32_t *ops, uint32_t nops) {
  (void)ops;
  (void)nops;
  (void)from; /* the master's only (its operator's shutdown, or every board done): net.c's table */
  if (done_told == 1) say_done();
  else kprintf("tos: %s: halted by the master\n", board_name);
  console_flush();
  halt_board(1);
}

/* The master's halts to every other board, as many as the send queue takes now: a machine may
 * have more boards than the queue has room (the main loop queues the rest as it drains). */
static uint32_t halt_next;
static void halt_others(void) {
  for (; halt_next < nboards; ++halt_next)
    if (halt_next != net_me() && !net_queue(halt_next, NET_HALT, NULL, 0, 0, 0, NULL, NULL)) return;
}

SYSCALL(halt) {
  if (a1 && board_master) {
    halting = 1; /* the main loop halts once the messages have left */
    halt_others();
    return 0;
  }
  kprintf("tos: %s: halted\n", board_name);
  console_flush();
  halt_board(1);
}

/* The machine ends when every board is done: its boot script over, no process left. A board
 * tells the master when it becomes done and when it has work again (a thread created on it
 * from another board); the master halts the machine once all are done. A process with threads
 * on other boards keeps its home board busy until they have all ended, so no message that
 * could start work is in flight then. */
static bset_t done_boards;               /* master: bit per board that is done */
#define ALL_BOARDS (nboards >= 64 ? ~(bset_t)0 : BSET(nboards) - 1)

static void on_done(uint32_t from, const uint32_t *ops, uint32_t nops) {
  (void)nops;
  if (from >= nboards) return;
  if (ops[0] > 1) {
    net_bad(from, NET_DONE, "done state", ops[0]);
    return;
  }
  if (ops[0]) done_boards |= BSET(from);
  else done_boards &= ~BSET(from);
}

static void tell_done(void) {
  int done = boot_done() && nprocs == 0;
  /* a board's last messages (a thread's end, a region's flush) leave before it says it is done:
   * until then their data may hold a freed frame (mem.c), and the done line counts frames free */
  if (done && !done_told && net_tx_pending()) return;
  if (board_master && done && done_boards == ALL_BOARDS && !halting) { /* everyone is done */
    halting = 1;
    halt_others();
  }
  if (done == done_told) return;
  uint32_t d = (uint32_t)done;
  if (board_master) on_done(net_me(), &d, 1);
  else if (!net_queue(0, NET_DONE, &d, 1, 0, 0, NULL, NULL)) return; /* later */
  done_told = done;
}

/* A done board's summary, said once, when the machine halts: a board may be done, get work from
 * another board (a thread created or migrated there) and be done again, so its done line at each
 * such turn would be a summary of part of the run. */
static void say_done(void) {
  kprintf("tos: %s: all programs done, %u frames free, %u TCBs free; threads migrated in %u, out %u\n", board_name,
          frames_free(), tcbs_free(), migrations_in, migrations_out);
  if (pages_asked || pages_copied || pages_moved || pages_invalidated)
    kprintf("tos: %s: pages asked for %u; sent as copies %u, moved %u; invalidated %u; held for a call %u\n",
            board_name, pages_asked, pages_copied, pages_moved, pages_invalidated, pages_deferred);
  if (reconf_asked)
    kprintf("tos: %s: reconfiguration requests %u: moved a thread at once %u, later %u; none fitted %u\n",
            board_name, reconf_asked, reconf_moved, reconf_moved_later, reconf_discarded);
  if (rex_asked || rex_unserved || twins_made || rex_searches || rex_domain || rex_notes_sent || rex_notes_unheard ||
      rex_notes_taken || rex_notes_lost)
    kprintf("tos: %s: rex questions %u (unserved: placed where asked %u), twins made %u; searches for the scheduler %u, "
            "boards that found it here %u; notes sent %u, unheard %u, taken %u, lost %u\n", board_name, rex_asked,
            rex_unserved, twins_made, rex_searches, rex_domain, rex_notes_sent, rex_notes_unheard, rex_notes_taken,
            rex_notes_lost);
  if (remote_over_quota) kprintf("tos: %s: creates refused by a quota: %u\n", board_name, remote_over_quota);
  if (region_over_quota) kprintf("tos: %s: region records refused by a quota: %u\n", board_name, region_over_quota);
  if (remote_console_lost)
    kprintf("tos: %s: console output of processes already ended, not printed: %u characters\n", board_name,
            remote_console_lost);
  region_oam_report();
  net_refused_report();
  net_held_report();
}

/* Nothing to run: wait for an interrupt, unless one has just left work (checked with
 * interrupts off; STOP turns them on and waits in one instruction), or the receive phase has
 * just queued messages for Centrenet (an rtr, a msg, a page): the next send phase, not the next
 * timer interrupt, sends them, as the report's loop did (section 3.2.1). */
static void idle(void) {
  splhigh();
  if (kernel_work || net_input_pending() || rchan_pending() ||
      net_queue_room() != net_queue_capacity()) {
    spl0();
    return;
  }
  EVENT(DGL_PHASE, EV_IDLE);
  cpu_idle();
}

/* The send phase: messages waiting for Centrenet go to the controller. The receive phase:
 * messages that arrived are served; the console and the boot script move on. */
static void send_phase(void) {
  EVENT(DGL_PHASE, EV_PHASE_SEND);
  net_link_sample();
  console_send_phase();
  rfile_send_phase();
  rchan_send_phase();
  net_send_phase();
}
static void receive_phase(void) {
  EVENT(DGL_PHASE, EV_PHASE_RECEIVE);
  net_receive_phase();
  console_service();
  lan_service();
  boot_service();
  /* work the send phase could not finish (the controller's output full, no piece buffer), or a
   * message that came after this phase's look (its interrupt's kernel_work cleared above by
   * the console), keeps the loop going: a trap goes round it (loop_wanted) */
  if (net_tx_pending() || rchan_pending() || console_send_pending() || net_input_pending())
    kernel_work = 1;
}

void kmain(void) {
  board_identify();
  event_init();
  console_init();
  if (nboards < 1 || nboards > TOS_MAX_BOARDS || board_id >= nboards) {
    /* TOS numbers boards 0..nboards-1 (every node but the last full): this machine is not one it can run */
    kprintf("tos: %s: processor %u in a machine the loader says has %u boards (TOS runs 1..%u, numbered from 0 "
            "without gaps): halted\n", board_name, board_id, nboards, TOS_MAX_BOARDS);
    console_flush();
    halt_board(2);
  }
  lan_init();
  net_init();
  net_register(NET_HALT, on_halt, 0);
  net_register(NET_DONE, on_done, 1);
  console_net_init();
  rfile_init();
  remote_init();
  rchan_init();
  migrate_init();
  route_init();
  pmigrate_init();
  balance_init();
  rex_init();
  barrier_setup();
  vm_init();
  thread_init();
  timer_init();
  fs_init();
  uint32_t lo = fs_end();
  if (lo < TOS_FS_BASE) lo = TOS_FS_BASE;
  lo = pages_reserve(lo);
  mem_init(lo, ram_bytes);
  REG16(TB_INTC_ENABLE) = TB_INTC_ENABLE_TIMER | TB_INTC_ENABLE_SERIAL0 | TB_INTC_ENABLE_NET |
                          (board_master ? TB_INTC_ENABLE_SERIAL1 : 0); /* the LAN link */
  spl0();
  kprintf("TOS on %s (board %u, %s): %u KB RAM, %u KB kernel, %u frames free, %u TCBs\n", board_name,
          board_id, board_master ? "master" : "slave", ram_bytes >> 10,
          (uint32_t)__kernel_end >> 10, frames_free(), tcbs_free());
  boot_start();

  for (;;) {
    if (done_told == 1) tell_done(); /* work came from another board: busy again */
    send_phase();
    receive_phase();
    /* computations that arrived run now, without a thread; a sender spins through its set-up
     * round trip (region.c: the flag's one test is all the loop pays when neither is so) */
    if (region_loop_work && region_loop()) {
      idle();
      continue;
    }
    balance_poll();
    pmigrate_poll();
    pages_poll();
    EVENT(DGL_PHASE, EV_PHASE_SCHEDULE);
    struct tcb *t = schedule();
    if (!t) {
      tell_done();
      if (halting && halt_next < nboards) halt_others();
      if (halting && halt_next >= nboards && net_queue_room() == net_queue_capacity()) {
        if (done_told == 1) say_done();
        kprintf("tos: %s: machine halted\n", board_name);
        console_flush();
        halt_board(1);
      }
      idle();
      continue;
    }
    if (t->proc->guest && remote_prefetch(t)) { /* its code page is on the way */
      rq_blocked(t);
      continue;
    }
    uint32_t vector;
    EVENT(DGL_CPU, EV_USER_ON);
    for (;;) {
      vector = run_user(t);
      t = current; /* a yield may have handed the CPU to another thread (trap_fast) */
      if (vector < 24 || vector > 31) break;
      intr(vector); /* a device interrupt while the thread ran: back to it, unless its slice is over */
      spl0();
      if (slice_over) break;
    }
    if (vector != 32 + TOS_SYSCALL_TRAP) { /* a system call's service phase began at its trap */
      EVENT(DGL_CPU, EV_USER_OFF);
      EVENT(DGL_PHASE, EV_PHASE_SERVICE);
    }
    service(t, vector);
    if (t->state != T_FREE) rq_blocked(t);
  }
}
