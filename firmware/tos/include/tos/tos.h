/* The TOS user library: what a program for the Testbed links against (seed 000 section
 * 2.1.3). Threads and channels follow occam; the rest is a small part of the C library.
 * System call numbers, error codes and limits: <testbed/tos.h> (from sw/tables/tos.toml),
 * documented in docs/tos_abi.md. This header brings the C library's <stdio.h>, <stdlib.h> and
 * <string.h> with it; <time.h> is separate. */
#ifndef TOS_TOS_H
#define TOS_TOS_H
#include <stdarg.h>
#include <stdint.h>
#include <testbed/events.h>
#include <testbed/tos.h>
#include <tos/fs_format.h>
#include <tos/pinfo.h>

#ifndef NULL
#define NULL ((void *)0)
#endif
#include <stddef.h>

/* ---- threads (occam PAR) ---- */
/* Start a child running entry(arg) with n_pages of stack on `processor` (a board's number:
 * HERE for this one; negative: a slave chosen at random by TOS, dealt evenly: a process's
 * threads go to the slaves in equal numbers). `id` is your own number for
 * the child (the report's occam process number): kept with the thread, never interpreted.
 * Returns the child's TID, or 0 if it cannot be created (the reason: tos_errno; the system
 * call itself returns -error, docs/tos_abi.md). */
int create(int id, int n_pages, int processor, void (*entry)(void *), void *arg);
#define HERE ((int)tos_info(TOS_INFO_BOARD)) /* create(..., HERE, ...): on this board */
int wait(void);               /* wait for all children; 0, or the first non-zero exit code */
void exit(int code) __attribute__((noreturn));
int gettid(void);
int net_inject(int processor, int type, const uint32_t *ops, int nops); /* tests: a raw, maybe corrupt, message */
int net_inject_data(int processor, int type, const uint32_t *ops, int nops, const void *data); /* ... with a block of data */
int migrate(int tid, int processor); /* move thread tid (a ready one, or the caller) there: 0, or -error */
int pmigrate(int pid, int processor, int mode); /* move process pid whole (TOS_PMIG_DIRECT/INDIRECT): 0, or -error */
int pmig_critical(uint32_t *depth); /* the calling thread's critical-section depth is *depth (NULL: none) */
int psend(int chan, const void *buf, int len, int tid); /* send_block routed by this board's table to thread tid */
int route_info(int what, int tid); /* this board's routing table (TOS_ROUTE_BOARD) and counts, or -error */
int reconfigure(int processor, int kind, int arg); /* TOS_RECONF_*: that board picks and moves a thread (Figure 40) */
/* RHODOS's services (seed 002, kernel/rex.c): rex_create is create() on the board the master's
 * global scheduler chooses (the asking board when none serves); process_twin duplicates the
 * calling single-threaded process: the twin's pid here, 0 in the twin, -error. The scheduler's
 * side: gs_serve takes waiting questions ((board << 16) | TID), gs_answer answers one. */
int rex_create(int id, int n_pages, void (*entry)(void *), void *arg);
int rex_place(void); /* rex_create's question alone: the board (or -1, tos_errno) */
int process_twin(void);
int gs_serve(uint32_t *buf, int max);
int gs_answer(int board, int tid, int place);
void yield(void);
extern int tos_errno;         /* the last failed call's error (TOS_E*) */

/* ---- channels (occam ! and ?) ---- */
int send_block(int chan, const void *buf, int len);  /* 0, or -error */
int receive(int chan, void *buf, int len);           /* bytes received, or -error */

/* ---- processes ---- */
extern char **environ;                               /* NAME=value strings (POSIX's, <unistd.h>'s) */
int spawn(const char *path, const char *args);       /* process number, or -error; passes environ */
/* env: "NAME=value\0...\0\0" (NULL: this process's environment) */
int spawn_env(const char *path, const char *args, const char *env);
int pwait(int pid);                                  /* its exit code, or -error */
int kill(int pid);

/* ---- the console and the machine ---- */
int read(int fd, void *buf, int len);                /* fd 0: a line from the console */
int stty(int mode);                                  /* 0 cooked, 1 raw, other: ask */
int console(int processor);                          /* switch the operator's console */
void halt(int all);                                  /* this board, or (master) all */
int rput(int processor, const char *name, const void *buf, int len, int perm); /* a file to another board */
int pinfo(int pid, struct tos_pinfo *info);          /* for ps */
int pstate(int pid, int state);                      /* P_FOREGROUND/P_BACKGROUND/P_SUSPENDED, 0 asks */

