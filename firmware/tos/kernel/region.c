/* Shared regions and computation migration (seed 003: Hsieh 1995, chapters 3 and 6; CRL's
 * interface, Table 6.1, with MCRL's threads).
 *
 * A region is a block of up to region_bytes of one process, homed on the board where the
 * thread that created it runs (MCRL's choice: a thread placed on board X, by its creation there
 * or by a migration, makes regions homed on X, so that data can be put next to the computation
 * that uses it most). That board hands out the region's id from its own table (rid = home << 24
 * | generation << 8 | index) and keeps its directory for as long as the process's part there
 * lives (a guest part stays until the process ends). Every board where a thread of the process
 * maps it keeps a copy in its own frames,
 * mapped into the process's region window; the home's copy is the master. The home keeps the
 * directory (the boards with read copies, the one with an exclusive copy) and serves one
 * request per region at a time, oldest first, so that the protocol's steps never cross:
 *   read miss at X:  X -> home REQ(read); if a board Y holds it exclusive, home -> Y RECALL(keep a
 *                    read copy), Y -> home RECALL_ACK with the data; home -> X DATA (shared).
 *   write miss at X: X -> home REQ(write); home -> every other holder INVAL (or RECALL: drop it),
 *                    each answers; home -> X DATA (exclusive), or a grant without data when X
 *                    already holds a valid read copy.
 * A board where a copy is in use (a read or a write open) holds an invalidation or recall back
 * until the last access ends, and lets no new access start meanwhile. The home's own threads go
 * through the same queue as other boards' requests (a local request completes without a
 * message). Data moves in pieces of one frame (1 KB), each a Centrenet message whose data the
 * network interface's DMA gathers from and stores back to the frame (net.c: in 1994 mode
 * through the controller's buffer, with dma-anywhere straight from and to RAM); the last piece
 * carries the step.
 *
 * Computation migration (seed 003 chapter 3): rgn_cm is a migratable access. When this board's
 * copy will not do, a migration request goes to the home, and the home decides by the region's
 * policy: send the data (the request becomes an ordinary read or write request) or run the
 * computation there, in a server thread of the process (rgn_serve), and send back its result.
 * STATIC: computation for writes, data for reads; REPEAT: computation for writes, and for reads
 * after a write until some board has asked to read twice with no write between, then data.
 * With optimistic active messages on (seed 003 6.2.3: rgn_serve's oam_return) the computation
 * runs on its arrival instead, without a thread: see "optimistic active messages" below.
 * A migrated computation may go on to another region's home (rgn_onward, seed 003 7.3.1: the
 * counting network's computation moves from balancer to balancer): the home sends RGN_CM_FWD
 * naming the original caller, the next home runs it (whatever its policy: there is no caller
 * there to hand the data to) and the last one sends the result straight to the caller, whose
 * board takes it from the home of any region of the process it has mapped.
 *
 * Every message is checked where it arrives: the sender is the network interface's source
 * board; a request must come from a board the home knows one of the process's threads is on, an
 * answer from the board it was asked of, a client's message from the region's home; operands
 * are range checked. Refusals go to net_bad (counted, said once per kind). Only the process's
 * home board knows where the process's threads are (it hands out the thread slots and learns
 * every move), so a board learns a region's size -- and becomes one that may ask -- by a MAP
 * that names the process: sent straight to the region's home when that is the process's home
 * (which checks its own table) or when the asker is the process's home itself; otherwise sent
 * to the process's home, which checks that a thread of the process is on the asker and relays
 * it to the region's home, which takes the relay from the process's home only. A region homed on
 * a guest part accepts requests from the boards so vouched for (its mappers). */
#include "defs.h"

#define NONE 0xFFu
#define BIT(b) BSET(b)
#define NPAGES(size) (((uint32_t)(size) + TOS_PAGE_SIZE - 1) / TOS_PAGE_SIZE)
#define RGN_PAGES (TOS_MAX_REGION_BYTES / TOS_PAGE_SIZE)
#define WIN_LO (TOS_REGION_WINDOW >> TOS_PAGE_SHIFT)
/* The window's two top pages are no region's: a process's handler stack for the computations
 * run as optimistic active messages, above a guard page never mapped (its overflow faults). */
#define OAM_STACK_PAGE ((TOS_STACK_BASE >> TOS_PAGE_SHIFT) - 1)
#define WIN_HI REGION_WINDOW_HI /* (OAM_STACK_PAGE - 1: its guard) */
#define NO_TID 0xFFFFu
_Static_assert(TOS_MAX_REGIONS <= 256, "a rid's index is 8 bits");

enum { S_INVALID, S_SHARED, S_EXCL };          /* this board's copy */
enum { K_READ = 1, K_WRITE = 2 };              /* = TOS_CM_READ / TOS_CM_WRITE */

struct region {
  uint32_t rid;              /* home << 24 | generation << 8 | index; 0: the record is free */
  struct proc *p;            /* the part of the process here that maps it */
  uint32_t serial;           /* p's incarnation */
  uint16_t size;             /* 0: asked the home (a MAP on its way) */
  uint8_t home;              /* 1: homed here (the directory below is valid) */
  uint8_t state;             /* S_*: this board's copy */
  uint16_t readers;          /* reads open here */
  uint8_t writer;            /* a write is open here */
  uint8_t want;              /* K_*: a request of this board is on its way to the home */
  uint8_t held;              /* an INVAL (1) or RECALL (2 keep, 3 drop) waiting for the accesses here */
  uint8_t got;               /* pieces of the data on their way in */
  uint16_t maps;
  uint32_t vpage;            /* first page of the window where it is mapped */
  uint32_t frame[RGN_PAGES];
  /* the home's: the directory and the request being served */
  bset_t sharers;            /* other boards with a read copy */
  bset_t mappers;            /* other boards that asked its size: they keep a record until it is deleted */
  uint8_t excl;              /* the other board with the only copy, or NONE */
  uint8_t busy;              /* a request is being served (waiting for acks / a recall) */
  uint8_t recall_from;       /* NONE, or the board whose data the served request waits for */
  bset_t acks;               /* boards still to answer an invalidation */
  uint8_t policy;            /* TOS_CM_POLICY_* */
  bset_t read_once;          /* REPEAT: boards that asked to read once since the last write */
  uint8_t reads_data;        /* REPEAT: a board read twice: data for reads until the next write */
  uint32_t n_data, n_compute;
  uint32_t n_miss;            /* this board's accesses that had to ask the home (any board's record) */
  uint32_t n_oam, n_abort[4]; /* computations run as optimistic active messages: completed, aborted by cause */
  uint8_t short_msgs;         /* this board's migration requests go as on the CM-5: a set-up round trip first */
};
static struct region rg[TOS_MAX_REGIONS];
static uint16_t generation = 1;

/* Requests waiting at a home: a board's request (one at a time per region and kind) or a
 * migration request (one per calling thread), in arrival order. */
#define HQ 128
enum { Q_ACCESS, Q_CM, Q_ONWARD }; /* a board's request, a migration request, an onward step */
struct hreq {
  uint8_t used, r, from, kind; /* kind K_* */
  uint8_t cm;                  /* Q_* */
  uint8_t caller;              /* Q_CM, Q_ONWARD: the caller's board (Q_CM: from) */
  uint16_t tid;                /* ... and thread */
  uint32_t fn, arg;
  uint32_t crid;               /* ... and the region it waits on (Q_CM: this one) */
  uint32_t seq;
};
static struct hreq hq[HQ];
static uint32_t hq_seq, hq_max;

/* Threads waiting here: for an access, a map, a migration's answer, or (a server) for a job. */
enum { W_NONE, W_ACCESS, W_MAP, W_CM, W_SERVE };
#define NWAIT TOS_MAX_TCBS
struct waiter {
  struct tcb *t;
  uint16_t tid;
  uint8_t what, r, kind, cm;   /* cm: a migration answered with the data: rgn_cm's STARTED */
  uint32_t seq;                /* order of arrival */
  uint32_t buf;                /* W_CM: where the result goes; W_SERVE: the job buffer */
  /* W_CM with the region's short_msgs: the request waits here for the set-up's answer */
  uint8_t setup;
  uint32_t fn, arg, since;
};
static struct waiter wt[NWAIT];
static uint32_t wseq, wt_max; /* entries past wt_max have never been used: scans stop there */

/* Migrated computations at a home, waiting for a server or being run by one. */
#define NJOBS 32
enum { J_FREE, J_WAITING, J_RUNNING, J_OAM }; /* J_OAM: to run as an optimistic active message */
struct job {
  uint8_t state, r, from, mode; /* J_*; from: the caller's board */
  uint16_t tid;                 /* the caller */
  uint8_t onward;               /* it went on (rgn_onward): its result comes from a later home */
  uint32_t fn, arg, rid, id;
  uint32_t crid;                /* the region the caller waits on (this one unless it came onward) */
  struct proc *p;
  uint32_t serial;
  struct tcb *srv;              /* J_RUNNING: the server thread running it */
  uint16_t srv_tid;
};
static struct job jobs[NJOBS];
static uint32_t job_ids = 1;
static uint8_t serving[TOS_MAX_PROCESSES]; /* a server thread of the process has asked for work */
static uint32_t serving_serial[TOS_MAX_PROCESSES];

uint32_t region_stale; /* messages for a region that has gone (a process ended meanwhile): counted */
/* Set-up round trips (short_msgs): on their way; answered, and the microseconds their senders spun */
static uint32_t setups_out, setups_done, setup_us;
/* Onward steps (rgn_onward): sent; lost on the way (the next region gone, its home's queue full or
 * no server there: the caller's cm_call fails); a board's steps waiting for their set-ups */
static uint32_t onward_sent, onward_lost;
#define NONWARD 8
#define ONWARD_KEY (NO_TID + 1u) /* + n: RGN_SETUP's "TID" for onward step n, past every TID */
/* RGN_CM_FWD's caller: its board above its TID */
#define WHO(board, tid) ((uint32_t)(board) * ONWARD_KEY | (tid))
#define WHO_BOARD(w) ((w) / ONWARD_KEY)
#define WHO_TID(w) ((w) % ONWARD_KEY)
static struct {
  uint8_t used;
  struct proc *p;
  uint32_t serial, since, o[6]; /* RGN_CM_FWD's operands */
} onq[NONWARD];
static uint8_t onward_starved; /* an onward step waits at a home for a free job */
static void job_free(struct job *j) {
  j->state = J_FREE;
  if (onward_starved) region_loop_work = 1; /* (region_loop serves the homes again) */
}

static uint32_t me(void) { return net_me(); }
static uint16_t evword(const struct region *r) { return (uint16_t)(((r->rid >> 24) << 8) | (r->rid & 0xFF)); }
#define REV(n, r) EVENT2(DGL_REGIONS, n, evword(r))

static int alive(const struct region *r) { return r->rid && proc_alive(r->p) && r->p->serial == r->serial; }
/* A region's record here: at its index when it can be (a home's always is, a copy's when the
 * slot was free), else found by a scan of the records in use. */
