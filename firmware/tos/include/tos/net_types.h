/* The kinds of Centrenet message TOS kernels exchange (a message's header tag, bits 7..0):
 * the kernel's (kernel/net.c and its users) and the tests' that forge corrupt ones with
 * net_inject(), from one list. Operands are 32-bit words; data follows them. */
#ifndef TOS_NET_TYPES_H
#define TOS_NET_TYPES_H
enum net_type { /* what a message is */
  NET_CON_SELECT = 1, /* master -> board: op0 1 = your console is the operator's, 0 = not any more */
  NET_CON_REQUEST,    /* board -> master: switch the operator's console to op0 */
  NET_CON_IN,         /* master -> board: op0 = count, then the characters typed, 4 per word */
  NET_CON_OUT,        /* board -> master: op0 = count, then the characters printed */
  NET_CON_CREDIT,     /* board -> master: op0 more input characters may come */
  NET_HALT,           /* master -> board: halt */
  NET_DONE,           /* board -> master: op0 1 = boot script over and no process left, 0 = busy again */
  NET_RF_OPEN,        /* a file for this board's filestore: op0 size, op1 permissions, op2.. name */
  NET_RF_DATA,        /* op0 offset, then data; op1 = 1, no data: the sender abandoned the file */
  NET_RF_DONE,        /* op0 0 or -error: the file is stored (or not) */
  /* remote.c and rchan.c: a process across boards; ops start with its home (board, pid, serial) */
  NET_CREATE,         /* home -> board: start a thread (slot, entry, arg, ret, pages, parent TID, id) */
  NET_CREATED,        /* board -> home: slot | parent TID << 8, the TID or -error */
  NET_EXITED,         /* board -> home: a thread ended (slot, parent TID, code) */
  NET_KILL,           /* home -> boards: the process is gone */
  NET_PAGE_REQ,       /* board -> home (pages.c): virtual page, TID, write */
  NET_PAGE,           /* owner or home -> requester: virtual page, TID, writable, seq (0: a code copy); 1 KB */
  NET_PAGE_NONE,      /* home or owner -> requester: no board has the page (virtual page, TID, 0, seq) */
  NET_FOCUS,          /* the MPCs: channel, TID, length */
  NET_ADVERT,
  NET_RTR,
  NET_MSG,            /* channel, receiver TID, total, offset, then data; op7 = 1, no data: abandoned */
  /* migrate.c: thread migration */
  NET_THREAD,         /* source -> destination: slot, then the packed thread (struct mig_pack) */
  NET_MOVED,          /* destination -> home: slot | moves << 8, the thread's new board */
  NET_MIGRATE_REQ,    /* requester -> home -> the thread's board: home board, pid, slot, TID, destination,
                         requester board, requester TID, hops */
  NET_MIGRATED,       /* thread's board -> requester: requester TID, 0 or -error */
  NET_CHILD,          /* a child ended: parent TID, code, hops (routed through the home) */
  NET_PAGE_DROP,      /* home -> board: a thread ended: free your copy of its stack page (virtual page) */
  NET_RECONF,         /* master -> slave: kind, arg, requester TID: choose a thread and migrate it */
  NET_RECONF_DONE,    /* slave -> requester: requester TID, the TID that moved or -error */
  /* pages.c: the page protocol, the home the manager of each page */
  NET_PAGE_FWD,       /* home -> owner: virtual page, to board, move, seq: send it the page */
  NET_PAGE_GRANT,     /* home -> requester: virtual page, TID, writable, seq: your copy is good (as the owner) */
  NET_PAGE_INVAL,     /* home -> holder: virtual page, seq: free your copy */
  NET_PAGE_ACK,       /* holder -> home: virtual page, seq: freed */
  NET_PAGE_DONE,      /* requester -> home: virtual page, seq: mapped; the next request for it may go */
  /* region.c: shared regions (seed 003); ops start with the region's id (rid) */
  NET_RGN_MAP,        /* board -> home: rid, asker, the process's home (board, pid, serial): its size, please */
  NET_RGN_MAPPED,     /* home -> board: rid, size or -error */
  NET_RGN_REQ,        /* board -> home: rid, kind (1 read, 2 write) */
  NET_RGN_DATA,       /* home -> board: rid, state granted, cm TID (0xFFFF: none), piece, last; a piece of the data (none: a grant) */
  NET_RGN_INVAL,      /* home -> sharer: rid: drop your copy */
  NET_RGN_INVAL_ACK,  /* sharer -> home: rid */
  NET_RGN_RECALL,     /* home -> owner: rid, 1 keep a read copy / 0 drop it: send the data home */
  NET_RGN_RECALL_ACK, /* owner -> home: rid, had the data, piece, last; a piece of the data */
  NET_RGN_FLUSH,      /* board -> home: rid, exclusive, piece, last; a piece of the data (exclusive only) */
  NET_RGN_NACK,       /* home -> board: rid, cm TID (0xFFFF: a request), error: the request failed */
  NET_RGN_CM,         /* board -> home: rid, mode, fn, arg, caller TID: a migration request */
  NET_RGN_CM_DONE,    /* home -> board: rid, caller TID, result: the computation ran at the home */
  NET_RGN_DROP,       /* home -> board: rid: the region is deleted */
  /* barrier.c (seed 004): ops start with the process's home (board, pid, serial) */
  NET_BAR_ARRIVE,     /* board -> home: barrier, TID: a thread there arrived */
  NET_BAR_RELEASE,    /* home -> board with a waiter: barrier, generation, last arriver's TID */
  /* whole-process migration (pvm, seed 001: kernel/pmigrate.c) */
  NET_PMIG_BEGIN,     /* home -> destination: a process's image follows (mode, pages): make its context */
  NET_PMIG_PAGE,      /* home (direct) or master (indirect) -> destination: one page of the image */
  NET_PMIG_CKPT,      /* home -> master: one page of the checkpoint file (indirect) */
  NET_PMIG_READY,     /* destination (or the master, failing) -> home: the image is restored, or -error */
  /* rex.c (seed 002): the REX's question to the master's global scheduler */
  NET_GS_ASK,         /* board -> master: asking TID: where should a new process go? */
  NET_GS_PLACE,       /* master -> board: asking TID, board: the scheduler's answer */
  /* route.c (seed 001's Figure 2): the routing tables of a job's threads, kept by the master */
  NET_ROUTE_MOVED,    /* home -> master: home (board, pid, serial), slot, board, seq, boards mask (2 words) */
  NET_ROUTE,          /* master -> every board holding the job: home (board, pid, serial), slot, board, seq */
  /* remote.c: sbrk from a thread on a guest board, served by the home (the break is the home's) */
  NET_SBRK,           /* board -> home: home (board, pid, serial), asking TID, increment */
  NET_SBRK_DONE,      /* home -> board: asking TID, the old break or -error */
  /* barrier.c: a guest's thread arrived at a barrier its process never made (its own mistake) */
  NET_BAR_REFUSED,    /* home -> board: home (board, pid, serial), barrier, TID: the arrival fails, EINVAL */
  /* remote.c: a thread of a process faulted away from its home; the home removes the process everywhere */
  NET_FAULT,          /* board -> home: home (board, pid, serial), slot, the fault's exit code */
  NET_TYPES = 64
};
#endif
