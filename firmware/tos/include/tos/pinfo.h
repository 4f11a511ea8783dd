/* Process and thread states, and what pinfo() reports about a process (for ps): shared by the
 * kernel and the user library, so the two cannot disagree. */
#ifndef TOS_PINFO_H
#define TOS_PINFO_H
#include <stdint.h>
#include <testbed/tos.h>

enum tos_tstate { T_FREE, T_READY, T_RUNNING, T_SEND, T_RECV, T_WAIT, T_PWAIT, T_CONSOLE, T_CONSOLE_IN, T_REMOTE, T_LAN, T_PAGE, T_AWAY, T_REGION, T_BARRIER };
#define TOS_TSTATE_NAMES {"free", "ready", "running", "send", "receive", "wait", "pwait", "write", "read", "remote", "lan", "page", "away", "region", "barrier"}
enum tos_pstate { P_FREE, P_FOREGROUND, P_BACKGROUND, P_SUSPENDED, P_ZOMBIE };
#define TOS_PSTATE_NAMES {"free", "fg", "bg", "suspended", "ended"}

struct tos_pinfo_thread {
  uint16_t tid;
  uint8_t state;    /* enum tos_tstate */
  uint8_t slot;
  uint8_t board;    /* where it is (T_AWAY: a thread of this process on another board, its state there unknown) */
  uint8_t pad[3];
  uint32_t pc;      /* where it resumes */
  uint32_t sp;
  uint32_t slices;  /* times scheduled */
  uint32_t d0;
};

struct tos_pinfo {
  char name[16];
  uint8_t state;    /* enum tos_pstate */
  uint8_t nthreads;
  int8_t parent;    /* spawning process, -1: the kernel */
  uint8_t pad;
  int32_t exit_code;
  uint32_t frames;  /* private page frames */
  struct tos_pinfo_thread thread[TOS_MAX_THREADS];
};
#endif