static uint32_t rg_max; /* records past this one have never been used */
static struct region *by_rid(uint32_t rid) {
  if (!rid) return NULL;
  struct region *r = &rg[(rid & 0xFF) % TOS_MAX_REGIONS];
  if (r->rid == rid) return alive(r) ? r : NULL;
  for (uint32_t k = 0; k < rg_max; ++k)
    if (rg[k].rid == rid && alive(&rg[k])) return &rg[k];
  return NULL;
}
static uint32_t home_of(const struct region *r) { return r->rid >> 24; }
static uint32_t piece_len(const struct region *r, uint32_t i) {
  uint32_t rest = r->size - i * TOS_PAGE_SIZE;
  return rest < TOS_PAGE_SIZE ? rest : TOS_PAGE_SIZE;
}

/* ---- messages: to this board itself a step is a call ---- */
static void handle(uint32_t from, uint32_t type, const uint32_t *o, uint32_t nops);
static void post(uint32_t dest, uint32_t type, const uint32_t *o, uint32_t nops) {
  if (dest == me()) {
    handle(dest, type, o, nops);
    return;
  }
  net_send_wait(dest, type, o, nops);
}
/* The region's data to `dest` in pieces, the step's type on each (the last one completes it);
 * ops[nops-2] is the piece, ops[nops-1] the last flag. */
static void post_data(uint32_t dest, uint32_t type, uint32_t *o, uint32_t nops, const struct region *r) {
  uint32_t n = NPAGES(r->size);
  for (uint32_t i = 0; i < n; ++i) {
    o[nops - 2] = i;
    o[nops - 1] = i == n - 1;
    net_queue_wait(dest, type, o, nops, r->frame[i], piece_len(r, i), NULL, NULL);
  }
}
/* A piece of data has come for r (checked by the caller): stored into its frame by the DMA. */
static int take_piece(uint32_t from, uint32_t type, struct region *r, uint32_t piece) {
  if (piece >= NPAGES(r->size)) return net_bad(from, type, "region piece out of range", piece);
  if (net_data_len() != piece_len(r, piece)) return net_bad(from, type, "region piece of the wrong length", net_data_len());
  net_take(0, r->frame[piece], piece_len(r, piece));
  return 1;
}

/* ---- the home: may board b ask about this process's regions? ---- */
/* The process's home board: is one of the process's threads on b, as its table says? */
static int has_part(const struct proc *p, uint32_t b) {
  if (b == me()) return 1;
  if (p->guest) return 0; /* (only the process's home knows where the threads are) */
  for (uint32_t s = 0; s < TOS_MAX_THREADS; ++s)
    if ((p->remote_mask[s / 32] >> (s % 32) & 1) && p->where[s] == b) return 1;
  return 0;
}
/* A region's home: on the process's home board its own table says; on a guest part, b must be
 * a board the process's home vouched for when b mapped the region (the process's home's own
 * MAP included). */
static int may_ask(const struct region *r, uint32_t b) {
  if (!r->p->guest) return has_part(r->p, b);
  return b == me() || (b < nboards && (r->mappers & BIT(b)));
}

/* ---- threads waiting here ---- */
static struct waiter *wait_add(struct tcb *t, uint32_t what, struct region *r, uint32_t kind) {
  for (uint32_t i = 0; i < NWAIT; ++i)
    if (wt[i].what == W_NONE) {
      struct waiter *w = &wt[i];
      if (i >= wt_max) wt_max = i + 1;
      w->t = t;
      w->tid = t->tid;
      w->what = (uint8_t)what;
      w->r = r ? (uint8_t)(r - rg) : 0;
      w->kind = (uint8_t)kind;
      w->cm = 0;
      w->seq = ++wseq;
      w->buf = 0;
      w->setup = 0;
      t->state = T_REGION;
      return w;
    }
  return NULL; /* cannot happen: one entry per thread, as many as TCBs */
}
static int wait_live(const struct waiter *w) { return w->what != W_NONE && w->t->tid == w->tid && w->t->state == T_REGION; }
static void wake(struct waiter *w, int32_t result) {
  if (wait_live(w)) finish(w->t, result);
  w->what = W_NONE;
}

/* The oldest live access waiter of r, or NULL. */
static struct waiter *oldest(struct region *r) {
  struct waiter *best = NULL;
  for (uint32_t i = 0; i < wt_max; ++i) {
    struct waiter *w = &wt[i];
    if (w->what != W_ACCESS || &rg[w->r] != r) continue;
    if (!wait_live(w)) {
      w->what = W_NONE;
      continue;
    }
    if (!best || w->seq < best->seq) best = w;
  }
  return best;
}

static void home_request(struct region *r, uint32_t from, uint32_t kind, uint32_t cm, uint32_t tid, uint32_t fn,
                         uint32_t arg, uint32_t caller, uint32_t crid);
static void do_held(struct region *r);
static struct hreq *hq_head(struct region *r);
static void region_jobs_serve(void);
static void serve_waiters(struct region *r);
static int oam_on(const struct proc *p);
static void oam_queue(struct job *j);

/* May an access of this kind start here now? Not while an invalidation or recall waits for the
 * accesses here to end, nor, at the home, while another board's request is served or is next. */
static int copy_allows(const struct region *r, uint32_t kind) {
  return kind == K_READ ? (r->state != S_INVALID && !r->writer) : (r->state == S_EXCL && !r->writer && !r->readers);
}
static int grantable(struct region *r, uint32_t kind) {
  if (r->held) return 0;
  if (r->home) {
    struct hreq *h = hq_head(r);
    if (r->busy || (h && h->from != me())) return 0;
  }
  return copy_allows(r, kind);
}

/* The home's own request has been served: its waiters take the copy it got, oldest first,
 * before the next request in the queue is served (that one then waits for their accesses to
 * end: home_run), as a board's waiters take the data its request brought (on_data). Through
 * serve_waiters alone a request queued meanwhile by another board would come first, take the
 * copy away, and the home's threads would ask again at the back of the queue: with readers on
 * other boards that re-ask as fast as they are invalidated, the home's writer never got in
 * (tos_regions_home_writer_gets_in). */
static void grant_home_waiters(struct region *r) {
  struct waiter *w;
  while (!r->held && (w = oldest(r)) && copy_allows(r, w->kind)) {
    if (w->kind == K_READ) ++r->readers;
    else r->writer = 1;
    REV(EV_RGN_GRANTED, r);
    wake(w, w->cm ? TOS_CM_STARTED : 0);
  }
}

/* Let waiting threads go, oldest first, while this board's copy allows it; ask the home for
 * what the oldest needs. */
static void serve_waiters(struct region *r) {
  for (;;) {
    if (r->held) return;
    if (r->home) {
      struct hreq *h = hq_head(r);
      if (r->busy || (h && h->from != me())) return;
    }
    struct waiter *w = oldest(r);
    if (!w) return;
    if (grantable(r, w->kind)) {
      if (w->kind == K_READ) ++r->readers;
      else r->writer = 1;
      REV(EV_RGN_GRANTED, r);
      wake(w, w->cm ? TOS_CM_STARTED : 0);
      continue;
    }
    uint32_t need = w->kind == K_READ ? (r->state == S_INVALID) : (r->state != S_EXCL);
    if (need && !r->want) {
      r->want = (uint8_t)w->kind;
      ++r->n_miss;
      REV(EV_RGN_MISS, r);
      if (r->home) {
        home_request(r, me(), w->kind, Q_ACCESS, NO_TID, 0, 0, me(), 0);
      } else {
        uint32_t o[2] = {r->rid, w->kind};
        post(home_of(r), NET_RGN_REQ, o, 2);
      }
    }
    return;
  }
}

/* ---- the home's side ---- */
static void home_state(struct region *r) { r->state = r->excl != NONE ? S_INVALID : r->sharers ? S_SHARED : S_EXCL; }

static struct hreq *hq_head(struct region *r) {
  struct hreq *best = NULL;
  for (uint32_t i = 0; i < hq_max; ++i)
    if (hq[i].used && &rg[hq[i].r] == r && (!best || hq[i].seq < best->seq)) best = &hq[i];
  return best;
}

/* The served request's last step: give the requester its copy. */
static void home_complete(struct region *r, struct hreq *q) {
  uint32_t b = q->from;
  if (q->kind == K_WRITE) {
    r->read_once = 0; /* REPEAT: a write starts the count again */
    r->reads_data = 0;
  }
  if (b == me()) {
    if (q->kind == K_WRITE) r->sharers = 0;
    home_state(r);
    r->want = 0;
    REV(EV_RGN_GRANTED, r);
  } else {
    int had = (r->sharers & BIT(b)) || r->excl == b;
    uint32_t st;
    if (q->kind == K_WRITE || r->excl == b) {
      r->sharers = 0;
      r->excl = (uint8_t)b;
      st = S_EXCL;
    } else {
      r->sharers |= BIT(b);
      st = S_SHARED;
    }
    home_state(r);
    uint32_t o[5] = {r->rid, st, q->cm ? q->tid : NO_TID, 0, 1};
    REV(EV_RGN_DATA, r);
    if (had) post(b, NET_RGN_DATA, o, 5);
    else post_data(b, NET_RGN_DATA, o, 5, r);
  }
  q->used = 0;
  r->busy = 0;
  if (b == me()) grant_home_waiters(r);
  serve_waiters(r);
}