/* ---- the master's LAN link (host file service) and monitor; -TOS_ENODEV on a slave ---- */
int lan_get(const char *name, void *buf, int max);      /* bytes fetched from the host, or -error */
int lan_put(const char *name, const void *buf, int len); /* 0 once the host has stored it, or -error */
int mon_read(uint32_t *buf, int max_words);             /* MMI entries drained (no wait), or -error */
long mon_status(int what);                              /* TOS_MON_*, or -error */
long mon_filter(int smi, int reg, long value);          /* SMI smi's FLT_ register (TB_MON_FLT_*_OFF): -1 reads */
int mon_filter_apply(int smi, int argc, char **argv);   /* a filter command's words (sh's `filter`): 0 or -1 */
void mon_filter_show(int smi);                          /* print SMI smi's filter settings and counters */

/* ---- user devices (machine file [[boards.devices]]; README "Building on the models") ---- */
long dev(int op, unsigned long arg, unsigned long value); /* TOS_DEV_*: a count, an address, 0, or -error */
/* A DMA buffer for the caller's device (it must own one: reach its registers first), as Linux's
 * dma_alloc_coherent: `bytes` zeroed bytes mapped here, and their bus address (the board physical
 * address to give the device) in *bus; NULL with tos_errno on failure. Freed by dev_dma_free or
 * when the process ends. */
void *dev_dma_alloc(unsigned long bytes, uint32_t *bus);
int dev_dma_free(void *buf);                                /* 0, or -error */

/* ---- the kernel ---- */
long tos_info(int what);                             /* TOS_INFO_* */
int dgl_set(int set, int clear);                     /* event classes (DGL_*) on / off */
void send_event(int code);                           /* a user event (class overflow) */
unsigned long time_us(void);                         /* real-time clock, microseconds */
void compute_ms(unsigned long ms);                   /* busy for ms of the clock (Appendix A's compute()) */
long __tos_syscall(long n, long a, long b, long c, long d, long e, long f);

/* ---- barriers (seed 004; lib/barrier.c, kernel/barrier.c): for threads of this process on any boards ---- */
int barrier_init(int n);                             /* on the home board: the barrier's index, or -error */
/* how barrier_wait(b) waits (TOS_BARRIER_BLOCK, _SPIN, _TWO_PHASE with a spin of limit_us); default block */
int barrier_policy(int b, int policy, unsigned limit_us);
int barrier_policy_cs(int b, int policy, unsigned cs_percent); /* limit: percent of the measured CS (100 CS, 110 CS+, 210 2CS+) */
unsigned barrier_measure_cs(void);                   /* microseconds of one thread switch here (yield ping-pong), once */
unsigned barrier_measure_cs_on(int board);           /* ... on that board (from the home; waits for the caller's children) */
int barrier_wait(int b);                             /* 0 once all n have arrived, or -error */
struct barrier_stats { unsigned spins, spin_ok, blocks, last; }; /* spins = spin_ok + spins that blocked */
int barrier_wait_stats(int b, struct barrier_stats *st); /* barrier_wait, counting how it waited */
int sched_wakeup(int placement);                     /* TOS_WAKE_TAIL / _HEAD on this board (privileged); -1 reads */

/* ---- files (descriptors 0, 1, 2: the console) ---- */
int write(int fd, const void *buf, int len);         /* bytes written, or -error */
int read(int fd, void *buf, int len);                /* bytes read, 0 at the end, or -error */
int open(const char *path, int flags);               /* TOS_O_*: a descriptor, or -error */
int close(int fd);
long lseek(int fd, long offset, int whence);         /* TOS_SEEK_*: the new offset, or -error */
int chmod(const char *path, int perm);               /* TOS_FS_PERM_* of <tos/fs_format.h> */
int stat(const char *path, struct tos_stat *st);
int readdir(int index, struct tos_stat *st);         /* the index-th file; -TOS_ENOENT past the last */
int fsstat(struct tos_fsstat *st);                   /* free space */
int dup2(int fd, int newfd);
void *sbrk(long increment);                          /* the old break, or (void *)-1 */
long tos_clock(unsigned long *usec);                 /* real-time clock: seconds since boot */
const char *tos_strerror(int err);                   /* "ENOENT" ... */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#endif
