/* Job control on the console (cooked mode, as a terminal driver's ISIG): which processes are the
 * console's foreground job, and what Ctrl-C and Ctrl-Z do to them. Apart from the line
 * discipline (console_line.c) because it acts on processes, not characters: it kills and suspends.
 *
 * Ctrl-C and Ctrl-Z never enter the input; the receive interrupt counts them (console_input,
 * console_uart.c) and the main loop acts on them here (job_control). */
#include "console.h"

volatile uint32_t con_intr_typed, con_susp_typed;

/* The console's foreground job: the processes of this board in the foreground started by a
 * foreground program of the boot script (its shell) and, in turn, by them (the shell's
 * foreground command and what that started). The boot script's own programs (parent -1) are not
 * jobs, nor is anything a background program started. */
static int foreground_job(const struct proc *p) {
  for (int depth = 0; depth < TOS_MAX_PROCESSES; ++depth) {
    if (!proc_alive(p) || p->guest || p->state != P_FOREGROUND || p->parent < 0) return 0;
    const struct proc *par = &procs[p->parent];
    if (!proc_alive(par) || par->serial != p->parent_serial || par->state != P_FOREGROUND) return 0;
    if (par->parent < 0) return 1; /* started by the boot script's foreground program: the shell */
    p = par;
  }
  return 0;
}

int console_job_running(void) {
  for (int i = 0; i < TOS_MAX_PROCESSES; ++i)
    if (foreground_job(&procs[i])) return 1;
  return 0;
}

/* Ctrl-C ends the foreground job (exit code TOS_EXIT_INTERRUPTED); with none, the line being
 * typed is dropped and an empty one given, so the shell prompts again. Ctrl-Z suspends the
 * foreground job (the scheduler passes it over) and its waiters return -ESTOPPED: the shell
 * prompts, and fg or bg lets the job run again. */
void job_control(void) {
  uint16_t sr = splhigh();
  uint32_t nintr = con_intr_typed, nsusp = con_susp_typed;
  con_intr_typed = con_susp_typed = 0;
  splx(sr);
  con_consumed += nintr + nsusp; /* the master counted them against this board's input credit */
  for (; nintr; --nintr) {
    int any = 0;
    uint8_t job[TOS_MAX_PROCESSES]; /* the whole job first: a parent's end would hide its children */
    console_put("^C\n", 3);
    for (int i = 0; i < TOS_MAX_PROCESSES; ++i) job[i] = (uint8_t)foreground_job(&procs[i]);
    for (int i = 0; i < TOS_MAX_PROCESSES; ++i)
      if (job[i]) {
        proc_kill(&procs[i], TOS_EXIT_INTERRUPTED);
        any = 1;
      }
    if (!any) line_give_empty_line();
  }
  for (; nsusp; --nsusp) {
    uint8_t job[TOS_MAX_PROCESSES];
    console_put("^Z\n", 3);
    for (int i = 0; i < TOS_MAX_PROCESSES; ++i) job[i] = (uint8_t)foreground_job(&procs[i]);
    for (int i = 0; i < TOS_MAX_PROCESSES; ++i) {
      struct proc *p = &procs[i];
      if (!job[i]) continue;
      p->state = P_SUSPENDED;
      for (int k = 0; k < 4; ++k) {
        struct tcb *w = p->pwaiter[k];
        if (w && w->state == T_PWAIT) finish(w, -TOS_ESTOPPED);
        p->pwaiter[k] = NULL;
      }
    }
  }
}