/* Serve the oldest request while nothing is in the way. */
static void home_run(struct region *r) {
  while (!r->busy && r->rid) {
    struct hreq *q = hq_head(r);
    if (!q) { /* the queue is done: the home's own threads may go now */
      serve_waiters(r);
      return;
    }
    uint32_t b = q->from;
    if (b != me() && (r->writer || (q->kind == K_WRITE && r->readers))) return; /* at the last end here */
    if (q->cm) { /* the home decides (seed 003 3.3): the data, or the computation here */
      int compute;
      switch (q->cm == Q_ONWARD ? TOS_CM_POLICY_RPC : r->policy) { /* (onward: it is already migrating) */
        case TOS_CM_POLICY_RPC: compute = 1; break;
        case TOS_CM_POLICY_STATIC: compute = q->kind == K_WRITE; break;
        case TOS_CM_POLICY_REPEAT:
          if (q->kind == K_WRITE || !r->reads_data) compute = 1;
          else compute = 0;
          if (q->kind == K_READ && !r->reads_data) {
            if (r->read_once & BIT(b)) {
              r->reads_data = 1; /* a board read twice with no write between: data from now on */
              compute = 0;
            } else {
              r->read_once |= BIT(b);
            }
          }
          break;
        default: compute = 0; break;
      }
      struct job *j = NULL;
      int served = serving[r->p->pid] && serving_serial[r->p->pid] == r->p->serial;
      if (compute && served)
        for (uint32_t i = 0; i < NJOBS && !j; ++i)
          if (!jobs[i].state) j = &jobs[i];
      if (!j && q->cm == Q_ONWARD) { /* no data to send instead: it waits for a job, or is lost */
        if (served) {
          onward_starved = 1; /* (job_free: the loop comes back) */
          return;
        }
        uint32_t o[3] = {q->crid, q->tid, TOS_ENOENT};
        ++onward_lost;
        q->used = 0;
        post(q->caller, NET_RGN_NACK, o, 3);
        continue;
      }
      if (j) { /* no server, or none free: the data goes after all (the home's choice) */
        if (q->kind == K_WRITE) {
          r->read_once = 0;
          r->reads_data = 0;
        }
        ++r->n_compute;
        REV(EV_RGN_CM_COMPUTE, r);
        j->state = 1;
        j->r = (uint8_t)(r - rg);
        j->rid = r->rid;
        j->from = q->caller;
        j->mode = q->kind;
        j->tid = q->tid;
        j->crid = q->crid;
        j->onward = 0;
        j->fn = q->fn;
        j->arg = q->arg;
        j->id = job_ids++;
        j->p = r->p;
        j->serial = r->p->serial;
        q->used = 0;
        if (oam_on(r->p)) { /* it runs at the loop's next step, wherever this was called from */
          oam_queue(j);
          kernel_work = 1;
          continue;
        }
        region_jobs_serve();
        continue;
      }
      ++r->n_data;
      REV(EV_RGN_CM_DATA, r);
    }
    REV(EV_RGN_HOME_REQ, r);
    r->busy = 1;
    r->acks = 0;
    r->recall_from = NONE;
    if (r->excl != NONE && r->excl != b) { /* the only copy is elsewhere: it comes home first */
      r->recall_from = r->excl;
      uint32_t o[2] = {r->rid, q->kind == K_READ};
      REV(EV_RGN_INVAL, r);
      post(r->excl, NET_RGN_RECALL, o, 2);
    }
    if (q->kind == K_WRITE) {
      bset_t targets = r->sharers & ~BIT(b);
      for (uint32_t x = 0; x < nboards; ++x)
        if (targets & BIT(x)) {
          r->acks |= BIT(x);
          uint32_t o[1] = {r->rid};
          REV(EV_RGN_INVAL, r);
          post(x, NET_RGN_INVAL, o, 1);
        }
      r->sharers &= ~targets;
    }
    if (r->recall_from == NONE && !r->acks) home_complete(r, q);
    else return;
  }
}

static void home_request(struct region *r, uint32_t from, uint32_t kind, uint32_t cm, uint32_t tid, uint32_t fn,
                         uint32_t arg, uint32_t caller, uint32_t crid) {
  struct hreq *q = NULL;
  for (uint32_t i = 0; i < HQ && !q; ++i)
    if (!hq[i].used) {
      q = &hq[i];
      if (i >= hq_max) hq_max = i + 1;
    }
  if (!q && from == me()) { /* full: the thread here asks again at the next step of the region */
    r->want = 0;
    return;
  }
  if (!q && cm == Q_ONWARD) { /* its first steps are done: asking again would repeat them */
    uint32_t o[3] = {crid, tid, TOS_EBUSY};
    ++onward_lost;
    post(caller, NET_RGN_NACK, o, 3);
    return;
  }
  if (!q) { /* full: the requester asks again (NACK with EAGAIN) */
    uint32_t o[3] = {r->rid, cm ? tid : NO_TID, TOS_EAGAIN};
    post(from, NET_RGN_NACK, o, 3);
    return;
  }
  q->used = 1;
  q->r = (uint8_t)(r - rg);
  q->from = (uint8_t)from;
  q->kind = (uint8_t)kind;
  q->cm = (uint8_t)cm;
  q->tid = (uint16_t)tid;
  q->fn = fn;
  q->arg = arg;
  q->caller = (uint8_t)caller;
  q->crid = crid;
  q->seq = ++hq_seq;
  home_run(r);
}

/* An access here ended, or the served request's answers are in: go on. */
static void progress(struct region *r) {
  if (r->held) do_held(r);
  if (r->home) home_run(r);
  serve_waiters(r);
}

/* ---- a board's copy: the home's steps arrive ---- */
/* Do an invalidation or recall held back for the accesses here, if they are over. */
static void do_held(struct region *r) {
  uint32_t h = r->held;
  if (!h) return;
  if (h == 1 ? r->readers != 0 : (r->writer || (h == 3 && r->readers))) return;
  r->held = 0;
  if (h == 1) {
    r->state = S_INVALID;
    uint32_t o[1] = {r->rid};
    post(home_of(r), NET_RGN_INVAL_ACK, o, 1);
  } else if (r->state != S_EXCL) { /* flushed meanwhile: the data went home with the flush */
    uint32_t o[4] = {r->rid, 0, 0, 1};
    post(home_of(r), NET_RGN_RECALL_ACK, o, 4);
  } else {
    r->state = h == 2 ? S_SHARED : S_INVALID;
    uint32_t o[4] = {r->rid, 1, 0, 0};
    post_data(home_of(r), NET_RGN_RECALL_ACK, o, 4, r);
  }
}

static struct region *client_rec(uint32_t from, uint32_t type, uint32_t rid) {
  struct region *r = by_rid(rid);
  if (!r) {
    ++region_stale; /* the process's part here ended, or the region was deleted, meanwhile */
    return NULL;
  }
  if (r->home || from != home_of(r)) return net_bad(from, type, "a region step not from the region's home, rid", rid), NULL;
  return r;
}

static void on_data(uint32_t from, const uint32_t *o) {
  struct region *r = client_rec(from, NET_RGN_DATA, o[0]);
  if (!r) return;
  uint32_t st = o[1], tid = o[2];
  struct waiter *cw = NULL;
  if (tid != NO_TID) {
    for (uint32_t i = 0; i < NWAIT && !cw; ++i)
      if (wt[i].what == W_CM && wt[i].tid == tid && &rg[wt[i].r] == r) cw = &wt[i];
    if (!cw) return (void)net_bad(from, NET_RGN_DATA, "data for a migration no thread here asked, TID", tid);
  } else if (!r->want) {
    return (void)net_bad(from, NET_RGN_DATA, "region data this board did not ask for, rid", o[0]);
  }
  if (st != S_SHARED && st != S_EXCL) return (void)net_bad(from, NET_RGN_DATA, "region state", st);
  if (net_data_len()) {
    if (r->readers || r->writer) return (void)net_bad(from, NET_RGN_DATA, "region data over a copy in use, rid", o[0]);
    if (!take_piece(from, NET_RGN_DATA, r, o[3])) return;
  } else if (r->state == S_INVALID) {
    return (void)net_bad(from, NET_RGN_DATA, "a grant without data to a board with no copy, rid", o[0]);
  }
  if (!o[4]) return; /* more pieces to come */
  r->state = (uint8_t)st;
  REV(EV_RGN_GRANTED, r);
  if (cw) { /* the home chose data migration: the caller's access starts first */
    if (!wait_live(cw)) {
      cw->what = W_NONE;
    } else {
      cw->what = W_ACCESS;
      cw->cm = 1;
      cw->seq = 0;
    }
  } else {
    r->want = 0;
  }
  serve_waiters(r);
}

static void on_inval(uint32_t from, const uint32_t *o) {
  struct region *r = client_rec(from, NET_RGN_INVAL, o[0]);
  if (!r) {
    uint32_t a[1] = {o[0]}; /* the home waits for the answer whatever has happened here */
    if (!by_rid(o[0])) post(from, NET_RGN_INVAL_ACK, a, 1);
    return;
  }
  r->held = 1;
  progress(r);
}

static void on_recall(uint32_t from, const uint32_t *o) {
  struct region *r = client_rec(from, NET_RGN_RECALL, o[0]);
  if (!r) {
    uint32_t a[4] = {o[0], 0, 0, 1};
    if (!by_rid(o[0])) post(from, NET_RGN_RECALL_ACK, a, 4);
    return;
  }
  if (o[1] > 1) return (void)net_bad(from, NET_RGN_RECALL, "recall kind", o[1]);
  r->held = o[1] ? 2 : 3;
  progress(r);
}

/* ---- the home: answers and requests arrive ---- */
/* A request must come from a board with a thread of the process; an answer is checked against
 * what was asked (need_part 0). */
static struct region *home_rec(uint32_t from, uint32_t type, uint32_t rid, int need_part) {
  struct region *r = by_rid(rid);
  if (!r || !r->home) {
    if (rid >> 24 == me() && !r) ++region_stale; /* deleted, or the process ended */
    else net_bad(from, type, "a region not homed here, rid", rid);
    return NULL;
  }
  if (need_part && !may_ask(r, from)) return net_bad(from, type, "a region of a process with no thread on the sender, rid", rid), NULL;
  return r;
}

static int user_code(uint32_t fn) { return !(fn & 1) && fn >= TOS_USER_BASE && fn < TOS_USER_IMAGE_TOP; }
/* Is `tid` a thread of r's process on board b? The process's home knows where its threads are; a
 * guest part can check only that the TID is the process's. */
static int thread_on(const struct region *r, uint32_t tid, uint32_t b) {
  const struct proc *p = r->p;
  if (tid >= NO_TID || !tid_of(tid, p->home_board, p->home_pid)) return 0;
  if (p->guest) return 1;
  uint32_t slot = tid & (TOS_MAX_THREADS - 1);
  if (p->remote_mask[slot / 32] >> (slot % 32) & 1) return p->where[slot] == b;
  return b == me() && p->slots[slot] && p->slots[slot]->tid == tid;
}

static void on_req(uint32_t from, const uint32_t *o) {
  struct region *r = home_rec(from, NET_RGN_REQ, o[0], 1);
  if (!r) {
    if (!by_rid(o[0]) && o[0] >> 24 == me()) {
      uint32_t a[3] = {o[0], NO_TID, TOS_ENOENT};
      post(from, NET_RGN_NACK, a, 3);
    }
    return;
  }
  if (o[1] != K_READ && o[1] != K_WRITE) return (void)net_bad(from, NET_RGN_REQ, "region request kind", o[1]);
  for (uint32_t i = 0; i < hq_max; ++i) /* one request per board, region and kind at a time */
    if (hq[i].used && &rg[hq[i].r] == r && hq[i].from == from && !hq[i].cm && hq[i].kind == o[1])
      return (void)net_bad(from, NET_RGN_REQ, "a second region request while one waits, rid", o[0]);
  home_request(r, from, o[1], Q_ACCESS, NO_TID, 0, 0, from, 0);
}

static void on_cm(uint32_t from, const uint32_t *o) {
  struct region *r = home_rec(from, NET_RGN_CM, o[0], 1);
  if (!r) {
    if (!by_rid(o[0]) && o[0] >> 24 == me() && o[4] <= 0xFFFF) {
      uint32_t a[3] = {o[0], o[4], TOS_ENOENT};
      post(from, NET_RGN_NACK, a, 3);
    }
    return;
  }
  if (o[1] != K_READ && o[1] != K_WRITE) return (void)net_bad(from, NET_RGN_CM, "migration mode", o[1]);
  if (!user_code(o[2])) return (void)net_bad(from, NET_RGN_CM, "migrated computation's address", o[2]);
  if (!thread_on(r, o[4], from))
    return (void)net_bad(from, NET_RGN_CM, "caller TID not of a thread of the process on the sender", o[4]);
  home_request(r, from, o[1], Q_CM, o[4], o[2], o[3], from, o[0]);
}

