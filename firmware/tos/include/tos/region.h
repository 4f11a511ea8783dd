/* Shared regions and computation migration (seed 003: Hsieh 1995; CRL's interface, Table 6.1,
 * with MCRL's threads). A region is a block of up to TOS_MAX_REGION_BYTES of this process,
 * homed on the board where the thread that created it runs (its rid's top byte), cached on every
 * board whose threads map it, kept coherent
 * by its home: many readers or one writer. Every access to a region's data lies between
 * rgn_start_read/rgn_end_read or rgn_start_write/rgn_end_write; a thread waiting for the
 * protocol blocks alone. Kernel side: kernel/region.c; the calls: docs/tos_abi.md. */
#ifndef TOS_REGION_H
#define TOS_REGION_H
#include <stdint.h>
#include <testbed/tos.h>

typedef uint32_t rid_t;

rid_t rgn_create(unsigned size);   /* a new region (zeroed, mapped here): its id, 0 on failure (tos_errno) */
int rgn_delete(void *rgn);         /* the home process only */
void *rgn_map(rid_t rid);          /* its address on this board (blocks the first time), NULL on failure */
int rgn_unmap(void *rgn);
int rgn_start_read(void *rgn);     /* 0, or -error: blocks until a valid copy is here */
int rgn_end_read(void *rgn);
int rgn_start_write(void *rgn);    /* blocks until the only copy is here */
int rgn_end_write(void *rgn);
int rgn_flush(void *rgn);          /* drop this board's copy (written home if it is the only one) */

/* ---- computation migration (seed 003 chapter 3) ----
 * cm_call runs fn(rgn, arg) as a read (TOS_CM_READ) or write (TOS_CM_WRITE) of the region and
 * returns its result. Where this board's copy will do, it runs here; otherwise the region's
 * home decides, by its policy, whether to send the data (fn then runs here) or to run fn at the
 * home, in a server thread of the process (cm_serve_start), and send back the result. `how`
 * (may be NULL) gets TOS_CM_LOCAL, TOS_CM_STARTED (data came) or TOS_CM_DONE (ran at the home);
 * on failure it gets -error and cm_call returns 0. */
typedef long (*cm_fn)(void *rgn, long arg);
long cm_call_how(void *rgn, int mode, cm_fn fn, long arg, int *how);
#define cm_call(rgn, mode, fn, arg) cm_call_how((rgn), (mode), (fn), (arg), NULL)
int cm_serve_start(int n_pages);   /* a server thread on this (the home) board: its TID, 0 on failure */
int cm_serve_start_on(int board, int n_pages); /* ... on `board` (from the process's home, which gives thread slots) */
void cm_serve(void);               /* the caller serves on this board until cm_serve_stop there, then exits */
void cm_serve_stop(void);          /* every server of the process on this board ends (then wait() for them) */
/* A policy by the name programs take on their command line ("data", "rpc", "static", "repeat",
 * each may end "+oam", then "+cm5": below): TOS_CM_POLICY_*, or -1 for any other name; and the
 * name of a policy ("?" for none). */
int cm_policy_named(const char *name);
/* Optimistic active messages (seed 003 6.2.3): on (before the servers start), a migrated
 * computation runs at the home on its arrival without a thread, in user mode, and is aborted to
 * a server thread when it would block, makes a system call or runs past the kernel's budget;
 * rgn_count's TOS_CM_COUNT_OAM and _ABORT_* count them. A policy's name with "+oam" ("static+oam")
 * turns them on too. Off by default. */
void cm_oam(int on);
/* The CM-5's message limit (seed 003 4.2.1, 7.3.1): a migration request is longer than an active
 * message's four words, so each needs a set-up round trip first, during which the caller's board
 * spins. cm_map is rgn_map, and with this on (or a policy's name ending "+cm5": "static+oam+cm5")
 * it sends this board's migration requests for the region so (rgn_policy what
 * TOS_CM_SHORT_MESSAGES). Off by default; pure data migration's requests never need it. */
void cm_short_messages(int on);
void *cm_map(rid_t rid);
/* Onward (seed 003 7.3.1: the counting network's computation goes on from balancer to balancer):
 * from a migrated computation running at its region's home (in a server thread, or as an
 * optimistic active message, which the call aborts to one, as the seed's did), the rest of it,
 * fn(region, arg) as a `mode` access of region `rid`, goes on to that region's home, which runs it
 * (whatever its policy); the last home's result is what the original caller's cm_call returns,
 * and the value this computation returns is dropped. `rid` must be mapped on this board, and the
 * region where it ends on the caller's (whose kernel takes the result from the home of a region
 * it maps). With cm_short_messages the step waits for a set-up round trip, the board spinning.
 * 0, or -1 and tos_errno: EINVAL (not in a migrated computation: cm_call ran fn here), ENOENT,
 * EBUSY (it went on already), EAGAIN (too many set-ups on their way here). */
int cm_onward(rid_t rid, int mode, cm_fn fn, long arg);
const char *cm_policy_name(int policy);
int rgn_policy(void *rgn, int policy);  /* at the home: TOS_CM_POLICY_DATA, RPC, STATIC or REPEAT */
long rgn_count(void *rgn, int what);    /* at the home: TOS_CM_COUNT_* (DATA, COMPUTE, OAM, ABORT_*); MISS anywhere */
#endif
