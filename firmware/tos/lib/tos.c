/* The TOS user library: system call wrappers (TRAP #0, see crt0.S). Programs start in
 * __tos_start (argv from the command line, environ from the environment block). The C library
 * is newlib's (README "The C library"), over syscalls.c; TOS's own parts are env.c, setenv.c,
 * malloc.c, lock.c, and the file system calls in file.c. */
#include <stdio.h>
#include <tos/tos.h>

int main(int argc, char **argv);
extern void __tos_thread_return(void);
int __tos_env_count(const char *block);
void __tos_env_init(char *block, char **vec);
extern const char *__tos_env_passed; /* env.c: NULL while this process's environment is unchanged */
int tos_errno;
/* The thread that runs main: its exit is the program's. Cleared when it ends (here or in _exit):
 * the kernel gives its TID to the next thread made in its slot, which must not run atexit's
 * functions and flush the streams a second time. */
int __tos_main_tid = -1;
#define main_tid __tos_main_tid
void __call_exitprocs(int code, void *d); /* newlib: atexit's functions, last registered first */

#define SYS0(n) __tos_syscall((n), 0, 0, 0, 0, 0, 0)
#define SYS1(n, a) __tos_syscall((n), (long)(a), 0, 0, 0, 0, 0)

/* ---- start-up ---- */
void __tos_start(char *cmdline, char *env) {
  char *envv[__tos_env_count(env) + 1]; /* environ: lives as long as the program */
  __tos_env_init(env, envv);
  main_tid = gettid();
  /* stdout's buffer is the program's own, not the heap's: printing needs no malloc (it works
   * with the heap exhausted, and a program's frame count does not change at its first printf) */
  static char stdout_buffer[BUFSIZ];
  setvbuf(stdout, stdout_buffer, _IOLBF, sizeof stdout_buffer);
  char *argv[24];
  int argc = 0;
  char *p = cmdline;
  while (*p && argc < 23) {
    while (*p == ' ' || *p == '\t') *p++ = 0;
    if (!*p) break;
    argv[argc++] = p;
    while (*p && *p != ' ' && *p != '\t') ++p;
  }
  argv[argc] = NULL;
  exit(main(argc, argv));
}

/* ---- threads, channels, processes ---- */
static long check(long r) {
  if (r < 0) tos_errno = (int)-r;
  return r;
}

int create(int id, int n_pages, int processor, void (*entry)(void *), void *arg) {
  long r = check(__tos_syscall(SYS_CREATE, id, n_pages, processor, (long)entry, (long)arg,
                               (long)__tos_thread_return));
  return r < 0 ? 0 : (int)r;
}
int wait(void) { return (int)SYS0(SYS_WAIT); }
/* exit ends the calling thread (occam style). When that thread is main's, it is the program's
 * exit in C's sense too: the atexit functions run and every stream is flushed (not closed: other
 * threads may still be printing; the kernel closes the descriptors when the last thread has
 * gone). Other threads leave the streams alone: a thread may have migrated, and touching the
 * process's shared stdio state from another board at every thread's end costs page transfers
 * (and stalled the balancer's synthetic experiment). Output with a newline is already out. */