/* RGN_CM_FWD {rid, mode, fn, arg, caller board << 16 | TID, caller's rid}: a computation of the
 * process goes on here from the home of another of its regions (rgn_onward). The sender must be
 * a board that may ask about the region (it mapped it); the caller, a thread of the process on
 * the board named (as far as this board knows: only the process's home knows where). */
static void on_fwd(uint32_t from, const uint32_t *o) {
  uint32_t caller = WHO_BOARD(o[4]), tid = WHO_TID(o[4]);
  if (caller >= nboards || !o[5] || o[5] >> 24 >= nboards)
    return (void)net_bad(from, NET_RGN_CM_FWD, "an onward step's caller (board << 16 | TID)", o[4]);
  struct region *r = home_rec(from, NET_RGN_CM_FWD, o[0], 1);
  if (!r) {
    if (!by_rid(o[0]) && o[0] >> 24 == me() && tid < NO_TID) { /* deleted meanwhile: the caller learns */
      uint32_t a[3] = {o[5], tid, TOS_ENOENT};
      ++onward_lost;
      post(caller, NET_RGN_NACK, a, 3);
    }
    return;
  }
  if (o[1] != K_READ && o[1] != K_WRITE) return (void)net_bad(from, NET_RGN_CM_FWD, "migration mode", o[1]);
  if (!user_code(o[2])) return (void)net_bad(from, NET_RGN_CM_FWD, "migrated computation's address", o[2]);
  if (!thread_on(r, tid, caller))
    return (void)net_bad(from, NET_RGN_CM_FWD, "caller TID not of a thread of the process on its board", o[4]);
  home_request(r, from, o[1], Q_ONWARD, tid, o[2], o[3], caller, o[5]);
}

static void on_inval_ack(uint32_t from, const uint32_t *o) {
  struct region *r = home_rec(from, NET_RGN_INVAL_ACK, o[0], 0);
  if (!r) return;
  if (!r->busy || !(r->acks & BIT(from)))
    return (void)net_bad(from, NET_RGN_INVAL_ACK, "an invalidation's answer not asked for, rid", o[0]);
  r->acks &= ~BIT(from);
  REV(EV_RGN_ACK, r);
  if (!r->acks && r->recall_from == NONE) home_complete(r, hq_head(r));
  home_run(r);
}

static void on_recall_ack(uint32_t from, const uint32_t *o) {
  struct region *r = home_rec(from, NET_RGN_RECALL_ACK, o[0], 0);
  if (!r) return;
  if (!r->busy || r->recall_from != from)
    return (void)net_bad(from, NET_RGN_RECALL_ACK, "a recall's answer not asked for, rid", o[0]);
  if (o[1] > 1) return (void)net_bad(from, NET_RGN_RECALL_ACK, "had data", o[1]);
  if (o[1]) {
    if (r->excl != from) return (void)net_bad(from, NET_RGN_RECALL_ACK, "data from a board without the copy", from);
    if (!take_piece(from, NET_RGN_RECALL_ACK, r, o[2])) return;
  }
  if (!o[3]) return;
  REV(EV_RGN_ACK, r);
  struct hreq *q = hq_head(r);
  if (r->excl == from) {
    r->excl = NONE;
    if (q && q->kind == K_READ) r->sharers |= BIT(from); /* it kept a read copy */
  }
  r->recall_from = NONE;
  if (!r->acks) home_complete(r, q);
  home_run(r);
}

static void on_flush(uint32_t from, const uint32_t *o) {
  struct region *r = home_rec(from, NET_RGN_FLUSH, o[0], 0);
  if (!r) return;
  if (o[1] > 1) return (void)net_bad(from, NET_RGN_FLUSH, "exclusive", o[1]);
  if (o[1]) {
    if (r->excl != from) return (void)net_bad(from, NET_RGN_FLUSH, "a write-back from a board without the copy", from);
    if (!take_piece(from, NET_RGN_FLUSH, r, o[2])) return;
    if (!o[3]) return;
    r->excl = NONE; /* a recall on its way to it will be answered without data */
  } else if (r->sharers & BIT(from)) {
    r->sharers &= ~BIT(from);
  } else {
    ++region_stale; /* an invalidation crossed it: already gone from the directory */
  }
  if (!r->busy) home_state(r);
  home_run(r);
  serve_waiters(r);
}

/* MAP {rid, asker, the process's home board, pid, serial}: see the head of the file. A process
 * is named by all three: pid and serial alone repeat from board to board (every board's first
 * program is pid 0, serial 1). A rid that is not the asking process's own -- another process's,
 * or one deleted -- is a program's mistake, not a forgery: the asker is told ENOENT. */
static void on_map(uint32_t from, const uint32_t *o) {
  uint32_t rid = o[0], b = o[1], home = rid >> 24;
  if (b >= nboards) return (void)net_bad(from, NET_RGN_MAP, "region map for board", b);
  if (home != me()) { /* a relay: the process's home vouches for the asker */
    struct proc *p = o[2] == me() ? proc_by_gpid(me(), o[3], o[4]) : NULL;
    if (!p || p->guest) return (void)net_bad(from, NET_RGN_MAP, "a region map for a process not homed here, pid", o[3]);
    if (b != from || !has_part(p, from))
      return (void)net_bad(from, NET_RGN_MAP, "a region map relayed for a board with no thread of the process", b);
    if (home >= nboards) return (void)net_bad(from, NET_RGN_MAP, "a region homed on no board, rid", rid);
    post(home, NET_RGN_MAP, o, 5);
    return;
  }
  /* the asker speaks for its own process (b == from) or the process's home relays for it */
  if (b != from && from != o[2]) return (void)net_bad(from, NET_RGN_MAP, "a region map for another board, asker", b);
  struct region *r = by_rid(rid);
  if (r && (!r->home || r->p->home_board != o[2] || r->p->home_pid != o[3] || r->p->home_serial != o[4])) r = NULL;
  if (r) {
    int ok = r->p->guest ? from == r->p->home_board /* the process's home asks or vouches */
                         : b == from && has_part(r->p, from);
    if (!ok) return (void)net_bad(from, NET_RGN_MAP, "a region of a process with no thread on the asker, rid", rid);
    r->mappers |= BIT(b);
  } else {
    ++region_stale; /* deleted, the process ended, or not the asker's: the asker learns */
  }
  uint32_t a[2] = {rid, r ? r->size : (uint32_t)-TOS_ENOENT};
  post(b, NET_RGN_MAPPED, a, 2);
}

static void release(struct region *r);
static int window_map(struct region *r);

static void on_mapped(uint32_t from, const uint32_t *o) {
  struct region *r = NULL;
  for (uint32_t i = 0; i < TOS_MAX_REGIONS && !r; ++i)
    if (rg[i].rid == o[0] && !rg[i].home && !rg[i].size && alive(&rg[i])) r = &rg[i];
  if (!r) {
    ++region_stale;
    return;
  }
  if (from != home_of(r)) return (void)net_bad(from, NET_RGN_MAPPED, "a region's size not from its home, rid", o[0]);
  int32_t size = (int32_t)o[1];
  int32_t result = size;
  if (size > 0 && size <= TOS_MAX_REGION_BYTES) {
    r->size = (uint16_t)size;
    result = window_map(r);
  } else if (size != -TOS_ENOENT) {
    net_bad(from, NET_RGN_MAPPED, "region size", o[1]);
    result = -TOS_EINVAL;
  }
  for (uint32_t i = 0; i < wt_max; ++i)
    if (wt[i].what == W_MAP && &rg[wt[i].r] == r) wake(&wt[i], result);
  if (result < 0) release(r);
}

/* A migration's answer for a caller's region here: from the region's home, or -- the
 * computation went onward (rgn_onward) -- from the home of another region of the process mapped
 * here, where it may have ended. */
static struct region *answer_rec(uint32_t from, uint32_t type, uint32_t rid) {
  struct region *r = by_rid(rid);
  if (!r) {
    ++region_stale;
    return NULL;
  }
  if (!r->home && from == home_of(r)) return r;
  for (uint32_t k = 0; k < rg_max && !r->home; ++k)
    if (rg[k].rid && rg[k].size && rg[k].p == r->p && rg[k].serial == r->serial && home_of(&rg[k]) == from &&
        alive(&rg[k]))
      return r;
  net_bad(from, type, "a migration's answer not from the home of a region of the process mapped here, rid", rid);
  return NULL;
}

static void on_nack(uint32_t from, const uint32_t *o) {
  struct region *r = o[1] == NO_TID ? client_rec(from, NET_RGN_NACK, o[0]) : answer_rec(from, NET_RGN_NACK, o[0]);
  if (!r) return;
  if (o[2] != TOS_EAGAIN && o[2] != TOS_ENOENT && o[2] != TOS_EBUSY) return (void)net_bad(from, NET_RGN_NACK, "error", o[2]);
  if (o[2] == TOS_EAGAIN && from != home_of(r)) /* (an onward step is never asked again: its first steps are done) */
    return (void)net_bad(from, NET_RGN_NACK, "a refusal to ask again not from the region's home, rid", o[0]);
  if (o[2] == TOS_EBUSY && o[1] == NO_TID) return (void)net_bad(from, NET_RGN_NACK, "error", o[2]);
  if (o[1] == NO_TID) {
    if (!r->want) return (void)net_bad(from, NET_RGN_NACK, "a refusal of no request, rid", o[0]);
    r->want = 0;
    if (o[2] == TOS_EAGAIN) { /* the home's queue was full: again */
      serve_waiters(r);
      return;
    }
    for (uint32_t i = 0; i < wt_max; ++i)
      if (wt[i].what == W_ACCESS && &rg[wt[i].r] == r) wake(&wt[i], -TOS_ENOENT);
    return;
  }
  for (uint32_t i = 0; i < wt_max; ++i)
    if (wt[i].what == W_CM && wt[i].tid == o[1] && &rg[wt[i].r] == r) {
      if (o[2] == TOS_EAGAIN) {
        uint32_t a[5] = {r->rid, wt[i].kind, wt[i].t->ctx.regs[3], wt[i].t->ctx.regs[8], wt[i].tid}; /* fn, arg */
        post(from, NET_RGN_CM, a, 5);
      } else {
        wake(&wt[i], -(int32_t)o[2]); /* ENOENT, or EBUSY: lost on its way onward */
      }
      return;
    }
  net_bad(from, NET_RGN_NACK, "a refusal of a migration no thread here asked, TID", o[1]);
}

static void on_cm_done(uint32_t from, const uint32_t *o) {
  struct region *r = answer_rec(from, NET_RGN_CM_DONE, o[0]);
  if (!r) return;
  for (uint32_t i = 0; i < wt_max; ++i)
    if (wt[i].what == W_CM && wt[i].tid == o[1] && &rg[wt[i].r] == r) {
      struct waiter *w = &wt[i];
      if (wait_live(w) && !vm_copyout(w->t->proc, w->buf, &o[2], 4)) {
        wake(w, -TOS_EFAULT);
        return;
      }
      wake(w, TOS_CM_DONE);
      return;
    }
  net_bad(from, NET_RGN_CM_DONE, "a result no thread here waits for, TID", o[1]);
}

