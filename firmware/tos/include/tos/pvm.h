/* A PVM-style task layer for TOS programs (seed 001: DynamicPVM, Overeinder et al. 1996; PVM 3's
 * library interface, cut to what TOS needs). lib/pvm.c; README "The PVM-style task layer".
 *
 * The virtual machine is one TOS process (the job); its tasks are the process's threads, on any
 * boards. A task id (tid) is the thread's TOS TID: its home board (where the job was made, as a
 * PVM tid names the host that enrolled the task), the process and the thread slot. It stays valid
 * when the task moves (migrate(), one task) or the whole job moves (pmigrate(), direct or
 * indirect checkpoint): every board holding the job keeps a routing table (tid -> board) that
 * the master updates after each move (kernel/route.c: the seed's Figure 2), each send is routed
 * by the sender's board's table (psend), and a board the task has left forwards what still
 * comes to it. pvm_setopt(PvmRoute, PvmRouteFixed) is the same API without that indirection
 * (plain PVM's fixed placement: send_block on the pair's channel, no table, no move support),
 * the baseline the seed measures DynamicPVM against.
 *
 * Messages: pvm_initsend() empties the caller's send buffer, pvm_pk*() append typed items,
 * pvm_send(tid, tag) sends it; pvm_recv(tid, tag) takes the next message from tid (in order: a
 * per-pair sequence number) with that tag (-1: any), keeping others for later, and
 * pvm_upk*() read its items back, each checked against its type and count. Every arriving
 * message is hostile: a short one, a bad magic, a source or destination tid that is not the
 * channel's, a length that is not the bytes received, a tag outside 0..PVM_TAG_MAX, a sequence
 * number out of order are refused and counted (pvm_refused()); an item unpacked as the wrong type
 * or past the message's end is refused (PvmNoData) and counted.
 *
 * Transport: a TOS channel per ordered pair of tasks (PVM_CHAN_BASE + from * PVM_MAX_TASKS + to,
 * slots below PVM_MAX_TASKS): occam channels are point to point, which is PVM's per-pair order.
 * Unlike PVM, a send waits for its receiver (occam); there is no receive from any source. */
#ifndef TOS_PVM_H
#define TOS_PVM_H
#include <stdint.h>

#define PVM_MAX_TASKS 11          /* thread slots 0..10 of the job */
#define PVM_CHAN_BASE 7           /* channels 7..127 are the layer's; 0..6 stay the program's */
#define PVM_MAX_BYTES (16384 + 64) /* a message's packed body: 16 KB of data and a few items */
#define PVM_TAG_MAX 0xFFFF
#define PVM_STASH 8               /* messages kept per task for a later pvm_recv of their tag, */
#define PVM_STASH_BYTES 8192      /* ... in this many bytes (more: refused, PVM_R_STASH) */

/* PVM 3's error codes (the subset used) */
#define PvmOk 0
#define PvmBadParam (-2)
#define PvmNoBuf (-15)
#define PvmNoData (-5)
#define PvmNoMem (-10)
#define PvmSysErr (-14)

/* pvm_setopt(PvmRoute, how): a task's sends routed by the boards' tables (the default,
 * DynamicPVM) or not (plain PVM: its tids fixed to their boards, no lookup; tasks must not move) */
#define PvmRoute 1
#define PvmRouteTable 1
#define PvmRouteFixed 2

/* why an arriving message was refused: pvm_refused(reason) */
enum { PVM_R_SHORT, PVM_R_MAGIC, PVM_R_SRC, PVM_R_DST, PVM_R_LEN, PVM_R_TAG, PVM_R_SEQ, PVM_R_STASH, PVM_R_UNPACK,
       PVM_R_N };

/* pvm_init in the job's first thread before any other call, on its home board: the buffers of
 * every task (about 41 KB each) are allocated there, by the spawner, since a thread on another
 * board cannot grow the heap */
int pvm_init(void);
int pvm_mytid(void);
int pvm_setopt(int what, int val);       /* the old value, or PvmBadParam (the calling task's option) */
int pvm_spawn(void (*entry)(void *), void *arg, int board, int stack_pages); /* a task: its tid, or <0 */
int pvm_initsend(void);    /* 0 */
int pvm_pkbyte(const char *p, int n, int stride);
int pvm_pkshort(const short *p, int n, int stride);
int pvm_pkint(const int *p, int n, int stride);
int pvm_pklong(const long *p, int n, int stride);
int pvm_pkfloat(const float *p, int n, int stride);
int pvm_pkdouble(const double *p, int n, int stride);
int pvm_pkstr(const char *s);
int pvm_send(int tid, int tag);          /* 0, or <0 */
int pvm_mcast(const int *tids, int n, int tag); /* the same buffer to n tasks in turn: 0, or <0 */
int pvm_recv(int tid, int tag);          /* the message's length, or <0 (tag -1: any) */
int pvm_bufinfo(int *bytes, int *tag, int *tid); /* of the message pvm_recv returned */
/* Critical sections (DynamicPVM): while a task is inside one, a pmigrate of its job is held
 * back (it waits, then moves the job once every task is out). pvm_send, pvm_mcast and pvm_recv
 * are each one; a program may mark its own (they nest). No system call: a word of the task's
 * own that the kernel reads (pmig_critical). PvmNoBuf before pvm_init or pvm_spawn made the task. */
int pvm_critical_begin(void);
/* DynamicPVM's pvm_move: task tid (of this job) to board, by thread migration; its tid stays
 * valid and its messages follow it. Waits (at most 2 s) while the task is inside a call or a
 * critical section. 0, PvmBadParam (not a task of this job, no such board), or PvmSysErr. */
int pvm_move(int tid, int board);
int pvm_critical_end(void);
int pvm_upkbyte(char *p, int n, int stride);
int pvm_upkshort(short *p, int n, int stride);
int pvm_upkint(int *p, int n, int stride);
int pvm_upklong(long *p, int n, int stride);
int pvm_upkfloat(float *p, int n, int stride);
int pvm_upkdouble(double *p, int n, int stride);
int pvm_upkstr(char *s, int max);
unsigned long pvm_refused(int reason);   /* messages refused by this job's tasks for that reason */
const char *pvm_reason(int reason);
#endif