void exit(int code) {
  if (gettid() == main_tid) {
    main_tid = -1;
    __call_exitprocs(code, NULL);
    fflush(NULL);
  }
  SYS1(SYS_EXIT, code);
  for (;;) {
  }
}
int gettid(void) { return (int)SYS0(SYS_GETTID); }
int net_inject(int processor, int type, const uint32_t *ops, int nops) {
  return (int)check(__tos_syscall(SYS_NET_INJECT, processor, type, (long)ops, nops, 0, 0));
}
int pmig_critical(uint32_t *depth) { return (int)check(__tos_syscall(SYS_PMIG_CRITICAL, (long)depth, 0, 0, 0, 0, 0)); }
int net_inject_data(int processor, int type, const uint32_t *ops, int nops, const void *data) {
  return (int)check(__tos_syscall(SYS_NET_INJECT, processor, type, (long)ops, nops, (long)data, 0));
}
int reconfigure(int processor, int kind, int arg) {
  return (int)check(__tos_syscall(SYS_RECONFIGURE, processor, kind, arg, 0, 0, 0));
}
int rex_place(void) { return (int)check(SYS0(SYS_REX_PLACE)); }
int rex_create(int id, int n_pages, void (*entry)(void *), void *arg) {
  int board = rex_place();
  return board < 0 ? 0 : create(id, n_pages, board, entry, arg);
}
long __tos_twin(long n); /* crt0.S: the call with the callee-saved registers on the stack */
int process_twin(void) {
  long r = check(__tos_twin(SYS_PROCESS_TWIN));
  if (r == 0) main_tid = gettid(); /* the twin's main thread: its exit is the twin's */
  return (int)r;
}
int gs_serve(uint32_t *buf, int max) { return (int)check(__tos_syscall(SYS_GS_SERVE, (long)buf, max, 0, 0, 0, 0)); }
int gs_answer(int board, int tid, int place) {
  return (int)check(__tos_syscall(SYS_GS_ANSWER, board, tid, place, 0, 0, 0));
}
int migrate(int tid, int processor) { return (int)check(__tos_syscall(SYS_MIGRATE, tid, processor, 0, 0, 0, 0)); }
int pmigrate(int pid, int processor, int mode) {
  return (int)check(__tos_syscall(SYS_PMIGRATE, pid, processor, mode, 0, 0, 0));
}
/* TRAP #1, yield's own vector (tos.toml): no number, no argument, the C ABI's scratch registers lost */
#define STR_(x) #x
#define STR(x) STR_(x)
void yield(void) { __asm__ volatile("trap #" STR(TOS_YIELD_TRAP) : : : "d0", "d1", "a0", "a1", "cc", "memory"); }
int send_block(int chan, const void *buf, int len) {
  return (int)check(__tos_syscall(SYS_SEND, chan, (long)buf, len, 0, 0, 0));
}
int psend(int chan, const void *buf, int len, int tid) {
  return (int)check(__tos_syscall(SYS_PSEND, chan, (long)buf, len, tid, 0, 0));
}
int route_info(int what, int tid) { return (int)check(__tos_syscall(SYS_ROUTE_INFO, what, tid, 0, 0, 0, 0)); }
int receive(int chan, void *buf, int len) {
  return (int)check(__tos_syscall(SYS_RECEIVE, chan, (long)buf, len, 0, 0, 0));
}
int spawn_env(const char *path, const char *args, const char *env) {
  return (int)check(__tos_syscall(SYS_SPAWN, (long)path, (long)(args ? args : path), (long)env, 0, 0, 0));
}
int spawn(const char *path, const char *args) { return spawn_env(path, args, __tos_env_passed); }
int pwait(int pid) { return (int)SYS1(SYS_PWAIT, pid); }
int kill(int pid) { return (int)check(SYS1(SYS_KILL, pid)); }
long tos_info(int what) { return SYS1(SYS_INFO, what); }
int dgl_set(int set, int clear) { return (int)__tos_syscall(SYS_DGL, set, clear, 0, 0, 0, 0); }
void send_event(int code) { SYS1(SYS_EVENT, code); }
unsigned long time_us(void) { return (unsigned long)SYS0(SYS_TIME); }
int lan_get(const char *name, void *buf, int max) {
  return (int)check(__tos_syscall(SYS_LAN_GET, (long)name, (long)buf, max, 0, 0, 0));
}
int lan_put(const char *name, const void *buf, int len) {
  return (int)check(__tos_syscall(SYS_LAN_PUT, (long)name, (long)buf, len, 0, 0, 0));
}
int mon_read(uint32_t *buf, int max_words) {
  return (int)check(__tos_syscall(SYS_MON_READ, (long)buf, max_words, 0, 0, 0, 0));
}
long mon_status(int what) { return check(SYS1(SYS_MON_STATUS, what)); }
long mon_filter(int smi, int reg, long value) {
  return check(__tos_syscall(SYS_MON_FILTER, smi, reg, value, 0, 0, 0));
}

long dev(int op, unsigned long arg, unsigned long value) {
  return check(__tos_syscall(SYS_DEV, op, (long)arg, (long)value, 0, 0, 0));
}
int stty(int mode) { return (int)SYS1(SYS_STTY, mode); }
/* Reading the console shows what stdout holds first (a prompt without its newline), as C's
 * stdio does before it reads stdin. */
int read(int fd, void *buf, int len) {
  if (fd == 0) fflush(stdout);
  return (int)check(__tos_syscall(SYS_READ, fd, (long)buf, len, 0, 0, 0));
}
int pinfo(int pid, struct tos_pinfo *info) {
  return (int)check(__tos_syscall(SYS_PINFO, pid, (long)info, sizeof *info, 0, 0, 0));
}
int pstate(int pid, int state) { return (int)check(__tos_syscall(SYS_PSTATE, pid, state, 0, 0, 0, 0)); }
int console(int processor) { return (int)check(SYS1(SYS_CONSOLE, processor)); }
void halt(int all) { SYS1(SYS_HALT, all); }
int rput(int processor, const char *name, const void *buf, int len, int perm) {
  return (int)check(__tos_syscall(SYS_RPUT, processor, (long)name, (long)buf, len, perm, 0));
}

const char *tos_strerror(int err) {
  if (err < 0) err = -err;
#define X(name, value, desc) if (err == value) return #name;
  TOS_ERROR_LIST(X)
#undef X
  return "unknown error";
}

/* ---- output ---- */
int write(int fd, const void *buf, int len) {
  return (int)check(__tos_syscall(SYS_WRITE, fd, (long)buf, len, 0, 0, 0));
}


/* Appendix A's compute(approx_N_ms): keep the CPU busy for ms milliseconds of the real-time
 * clock (a slice may end meanwhile; the time still counts). */
void compute_ms(unsigned long ms) {
  unsigned long t0 = time_us();
  while (time_us() - t0 < ms * 1000ul) {
    for (volatile int i = 0; i < 100; ++i) {
    }
  }
}