/* The CM-5's set-up (seed 003 4.2.1, 7.3.1): a message longer than an active message's four
 * words needs a round trip before it, answered by the receiver at once, during which the sender
 * spins. The home answers whatever the region: the request that follows is checked on arrival
 * (on_cm), and the answer goes only to the asker. */
static void on_setup(uint32_t from, const uint32_t *o) {
  if (o[1] >= NO_TID && (o[1] < ONWARD_KEY || o[1] >= ONWARD_KEY + NONWARD))
    return (void)net_bad(from, NET_RGN_SETUP, "caller TID", o[1]);
  uint32_t a[2] = {o[0], o[1]};
  post(from, NET_RGN_SETUP_ACK, a, 2);
}
static void on_setup_ack(uint32_t from, const uint32_t *o) {
  if (o[1] >= ONWARD_KEY) { /* an onward step's: it goes whatever has happened here meanwhile */
    uint32_t n = o[1] - ONWARD_KEY;
    if (n >= NONWARD || !onq[n].used || onq[n].o[0] != o[0] || from != o[0] >> 24)
      return (void)net_bad(from, NET_RGN_SETUP_ACK, "a set-up answer no onward step here waits for", o[1]);
    onq[n].used = 0;
    --setups_out;
    ++setups_done;
    setup_us += uptime_us() - onq[n].since;
    post(from, NET_RGN_CM_FWD, onq[n].o, 6);
    return;
  }
  struct region *r = client_rec(from, NET_RGN_SETUP_ACK, o[0]);
  if (!r) return;
  for (uint32_t i = 0; i < wt_max; ++i) {
    struct waiter *w = &wt[i];
    if (w->what != W_CM || !w->setup || w->tid != o[1] || &rg[w->r] != r || !wait_live(w)) continue;
    w->setup = 0;
    --setups_out;
    ++setups_done;
    setup_us += uptime_us() - w->since;
    uint32_t m[5] = {r->rid, w->kind, w->fn, w->arg, w->tid};
    post(from, NET_RGN_CM, m, 5);
    return;
  }
  net_bad(from, NET_RGN_SETUP_ACK, "a set-up answer no thread here waits for, TID", o[1]);
}

static void on_drop(uint32_t from, const uint32_t *o) {
  struct region *r = client_rec(from, NET_RGN_DROP, o[0]);
  if (r) release(r);
}

static void handle(uint32_t from, uint32_t type, const uint32_t *o, uint32_t nops) {
  (void)nops;
  EVENT2(DGL_REGIONS, EV_RGN_RX, type);
  switch (type) {
    case NET_RGN_MAP: on_map(from, o); break;
    case NET_RGN_MAPPED: on_mapped(from, o); break;
    case NET_RGN_REQ: on_req(from, o); break;
    case NET_RGN_DATA: on_data(from, o); break;
    case NET_RGN_INVAL: on_inval(from, o); break;
    case NET_RGN_INVAL_ACK: on_inval_ack(from, o); break;
    case NET_RGN_RECALL: on_recall(from, o); break;
    case NET_RGN_RECALL_ACK: on_recall_ack(from, o); break;
    case NET_RGN_FLUSH: on_flush(from, o); break;
    case NET_RGN_NACK: on_nack(from, o); break;
    case NET_RGN_CM: on_cm(from, o); break;
    case NET_RGN_CM_DONE: on_cm_done(from, o); break;
    case NET_RGN_DROP: on_drop(from, o); break;
    case NET_RGN_SETUP: on_setup(from, o); break;
    case NET_RGN_SETUP_ACK: on_setup_ack(from, o); break;
    case NET_RGN_CM_FWD: on_fwd(from, o); break;
    default: break;
  }
}
#define H(type) static void h_##type(uint32_t from, const uint32_t *o, uint32_t nops) { handle(from, type, o, nops); }
H(NET_RGN_MAP) H(NET_RGN_MAPPED) H(NET_RGN_REQ) H(NET_RGN_DATA) H(NET_RGN_INVAL) H(NET_RGN_INVAL_ACK) H(NET_RGN_RECALL)
H(NET_RGN_RECALL_ACK) H(NET_RGN_FLUSH) H(NET_RGN_NACK) H(NET_RGN_CM) H(NET_RGN_CM_DONE) H(NET_RGN_DROP)
H(NET_RGN_SETUP) H(NET_RGN_SETUP_ACK) H(NET_RGN_CM_FWD)

void region_init(void) {
  net_register(NET_RGN_MAP, h_NET_RGN_MAP, 5);
  net_register(NET_RGN_MAPPED, h_NET_RGN_MAPPED, 2);
  net_register(NET_RGN_REQ, h_NET_RGN_REQ, 2);
  net_register(NET_RGN_DATA, h_NET_RGN_DATA, 5);
  net_register(NET_RGN_INVAL, h_NET_RGN_INVAL, 1);
  net_register(NET_RGN_INVAL_ACK, h_NET_RGN_INVAL_ACK, 1);
  net_register(NET_RGN_RECALL, h_NET_RGN_RECALL, 2);
  net_register(NET_RGN_RECALL_ACK, h_NET_RGN_RECALL_ACK, 4);
  net_register(NET_RGN_FLUSH, h_NET_RGN_FLUSH, 4);
  net_register(NET_RGN_NACK, h_NET_RGN_NACK, 3);
  net_register(NET_RGN_CM, h_NET_RGN_CM, 5);
  net_register(NET_RGN_CM_DONE, h_NET_RGN_CM_DONE, 3);
  net_register(NET_RGN_DROP, h_NET_RGN_DROP, 1);
  net_register(NET_RGN_SETUP, h_NET_RGN_SETUP, 2);
  net_register(NET_RGN_SETUP_ACK, h_NET_RGN_SETUP_ACK, 2);
  net_register(NET_RGN_CM_FWD, h_NET_RGN_CM_FWD, 6);
}

/* ---- records, frames and the window ---- */
static uint8_t win_rec[TOS_MAX_PROCESSES][WIN_HI - WIN_LO]; /* record index + 1 at a region's first page */
static int window_map(struct region *r) {
  struct proc *p = r->p;
  uint32_t n = NPAGES(r->size);
  for (uint32_t i = 0; i < n; ++i)
    if (!r->frame[i] && !(r->frame[i] = frame_alloc())) return -TOS_ENOMEM;
  for (uint32_t v = WIN_LO; v + n <= WIN_HI; ++v) {
    uint32_t k = 0;
    while (k < n && !p->ptable[v + k]) ++k;
    if (k < n) {
      v += k;
      continue;
    }
    for (k = 0; k < n; ++k) vm_map(p, v + k, r->frame[k], 1);
    r->vpage = v;
    r->maps = 1;
    win_rec[p->pid][v - WIN_LO] = (uint8_t)(r - rg + 1);
    return (int)(v << TOS_PAGE_SHIFT);
  }
  return -TOS_ENOSPC;
}

static void release(struct region *r) {
  for (uint32_t i = 0; i < wt_max; ++i)
    if (wt[i].what != W_NONE && wt[i].what != W_SERVE && &rg[wt[i].r] == r) wake(&wt[i], -TOS_ENOENT);
  for (uint32_t i = 0; i < hq_max; ++i)
    if (hq[i].used && &rg[hq[i].r] == r) hq[i].used = 0;
  for (uint32_t i = 0; i < NJOBS; ++i)
    if (jobs[i].state && jobs[i].rid == r->rid) job_free(&jobs[i]);
  uint32_t n = NPAGES(r->size);
  for (uint32_t i = 0; i < RGN_PAGES; ++i) {
    if (!r->frame[i]) continue;
    if (r->vpage && i < n && proc_alive(r->p) && r->p->serial == r->serial) vm_unmap(r->p, r->vpage + i);
    frame_free(r->frame[i]); /* (held by mem.c while a queued message still sends from it) */
  }
  if (r->vpage && r->p && win_rec[r->p->pid][r->vpage - WIN_LO] == r - rg + 1) win_rec[r->p->pid][r->vpage - WIN_LO] = 0;
  memset(r, 0, sizeof *r);
}

uint32_t region_over_quota;
/* A record for p's region rid, or NULL: none free, or p holds its quota (regions_per_process,
 * counted: the end-of-run line) so that one process cannot take every record of the board. */
static struct region *new_rec(struct proc *p, uint32_t rid) {
  uint32_t held = 0;
  for (uint32_t i = 0; i < rg_max; ++i)
    if (rg[i].rid && rg[i].p == p && alive(&rg[i])) ++held;
  if (held >= TOS_MAX_REGIONS_PER_PROCESS) {
    ++region_over_quota;
    return NULL;
  }
  uint32_t hint = (rid & 0xFF) % TOS_MAX_REGIONS;
  for (uint32_t n = 0; n < TOS_MAX_REGIONS; ++n) {
    uint32_t i = (hint + n) % TOS_MAX_REGIONS;
    if (!rg[i].rid || !alive(&rg[i])) {
      if (i >= rg_max) rg_max = i + 1;
      if (rg[i].rid) release(&rg[i]);
      memset(&rg[i], 0, sizeof rg[i]);
      rg[i].p = p;
      rg[i].serial = p->serial;
      rg[i].excl = NONE;
      rg[i].recall_from = NONE;
      return &rg[i];
    }
  }
  return NULL;
}

/* The caller's record for a region given by rid or by its address here. */
static struct region *lookup(struct proc *p, uint32_t a) {
  struct region *r = NULL;
  uint32_t v = a >> TOS_PAGE_SHIFT;
  if (!(a & (TOS_PAGE_SIZE - 1)) && v >= WIN_LO && v < WIN_HI && win_rec[p->pid][v - WIN_LO])
    r = &rg[win_rec[p->pid][v - WIN_LO] - 1];
  else
    r = by_rid(a);
  if (!r || r->p != p || r->serial != p->serial || !r->size) return NULL;
  if (a != r->rid && a != r->vpage << TOS_PAGE_SHIFT) return NULL;
  return r;
}

