/* enum net_type of the TOS kernel the sample run used (firmware/tos/kernel/defs.h then): tbwaves --net-types */
enum net_type { /* what a message is */
  NET_CON_SELECT = 1, /* master -> board: op0 1 = your console is the operator's, 0 = not any more */
  NET_CON_REQUEST,    /* board -> master: switch the operator's console to op0 */
  NET_CON_IN,         /* master -> board: op0 = count, then the characters typed, 4 per word */
  NET_CON_OUT,        /* board -> master: op0 = count, then the characters printed */
  NET_CON_CREDIT,     /* board -> master: op0 more input characters may come */
  NET_HALT,           /* master -> board: halt */
  NET_DONE,           /* board -> master: op0 1 = boot script over and no process left, 0 = busy again */
  NET_RF_OPEN,        /* a file for this board's filestore: op0 size, op1 permissions, op2.. name */
  NET_RF_DATA,        /* op0 offset, then data */
  NET_RF_DONE,        /* op0 0 or -error: the file is stored (or not) */
  /* remote.c and rchan.c: a process across boards; ops start with its home (board, pid, serial) */
  NET_CREATE,         /* home -> board: start a thread (slot, entry, arg, ret, pages, parent TID, id) */
  NET_CREATED,        /* board -> home: slot | parent TID << 8, the TID or -error */
  NET_EXITED,         /* board -> home: a thread ended (slot, parent TID, code) */
  NET_KILL,           /* home -> boards: the process is gone */
  NET_PAGE_REQ,       /* guest -> home: virtual page, TID */
  NET_PAGE,           /* home -> guest: the page (1 KB), writable */
  NET_PAGE_NONE,      /* home -> guest: the home has no such page */
  NET_FOCUS,          /* the MPCs: channel, TID, length */
  NET_ADVERT,
  NET_RTR,
  NET_MSG,            /* channel, receiver TID, total, offset, then data */
  NET_TYPES = 64
};