/* ---- optimistic active messages (seed 003 6.2.3, Table 6.4) ----
 * A process that asked for them (rgn_serve with oam_return) has a migrated computation run at
 * its region's home on arrival, from the main loop right after the receive phase: no thread is
 * created or woken. (Run between two messages of the receive phase instead, as an active
 * message's handler would be, it moved other runs' timing enough to change two tests' outcomes
 * -- seed001's routed-layer CPU check and a gdb `next` across a migration -- so it waits.)
 * It runs in user mode, in the process's address space, on the process's handler stack (a page at OAM_STACK_PAGE), as fn(region, arg) returning to oam_return, which
 * hands the result to the kernel. It may not block, so the kernel makes the region's access
 * for it without blocking (Table 6.4's rgn_start_*_nonblock) and, as Hsieh's abort code does,
 * aborts it to a thread, the process's server thread, when it would block or runs long:
 *  - before it begins, when the access is not grantable now, the handler stack is in use or no
 *    server thread of the process waits for work here (BUSY: it would have nowhere to go on an
 *    abort but to wait, holding the region, for a server that may itself wait for the region),
 *    or its code is not mapped here (PAGE): the server runs it from its start, as without
 *    optimistic active messages;
 *  - after it began, on a fault on a page that is away or read-only here (PAGE), a system call
 *    (CALL: a handler makes none; the call traps reach the loop through a copy of the vector
 *    table, never a call's handler) or past TOS_OAM_BUDGET_US (BUDGET): it continues where it
 *    stopped, at once, in the server thread that waited for work when it began (none ran
 *    meanwhile), which takes its context -- registers, the handler stack, the frame (a bus
 *    error's reruns its access; a call's trap is made again) -- and the region's access it
 *    holds; its return through oam_return ends the access, sends the result and gives the
 *    server its own context back (in the main loop, after the server's trap: entry.S stores a
 *    call's callee-saved registers into its TCB on its way out). Until then the handler stack
 *    is the continuation's.
 * Any other fault is the process's: it is removed, as for a fault of one of its threads. */
enum { AB_BUSY, AB_PAGE, AB_BUDGET, AB_CALL };
struct uctx { /* what entry.S enters a thread by */
  uint32_t regs[15], usp;
  uint16_t frame_len;
  uint8_t frame[FRAME_MAX + 2];
};
enum { C_NONE, C_RUNNING, C_DONE }; /* an aborted handler's continuation */
static struct {
  uint32_t ret, serial; /* oam_return, for the process of that serial; 0: off */
  uint8_t stack;        /* its handler stack is mapped */
  uint8_t cont;         /* C_*: a continuation has the handler stack */
  struct job job;       /* the continuation's (its record is free again) */
  struct uctx ctx;      /* the server's own context while it runs the continuation */
  struct tcb *server;   /* C_RUNNING, C_DONE: the server thread running it */
  uint16_t server_tid;
  uint32_t server_buf;  /* its rgn_serve job buffer */
} oam[TOS_MAX_PROCESSES];
uint8_t region_loop_work;
/* The jobs to run as handlers, in arrival order (their ids rise): a ring of (job, id), so that
 * a run takes the next without a scan of the jobs (two scans were a fifth of a handler's start,
 * seed003.md's phase table). An entry whose job has since gone (its process ended) no longer
 * matches its id and is passed over. Should the ring fill, the jobs are scanned by id instead
 * until none waits. */
static struct {
  struct job *j;
  uint32_t id;
} oam_q[NJOBS];
static uint32_t oam_qh, oam_qn;
static uint8_t oam_q_full, oam_backs; /* oam_backs: a continuation is C_DONE somewhere */
static void oam_queue(struct job *j) {
  j->state = J_OAM;
  region_loop_work = 1;
  if (oam_qn == NJOBS) {
    oam_q_full = 1;
    return;
  }
  oam_q[(oam_qh + oam_qn++) % NJOBS].j = j;
  oam_q[(oam_qh + oam_qn - 1) % NJOBS].id = j->id;
}
static struct job *oam_next(void) {
  if (oam_q_full) { /* (the ring's entries are among these: run here, they are passed over later) */
    struct job *j = NULL;
    for (uint32_t i = 0; i < NJOBS; ++i)
      if (jobs[i].state == J_OAM && (!j || jobs[i].id < j->id)) j = &jobs[i];
    if (j) return j;
    oam_q_full = 0;
    oam_qn = 0;
    return NULL;
  }
  while (oam_qn) {
    struct job *j = oam_q[oam_qh].j;
    uint32_t id = oam_q[oam_qh].id;
    oam_qh = (oam_qh + 1) % NJOBS;
    --oam_qn;
    if (j->state == J_OAM && j->id == id) return j;
  }
  return NULL;
}
static uint32_t oam_completed, oam_aborted[4], oam_faulted;
static struct tcb oam_ctx;                      /* the handler's context: no thread's */
static uint32_t oam_vectors[256];               /* the kernel's, with the call traps to `exception` */

static int oam_on(const struct proc *p) {
  return oam[p->pid].ret && oam[p->pid].serial == p->serial;
}
static void oam_off(struct proc *p) {
  oam[p->pid].ret = 0;
  if (!oam[p->pid].stack || oam[p->pid].cont) return; /* (a continuation's: freed at its end) */
  oam[p->pid].stack = 0;
  uint32_t pa = vm_unmap(p, OAM_STACK_PAGE);
  if (pa) frame_free(pa);
}
/* Mapped here for the user: its code runs without a fetch. */
static int oam_page_here(struct proc *p, uint32_t va) {
  return vm_mapped(p, va, 0) && (p->ptable[va >> TOS_PAGE_SHIFT] & TB_MMU_PTE_USER);
}

/* The process's part here ends (proc.c, before its memory goes): an exclusive copy goes home,
 * a read copy is given up, the home's regions are deleted (the other boards' parts are being
 * killed), jobs and servers forgotten. */
void region_process_gone(struct proc *p) {
  for (uint32_t i = 0; i < rg_max; ++i) { /* (no cost on a board that never had a region) */
    struct region *r = &rg[i];
    if (!r->rid || r->p != p || r->serial != p->serial) continue;
    if (r->home) {
      for (uint32_t x = 0; x < nboards; ++x)
        if ((r->sharers & BIT(x)) || r->excl == x || (r->mappers & BIT(x))) {
          uint32_t o[1] = {r->rid};
          post(x, NET_RGN_DROP, o, 1);
        }
    } else if (r->size && r->state == S_EXCL) {
      uint32_t o[4] = {r->rid, 1, 0, 0};
      post_data(home_of(r), NET_RGN_FLUSH, o, 4, r);
      net_send_phase(); /* the data leaves now: its frames are free when the process's end is reported */
    } else if (r->size && r->state == S_SHARED) {
      uint32_t o[4] = {r->rid, 0, 0, 1};
      post(home_of(r), NET_RGN_FLUSH, o, 4);
    }
    release(r);
  }
  serving[p->pid] = 0;
  oam[p->pid].cont = C_NONE; /* (its server goes with the process) */
  oam_off(p);
}

/* Thread t ends (thread.c's thread_forget: exit, kill, fault): its entries in the wait table go
 * with it, whatever it waited for, so that the next thread in its TCB and TID (a process in the
 * same slot) is handed nothing of its, and the table never fills with the dead. */
static void oam_failed(const struct job *j);
void region_thread_gone(struct tcb *t) {
  for (uint32_t i = 0; i < wt_max; ++i)
    if (wt[i].what != W_NONE && wt[i].t == t) wt[i].what = W_NONE;
  for (uint32_t i = 0; i < NJOBS; ++i) /* a job its server never finished: its caller learns (ENOENT) */
    if (jobs[i].state == J_RUNNING && jobs[i].srv == t) {
      uint32_t o[3] = {jobs[i].crid, jobs[i].tid, TOS_ENOENT};
      job_free(&jobs[i]);
      if (!jobs[i].onward) post(jobs[i].from, NET_RGN_NACK, o, 3);
    }
  uint32_t pid = t->proc->pid;
  if (oam[pid].cont == C_RUNNING && oam[pid].server == t) oam_failed(&oam[pid].job); /* a continuation, the same */
  if (oam[pid].cont >= C_RUNNING && oam[pid].server == t) oam[pid].cont = C_NONE;
}

/* ---- computation servers ---- */
static void region_jobs_serve(void) {
  for (uint32_t i = 0; i < NJOBS; ++i) {
    struct job *j = &jobs[i];
    if (j->state != 1) continue;
    struct region *r = &rg[j->r];
    if (r->rid != j->rid || !alive(r)) {
      job_free(j);
      continue;
    }
    struct waiter *w = NULL;
    for (uint32_t k = 0; k < wt_max; ++k)
      if (wt[k].what == W_SERVE && wait_live(&wt[k]) && wt[k].t->proc == r->p && (!w || wt[k].seq < w->seq)) w = &wt[k];
    if (!w) return; /* the servers are busy: it waits for one */
    struct tos_rgn_job out = {j->id, r->vpage << TOS_PAGE_SHIFT, j->mode, j->fn, j->arg, j->from};
    if (!vm_copyout(r->p, w->buf, &out, sizeof out)) {
      wake(w, -TOS_EFAULT);
      continue;
    }
    j->state = J_RUNNING;
    j->srv = w->t;
    j->srv_tid = w->tid;
    wake(w, 1);
  }
}

SYSCALL(rgn_serve) {
  struct proc *p = t->proc; /* (on any board where regions of the process are homed) */
  if (a1 == 0) { /* serving is over: every server of the process returns 0 */
    serving[p->pid] = 0;
    oam_off(p);
    for (uint32_t k = 0; k < wt_max; ++k)
      if (wt[k].what == W_SERVE && wait_live(&wt[k]) && wt[k].t->proc == p) wake(&wt[k], 0);
    return 0;
  }
  USER_BUFFER(t, a1, sizeof(struct tos_rgn_job), 1);
  if (a2 && ((a2 & 1) || a2 < TOS_USER_BASE || a2 >= TOS_USER_IMAGE_TOP)) return -TOS_EINVAL;
  if (a2) {
    oam[p->pid].ret = a2;
    oam[p->pid].serial = p->serial;
  }
  serving[p->pid] = 1;
  serving_serial[p->pid] = p->serial;
  struct waiter *w = wait_add(t, W_SERVE, NULL, 0);
  if (!w) return -TOS_ENOTCB;
  w->buf = a1;
  region_jobs_serve();
  return 0;
}

static void oam_result(const struct job *j, uint32_t result, int handler);
static void cm_done(const struct job *j, uint32_t result) {
  struct region *r = by_rid(j->rid);
  if (r) REV(EV_RGN_CM_RESULT, r);
  if (j->onward) return; /* (its result comes from where it went) */
  uint32_t o[3] = {j->crid, j->tid, result};
  post(j->from, NET_RGN_CM_DONE, o, 3);
}
SYSCALL(rgn_serve_done) {
  if (a1 == 0) { /* a continuation returned through oam_return: it is over in the server */
    uint32_t pid = t->proc->pid;
    if (oam[pid].cont != C_RUNNING || oam[pid].server != t || oam[pid].server_tid != t->tid) return -TOS_EINVAL;
    oam_result(&oam[pid].job, a2, 0);
    oam[pid].cont = C_DONE; /* the loop gives the server its own context back */
    t->state = T_REGION;
    region_loop_work = 1;
    oam_backs = 1;
    kernel_work = 1;
    return 0;
  }
  for (uint32_t i = 0; i < NJOBS; ++i) {
    struct job *j = &jobs[i];
    if (j->state != J_RUNNING || j->id != a1 || j->p != t->proc || j->serial != t->proc->serial) continue;
    cm_done(j, a2);
    job_free(j);
    region_jobs_serve();
    return 0;
  }
  return -TOS_EINVAL;
}

/* A migrated computation that held the region's access is over (as a handler, or as a
 * continuation in a server): the access ends, the result goes to the caller. */
static struct region *oam_access_end(const struct job *j) {
  struct region *r = by_rid(j->rid);
  if (!r || !r->home) return NULL; /* deleted meanwhile: the caller has been told */
  if (j->mode == K_READ) --r->readers;
  else r->writer = 0;
  return r;
}
static void oam_result(const struct job *j, uint32_t result, int handler) {
  struct region *r = oam_access_end(j);
  if (!r) return;
  if (j->mode == K_WRITE) { /* REPEAT: the home's write counts, as rgn_end_write's */
    r->read_once = 0;
    r->reads_data = 0;
  }
  REV(EV_RGN_END, r);
  if (handler) {
    ++r->n_oam;
    ++oam_completed;
  }
  cm_done(j, result);
  progress(r);
}

/* A continuation whose server thread ended inside it (region_thread_gone): the access it held
 * ends and its caller is told ENOENT, as a server's job's is. */
static void oam_failed(const struct job *j) {
  struct region *r = oam_access_end(j);
  if (!r) return;
  REV(EV_RGN_END, r);
  if (!j->onward) {
    uint32_t o[3] = {j->crid, j->tid, TOS_ENOENT};
    post(j->from, NET_RGN_NACK, o, 3);
  }
  progress(r);
}

/* Aborted before it began: the server runs it from its start. */
static void oam_restart(struct job *j, struct region *r, uint32_t cause) {
  ++r->n_abort[cause];
  ++oam_aborted[cause];
  j->state = J_WAITING;
  region_jobs_serve();
}

static void ctx_out(struct uctx *c, const struct tcb *t) {
  memcpy(c->regs, t->ctx.regs, sizeof c->regs);
  c->usp = t->ctx.usp;
  c->frame_len = t->ctx.frame_len;
  memcpy(c->frame, t->ctx.frame, sizeof c->frame);
}
static void ctx_in(struct tcb *t, const struct uctx *c) {
  memcpy(t->ctx.regs, c->regs, sizeof c->regs);
  t->ctx.usp = c->usp;
  t->ctx.frame_len = c->frame_len;
  memcpy(t->ctx.frame, c->frame, sizeof c->frame);
}

/* A server thread of p waiting for work here (its TCB holds its whole context: it is blocked). */
static struct waiter *oam_server(const struct proc *p) {
  for (uint32_t k = 0; k < wt_max; ++k)
    if (wt[k].what == W_SERVE && wait_live(&wt[k]) && wt[k].t->proc == p) return &wt[k];
  return NULL;
}

/* Aborted after it began: it continues in server w, which becomes it; the server's own context
 * waits in oam[] for the continuation's end (rgn_serve_done(0), then oam_server_back). */
static void oam_continue(struct job *j, struct region *r, uint32_t cause, struct waiter *w) {
  uint32_t pid = r->p->pid;
  ++r->n_abort[cause];
  ++oam_aborted[cause];
  struct tcb *t = w->t;
  struct uctx c;
  ctx_out(&c, &oam_ctx);
  if (cause == AB_CALL) { /* the trap again, in the thread: its PC back over the TRAP word */
    uint32_t pc;
    memcpy(&pc, &c.frame[2], 4);
    pc -= 2;
    memcpy(&c.frame[2], &pc, 4);
  }
  ctx_out(&oam[pid].ctx, t);
  ctx_in(t, &c);
  oam[pid].cont = C_RUNNING;
  oam[pid].job = *j;
  oam[pid].server = t;
  oam[pid].server_tid = t->tid;
  oam[pid].server_buf = w->buf;
  w->what = W_NONE;
  job_free(j);
  ready_woken(t);
}

/* The continuation is over: the server is itself again, waiting for work (from the main loop:
 * not inside its trap). */
static void oam_server_back(uint32_t pid) {
  struct tcb *t = oam[pid].server;
  oam[pid].cont = C_NONE;
  if (t->tid != oam[pid].server_tid || t->state != T_REGION) return;
  ctx_in(t, &oam[pid].ctx);
  struct waiter *w = wait_add(t, W_SERVE, NULL, 0);
  if (w) w->buf = oam[pid].server_buf;
  if (!oam[pid].ret) oam_off(t->proc); /* serving ended meanwhile: its stack goes now */
  region_jobs_serve();
}

static void oam_run(struct job *j) {
  struct region *r = &rg[j->r];
  if (r->rid != j->rid || !alive(r)) {
    job_free(j);
    return;
  }
  struct proc *p = r->p;
  if (!oam_on(p)) { /* turned off meanwhile: the server's */
    j->state = J_WAITING;
    region_jobs_serve();
    return;
  }
  if (!oam[p->pid].stack) {
    uint32_t pa = p->ptable[OAM_STACK_PAGE] ? 0 : frame_alloc();
    if (!pa) {
      j->state = J_WAITING; /* no frame for it: the server runs it (not an abort: it never began) */
      region_jobs_serve();
      return;
    }
    vm_map(p, OAM_STACK_PAGE, pa, 1);
    oam[p->pid].stack = 1;
  }
  struct waiter *sw = oam[p->pid].cont ? NULL : oam_server(p);
  if (!sw || !grantable(r, j->mode) || oldest(r)) return oam_restart(j, r, AB_BUSY);
  if (!oam_page_here(p, j->fn) || !oam_page_here(p, oam[p->pid].ret)) return oam_restart(j, r, AB_PAGE);
  /* fn(region, arg) returning to oam_return: the C calling convention's frame on the handler
   * stack, user mode with interrupts on, a format $0 frame */
  struct tcb *h = &oam_ctx;
  /* nothing of the last handler's (another process's) stays in a register; of the frame, the
   * handler is entered by the $0 frame's 8 bytes set below (a fault's frame replaces them); the
   * rest of the context is never the handler's */
  for (uint32_t *x = h->ctx.regs; x < h->ctx.regs + 15; x += 5) /* (unrolled: not a memset call) */
    x[0] = x[1] = x[2] = x[3] = x[4] = 0;
  h->proc = p;
  h->tid = j->tid; /* (the caller's: a fault's line names it) */
  h->state = T_RUNNING;
  uint32_t frame3[3] = {oam[p->pid].ret, r->vpage << TOS_PAGE_SHIFT, j->arg};
  h->ctx.usp = ((OAM_STACK_PAGE + 1) << TOS_PAGE_SHIFT) - sizeof frame3;
  if (!vm_copyout(p, h->ctx.usp, frame3, sizeof frame3)) { /* (mapped above: cannot fail) */
    j->state = J_WAITING;
    region_jobs_serve();
    return;
  }
  h->ctx.frame_len = 8; /* SR 0 (user mode, interrupts on), PC fn, format $0 */
  h->ctx.frame[0] = h->ctx.frame[1] = h->ctx.frame[6] = h->ctx.frame[7] = 0;
  memcpy(&h->ctx.frame[2], &j->fn, 4);
  if (!oam_vectors[0]) {
    for (uint32_t v = 0; v < 256; ++v) oam_vectors[v] = vectors[v];
    oam_vectors[32 + TOS_SYSCALL_TRAP] = oam_vectors[2]; /* `exception`, as every fault's */
    oam_vectors[32 + TOS_YIELD_TRAP] = oam_vectors[2];
  }
  if (j->mode == K_READ) ++r->readers;
  else r->writer = 1;
  REV(EV_RGN_GRANTED, r);
  struct tcb *was = current; /* (what the debugger's `current` shows stays a thread) */
  vm_activate(p);
  uint32_t t0 = uptime_us(), vector;
  int over = 0;
  set_vbr(oam_vectors);
  for (;;) {
    vector = run_user(h);
    if (vector < 24 || vector > 31) break;
    intr(vector); /* a device interrupt while it ran: back to it, within its budget */
    spl0();
    if (uptime_us() - t0 >= TOS_OAM_BUDGET_US) {
      over = 1;
      break;
    }
  }
  set_vbr(vectors);
  current = was;
  spl0();

  const uint32_t *regs = h->ctx.regs;
  if (over) return oam_continue(j, r, AB_BUDGET, sw);
  if (vector == 32 + TOS_SYSCALL_TRAP && regs[0] == SYS_RGN_SERVE_DONE && regs[1] == 0) { /* oam_return: done */
    struct job done = *j; /* (the record is free for the requests its end lets in) */
    job_free(j);
    return oam_result(&done, regs[2], 1);
  }
  if (vector == 32 + TOS_SYSCALL_TRAP || vector == 32 + TOS_YIELD_TRAP) return oam_continue(j, r, AB_CALL, sw);
  if (vector == 2) { /* a page the page protocol would fetch or take for writing: a thread's to wait for */
    uint16_t st = REG16(TB_MMU_FAULT_STATUS);
    uint32_t reason = (st & TB_MMU_FAULT_STATUS_REASON) >> TB_MMU_FAULT_STATUS_REASON_SHIFT;
    if ((st & TB_MMU_FAULT_STATUS_VALID) && REG32(TB_MMU_FAULT_ADDR) >= TOS_USER_BASE &&
        (reason == TB_MMU_FAULT_STATUS_REASON_UNMAPPED || reason == TB_MMU_FAULT_STATUS_REASON_READ_ONLY ||
         reason == TB_MMU_FAULT_STATUS_REASON_NOT_USER)) {
      REG16(TB_MMU_FAULT_STATUS) = 0;
      return oam_continue(j, r, AB_PAGE, sw);
    }
  }
  ++oam_faulted;
  job_free(j);
  oam_fault(h, vector); /* the process is removed: its regions and jobs with it */
}

static int spinning(void);
int region_loop(void) {
  region_loop_work = 0;
  for (struct job *j; (j = oam_next()) != NULL;) /* a run may queue more (its access's end serves the next request) */
    oam_run(j);
  if (oam_backs) {
    oam_backs = 0;
    for (uint32_t pid = 0; pid < TOS_MAX_PROCESSES; ++pid)
      if (oam[pid].cont == C_DONE) oam_server_back(pid);
  }
  if (onward_starved) { /* a job is free again: the homes whose onward step waited for one go on */
    onward_starved = 0;
    for (uint32_t i = 0; i < rg_max; ++i)
      if (rg[i].rid && rg[i].home && alive(&rg[i])) home_run(&rg[i]);
  }
  if (!spinning()) return 0;
  region_loop_work = 1; /* (asked again next pass) */
  return 1;
}

/* A set-up is on its way for a thread here: the board runs no thread until it is answered (the
 * CM-5's sender spins: a round trip is shorter than its context switch, seed 003 7.3.1). The
 * count is taken again from the waiters, so a thread that ended meanwhile leaves no spin. */
static int spinning(void) {
  if (!setups_out) return 0;
  uint32_t n = 0;
  for (uint32_t i = 0; i < wt_max; ++i)
    if (wt[i].what == W_CM && wt[i].setup && wait_live(&wt[i])) ++n;
  for (uint32_t i = 0; i < NONWARD; ++i)
    if (onq[i].used && (!proc_alive(onq[i].p) || onq[i].p->serial != onq[i].serial)) onq[i].used = 0;
    else n += onq[i].used;
  setups_out = n;
  return n != 0;
}

void region_oam_report(void) {
  if (onward_sent || onward_lost)
    kprintf("tos: %s: migrated computations sent onward from here: %u; onward steps lost here: %u\n", board_name,
            onward_sent, onward_lost);
  if (setups_done)
    kprintf("tos: %s: set-up round trips before migration requests (as on the CM-5): %u, %u us spun\n", board_name,
            setups_done, setup_us);
  uint32_t aborted = oam_aborted[AB_BUSY] + oam_aborted[AB_PAGE] + oam_aborted[AB_BUDGET] + oam_aborted[AB_CALL];
  if (!oam_completed && !aborted && !oam_faulted) return;
  kprintf("tos: %s: optimistic active messages: %u completed, %u aborted (region busy %u, page away %u, past the "
          "budget %u, system call %u), %u faulted\n", board_name, oam_completed, aborted, oam_aborted[AB_BUSY],
          oam_aborted[AB_PAGE], oam_aborted[AB_BUDGET], oam_aborted[AB_CALL], oam_faulted);
}

/* ---- the calls ---- */
SYSCALL(rgn_create) {
  struct proc *p = t->proc;
  if (a1 == 0 || a1 > TOS_MAX_REGION_BYTES) return -TOS_EINVAL;
  struct region *r = new_rec(p, generation); /* (a home's record, here where the caller runs) */
  if (!r) return -TOS_ENOSPC;
  r->size = (uint16_t)a1;
  r->home = 1;
  r->state = S_EXCL;
  r->policy = TOS_CM_POLICY_DATA;
  uint32_t idx = (uint32_t)(r - rg);
  r->rid = me() << 24 | (uint32_t)generation << 8 | idx;
  if (++generation == 0) generation = 1;
  int v = window_map(r);
  if (v < 0) {
    release(r);
    return v;
  }
  return (int32_t)r->rid;
}

SYSCALL(rgn_delete) {
  struct region *r = lookup(t->proc, a1);
  if (!r) return -TOS_ENOENT;
  if (!r->home) return -TOS_EPERM;
  for (uint32_t x = 0; x < nboards; ++x)
    if ((r->sharers & BIT(x)) || r->excl == x || (r->mappers & BIT(x))) {
      uint32_t o[1] = {r->rid};
      post(x, NET_RGN_DROP, o, 1);
    }
  release(r);
  return 0;
}

SYSCALL(rgn_map) {
  struct proc *p = t->proc;
  struct region *r = NULL;
  for (uint32_t i = 0; i < TOS_MAX_REGIONS && !r; ++i)
    if (rg[i].rid == a1 && rg[i].p == p && rg[i].serial == p->serial) r = &rg[i];
  if (r && r->size) {
    ++r->maps;
    return (int32_t)(r->vpage << TOS_PAGE_SHIFT);
  }
  uint32_t home = a1 >> 24;
  if (!r) {
    if (!a1 || home == me() || home >= nboards) return -TOS_ENOENT; /* (a region homed here has its record) */
    r = new_rec(p, a1);
    if (!r) return -TOS_ENOSPC;
    r->rid = a1;
    /* straight to the region's home when it can check the asker (it is the process's home) or
     * when the asker is the process's home; else through the process's home, which vouches */
    uint32_t o[5] = {a1, me(), p->home_board, p->home_pid, p->home_serial};
    post(p->guest && home != p->home_board ? p->home_board : home, NET_RGN_MAP, o, 5);
  }
  return wait_add(t, W_MAP, r, 0) ? 0 : -TOS_ENOTCB;
}

SYSCALL(rgn_unmap) {
  struct region *r = lookup(t->proc, a1);
  if (!r || !r->maps) return -TOS_EINVAL;
  --r->maps;
  return 0;
}

static int32_t start(struct tcb *t, uint32_t a, uint32_t kind, int cm) {
  struct region *r = lookup(t->proc, a);
  if (!r) return -TOS_ENOENT;
  REV(EV_RGN_START, r);
  if (!cm && grantable(r, kind) && !oldest(r)) { /* a hit: the thread goes on in its slice */
    if (kind == K_READ) ++r->readers;
    else r->writer = 1;
    REV(EV_RGN_GRANTED, r);
    return 0;
  }
  struct waiter *w = wait_add(t, W_ACCESS, r, kind);
  if (!w) return -TOS_ENOTCB;
  w->cm = (uint8_t)cm;
  serve_waiters(r);
  return 0;
}
SYSCALL(rgn_start_read) { return start(t, a1, K_READ, 0); }
SYSCALL(rgn_start_write) { return start(t, a1, K_WRITE, 0); }

static int32_t end(struct tcb *t, uint32_t a, uint32_t kind) {
  struct region *r = lookup(t->proc, a);
  if (!r) return -TOS_ENOENT;
  if (kind == K_READ ? !r->readers : !r->writer) return -TOS_EINVAL;
  if (kind == K_READ) --r->readers;
  else r->writer = 0;
  REV(EV_RGN_END, r);
  if (kind == K_WRITE && r->home) {
    r->read_once = 0; /* REPEAT: the home's own write counts */
    r->reads_data = 0;
  }
  progress(r);
  return 0;
}
SYSCALL(rgn_end_read) { return end(t, a1, K_READ); }
SYSCALL(rgn_end_write) { return end(t, a1, K_WRITE); }

SYSCALL(rgn_flush) {
  struct region *r = lookup(t->proc, a1);
  if (!r) return -TOS_ENOENT;
  if (r->readers || r->writer || r->held || r->want) return -TOS_EBUSY;
  if (r->home || r->state == S_INVALID) return 0; /* the home's copy is the master */
  uint32_t o[4] = {r->rid, r->state == S_EXCL, 0, 1};
  if (r->state == S_EXCL) post_data(home_of(r), NET_RGN_FLUSH, o, 4, r);
  else post(home_of(r), NET_RGN_FLUSH, o, 4);
  r->state = S_INVALID;
  return 0;
}

SYSCALL(rgn_cm) {
  struct region *r = lookup(t->proc, a1);
  if (!r) return -TOS_ENOENT;
  if (a2 != TOS_CM_READ && a2 != TOS_CM_WRITE) return -TOS_EINVAL;
  if ((a3 & 1) || a3 < TOS_USER_BASE || a3 >= TOS_USER_IMAGE_TOP) return -TOS_EINVAL;
  USER_BUFFER(t, a5, 4, 1);
  /* a hit, or the home itself: the access runs here */
  if (r->home || (a2 == K_READ ? r->state != S_INVALID : r->state == S_EXCL)) return TOS_CM_LOCAL;
  REV(EV_RGN_MISS, r);
  struct waiter *w = wait_add(t, W_CM, r, a2);
  if (!w) return -TOS_ENOTCB;
  w->buf = a5;
  if (r->short_msgs) { /* the request follows the set-up's answer (on_setup_ack); until then the board spins */
    w->setup = 1;
    w->fn = a3;
    w->arg = a4;
    w->since = uptime_us();
    ++setups_out;
    region_loop_work = 1; /* the board spins from its next loop pass */
    uint32_t o[2] = {r->rid, t->tid};
    post(home_of(r), NET_RGN_SETUP, o, 2);
    return 0;
  }
  uint32_t o[5] = {r->rid, a2, a3, a4, t->tid};
  post(home_of(r), NET_RGN_CM, o, 5);
  return 0;
}

/* The migrated computation thread t runs here: a server's job, or an aborted handler's
 * continuation (whose job record is free again: its copy is in oam[]). */
static struct job *running_job(struct tcb *t) {
  struct proc *p = t->proc;
  if (oam[p->pid].cont == C_RUNNING && oam[p->pid].server == t && oam[p->pid].server_tid == t->tid)
    return &oam[p->pid].job;
  for (uint32_t i = 0; i < NJOBS; ++i)
    if (jobs[i].state == J_RUNNING && jobs[i].srv == t && jobs[i].srv_tid == t->tid && jobs[i].p == p &&
        jobs[i].serial == p->serial)
      return &jobs[i];
  return NULL;
}

SYSCALL(rgn_onward) {
  struct proc *p = t->proc;
  if ((a2 != K_READ && a2 != K_WRITE) || !user_code(a3)) return -TOS_EINVAL;
  struct job *j = running_job(t);
  if (!j) return -TOS_EINVAL;
  if (j->onward) return -TOS_EBUSY;
  struct region *n = by_rid(a1);
  if (!n || n->p != p || n->serial != p->serial || !n->size) return -TOS_ENOENT;
  uint32_t o[6] = {a1, a2, a3, a4, WHO(j->from, j->tid), j->crid};
  uint32_t k = 0;
  if (n->short_msgs && !n->home)
    while (k < NONWARD && onq[k].used) ++k;
  if (k == NONWARD) return -TOS_EAGAIN;
  j->onward = 1; /* (before the step: to a region homed here it is a call) */
  ++onward_sent;
  if (n->short_msgs && !n->home) { /* as rgn_cm's: the step follows the set-up's answer, the board spins */
    onq[k].used = 1;
    onq[k].p = p;
    onq[k].serial = p->serial;
    onq[k].since = uptime_us();
    memcpy(onq[k].o, o, sizeof o);
    ++setups_out;
    region_loop_work = 1;
    uint32_t s[2] = {a1, ONWARD_KEY + k};
    post(home_of(n), NET_RGN_SETUP, s, 2);
  } else {
    post(home_of(n), NET_RGN_CM_FWD, o, 6);
  }
  return 0;
}

SYSCALL(rgn_policy) {
  struct region *r = lookup(t->proc, a1);
  if (!r) return -TOS_ENOENT;
  if (a3 == TOS_CM_COUNT_MISS) return (int32_t)r->n_miss; /* (this board's own count: any board) */
  if (a3 == TOS_CM_SHORT_MESSAGES) { /* (this board's requests: the home sends none, so there it changes nothing) */
    if (a2 > 1) return -TOS_EINVAL;
    r->short_msgs = (uint8_t)a2;
    return 0;
  }
  if (!r->home) return -TOS_EPERM;
  if (a3 == TOS_CM_COUNT_DATA) return (int32_t)r->n_data;
  if (a3 == TOS_CM_COUNT_COMPUTE) return (int32_t)r->n_compute;
  if (a3 == TOS_CM_COUNT_OAM) return (int32_t)r->n_oam;
  if (a3 >= TOS_CM_COUNT_ABORT_BUSY && a3 <= TOS_CM_COUNT_ABORT_CALL) return (int32_t)r->n_abort[a3 - TOS_CM_COUNT_ABORT_BUSY];
  if (a3 != 0 || a2 > TOS_CM_POLICY_REPEAT) return -TOS_EINVAL;
  r->policy = (uint8_t)a2;
  r->read_once = 0;
  r->reads_data = 0;
  return 0;
}

