/* sh: the TOS shell, one per board (seed 000 section 2.1.2: "a built-in shell which offers a
 * typical Unix interface"). It reads commands from the console (or runs a script file: sh FILE)
 * and runs programs from the filestore, in the foreground or with `&` in the background.
 *
 *   line     := assignment | command [> file] [&]
 *   command  := word...        words split on blanks; "..." keeps blanks; $NAME expands
 * Built-in commands are listed by `help`; anything else is a program in the filestore. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tos/tos.h>

#define LINE 256
#define MAXARGS 24
#define MAXBG 16
/* Processor numbers: node * slots_per_node + slot; the kernel refuses one no board answers to. */
#define MAX_BOARD_NUMBER (255 * TOS_MAX_SLOTS_PER_NODE - 1)

static const char *const board_names[] = TOS_BOARD_NAMES;
static const char *const tstate_names[] = TOS_TSTATE_NAMES;
static const char *const pstate_names[] = TOS_PSTATE_NAMES;
static char me[16];
static int bg[MAXBG]; /* background processes not yet collected */
static int last_status;
static int my_pid = -1; /* this shell's process number */

/* ---- environment variables: the library's environ, which spawn passes to programs ---- */
static const char *var_get(const char *name) { return getenv(name); }

static int var_set(const char *assignment) {
  char name[64];
  const char *eq = strchr(assignment, '=');
  size_t n = (size_t)(eq - assignment);
  if (n >= sizeof name) {
    printf("sh: variable name too long\n");
    return 1;
  }
  memcpy(name, assignment, n);
  name[n] = 0;
  if (setenv(name, eq + 1, 1) != 0) {
    printf("sh: no room for variable %s\n", name);
    return 1;
  }
  return 0;
}

/* ---- words ---- */
/* Splits `line` into argv (words in a static buffer, after $NAME expansion). -1, after saying
 * why, when the words do not fit: too many of them, or the expansion longer than the buffer --
 * the command is refused whole, never run cut short. */
static int split(char *line, char **argv) {
  static char expanded[LINE * 2];
  char *out = expanded, *end = expanded + sizeof expanded - 1; /* room for the last NUL */
  int argc = 0, overflow = 0;
  char *p = line;
  for (;;) {
    while (*p == ' ' || *p == '\t') ++p;
    if (!*p || *p == '#') break;
    if (argc == MAXARGS - 1) {
      printf("sh: too many words (%d at most): nothing run\n", MAXARGS - 1);
      return -1;
    }
    argv[argc++] = out;
    int quoted = 0;
    while (*p && (quoted || (*p != ' ' && *p != '\t'))) {
      if (*p == '"') {
        quoted = !quoted;
        ++p;
      } else if (*p == '$' && (p[1] == '?' || p[1] == '_' || (p[1] >= 'A' && p[1] <= 'Z') || (p[1] >= 'a' && p[1] <= 'z'))) {
        char name[32];
        int n = 0;
        const char *v;
        ++p;
        if (*p == '?') {
          ++p;
          snprintf(name, sizeof name, "%d", last_status);
          v = name;
        } else {
          while (*p == '_' || (*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9')) {
            if (n == (int)sizeof name - 1) {
              printf("sh: variable name too long (%d characters at most): nothing run\n", (int)sizeof name - 1);
              return -1;
            }
            name[n++] = *p++;
          }
          name[n] = 0;
          v = var_get(name);
        }
        while (v && *v) {
          if (out == end) overflow = 1;
          else *out++ = *v++;
          if (overflow) break;
        }
      } else if (out == end) {
        overflow = 1;
      } else {
        *out++ = *p++;
      }
      if (overflow) {
        printf("sh: the line is too long after expanding variables (%d characters at most): nothing run\n",
               (int)sizeof expanded - 1);
        return -1;
      }
    }
    if (out == end) {
      printf("sh: the line is too long after expanding variables (%d characters at most): nothing run\n",
             (int)sizeof expanded - 1);
      return -1;
    }
    *out++ = 0;
  }
  argv[argc] = NULL;
  return argc;
}

/* A whole decimal number from lo to hi, or -1. */
static long whole_number(const char *s, long lo, long hi) {
  char *end;
  if (!*s || !(*s >= '0' && *s <= '9')) return -1;
  long v = strtol(s, &end, 10);
  return *end || v < lo || v > hi ? -1 : v;
}

static int board_number(const char *name) {
  for (int i = 0; i < TOS_BOARD_NAME_COUNT; ++i)
    if (strcmp(name, board_names[i]) == 0) return i;
  if (strncmp(name, "board", 5) == 0) return (int)whole_number(name + 5, 0, MAX_BOARD_NUMBER); /* as TOS names them */
  return (int)whole_number(name, 0, MAX_BOARD_NUMBER);
}

/* ---- processes ---- */
static void remember(int pid) {
  for (int i = 0; i < MAXBG; ++i)
    if (bg[i] == pid) return;
  for (int i = 0; i < MAXBG; ++i)
    if (bg[i] < 0) {
      bg[i] = pid;
      return;
    }
}

/* Collect background processes that have ended, and say so. */
static void reap(void) {
  static struct tos_pinfo info;
  for (int i = 0; i < MAXBG; ++i) {
    if (bg[i] < 0) continue;
    if (pinfo(bg[i], &info) < 0) {
      bg[i] = -1;
      continue;
    }
    if (info.state == P_ZOMBIE) {
      int code = pwait(bg[i]);
      printf("[%d] %s done, exit %d\n", bg[i], info.name, code);
      bg[i] = -1;
    }
  }
}

/* Wait for the foreground job; Ctrl-C ends it (TOS_EXIT_INTERRUPTED), Ctrl-Z stops it: then it
 * is remembered as a job that fg or bg resumes. */
static int wait_foreground(int pid, const char *name) {
  int code = pwait(pid);
  if (code == -TOS_ESTOPPED) {
    remember(pid);
    printf("[%d] %s stopped (fg %d resumes it, bg %d runs it in the background)\n", pid, name, pid, pid);
    return code;
  }
  if (code == TOS_EXIT_INTERRUPTED) printf("[%d] %s interrupted\n", pid, name);
  return code;
}

static int run(char **argv, int argc, int background) {
  char args[TOS_MAX_ARGS_BYTES];
  size_t n = 0;
  for (int i = 0; i < argc; ++i) {
    size_t k = strlen(argv[i]);
    if (n + k + 2 > sizeof args) {
      printf("sh: %s: command line too long\n", argv[0]);
      return 1;
    }
    if (i) args[n++] = ' ';
    memcpy(args + n, argv[i], k);
    n += k;
  }
  args[n] = 0;
  int pid = spawn(argv[0], args);
  if (pid < 0) {
    if (pid == -TOS_ENOENT) printf("sh: %s: no such program\n", argv[0]);
    else if (pid == -TOS_EPERM) printf("sh: %s: permission denied (not executable)\n", argv[0]);
    else if (pid == -TOS_ENOEXEC) printf("sh: %s: not a TOS executable\n", argv[0]);
    else printf("sh: %s: cannot run: %s\n", argv[0], tos_strerror(pid));
    return 127;
  }
  if (background) {
    pstate(pid, P_BACKGROUND);
    remember(pid);
    printf("[%d] %s\n", pid, argv[0]);
    return 0;
  }
  return wait_foreground(pid, argv[0]);
}

/* ---- built-in commands ---- */
typedef int (*builtin)(int argc, char **argv);

static int b_ps(int argc, char **argv) {
  fflush(stdout);
  static struct tos_pinfo info;
  int full = argc > 1 && strcmp(argv[1], "-l") == 0;
  (void)argv;
  printf("  PID NAME             STATE     THREADS FRAMES\n");
  for (int pid = 0; pid < TOS_MAX_PROCESSES; ++pid) {
    if (pinfo(pid, &info) < 0) continue;
    printf("%5d %-16s %-9s %7d %6lu\n", pid, info.name, pstate_names[info.state], info.nthreads,
           (unsigned long)info.frames);
    for (int i = 0; i < info.nthreads; ++i) {
      struct tos_pinfo_thread *t = &info.thread[i];
      char other[12];
      snprintf(other, sizeof other, "board%d", (int)t->board);
      const char *where = t->board < TOS_BOARD_NAME_COUNT ? board_names[t->board] : other;
      if (t->state == T_AWAY)
        printf("      thread %04x on %s\n", t->tid, where);
      else if (full)
        printf("      thread %04x %-8s pc %06lx sp %06lx d0 %08lx scheduled %lu\n", t->tid, tstate_names[t->state],
               (unsigned long)t->pc, (unsigned long)t->sp, (unsigned long)t->d0, (unsigned long)t->slices);
      else
        printf("      thread %04x %s\n", t->tid, tstate_names[t->state]);
    }
  }
  return 0;
}

/* The PID argument of kill, fg and bg: a whole number naming a process slot, or -1 after
 * saying why (`kill abc` is refused, not read as process 0). */
static int pid_arg(int argc, char **argv) {
  if (argc != 2) {
    printf("usage: %s PID\n", argv[0]);
    return -1;
  }
  long pid = whole_number(argv[1], 0, TOS_MAX_PROCESSES - 1);
  if (pid < 0) printf("%s: %s: not a process number (0 to %d, as ps shows them)\n", argv[0], argv[1], TOS_MAX_PROCESSES - 1);
  return (int)pid;
}

static int b_kill(int argc, char **argv) {
  int pid = pid_arg(argc, argv);
  if (pid < 0) return 2;
  if (pid == my_pid) {
    printf("kill: %d: that is this shell (exit leaves it)\n", pid);
    return 1;
  }
  if (kill(pid) < 0) {
    printf("kill: %d: no such process\n", pid);
    return 1;
  }
  for (int i = 0; i < MAXBG; ++i)
    if (bg[i] == pid) bg[i] = -1;
  pwait(pid);
  return 0;
}

static int b_fg(int argc, char **argv) {
  int pid = pid_arg(argc, argv);
  if (pid < 0) return 2;
  if (pstate(pid, P_FOREGROUND) < 0) {
    printf("fg: %d: no such process\n", pid);
    return 1;
  }
  for (int i = 0; i < MAXBG; ++i)
    if (bg[i] == pid) bg[i] = -1;
  static struct tos_pinfo info;
  return wait_foreground(pid, pinfo(pid, &info) == 0 ? info.name : "job");
}

static int b_bg(int argc, char **argv) {
  int pid = pid_arg(argc, argv);
  if (pid < 0) return 2;
  if (pstate(pid, P_BACKGROUND) < 0) {
    printf("bg: %d: no such process\n", pid);
    return 1;
  }
  remember(pid);
  return 0;
}

static int b_stty(int argc, char **argv) {
  if (argc == 2 && strcmp(argv[1], "raw") == 0) return stty(1), 0;
  if (argc == 2 && strcmp(argv[1], "cooked") == 0) return stty(0), 0;
  if (argc == 1) {
    printf("%s\n", stty(-1) ? "raw" : "cooked");
    return 0;
  }
  printf("usage: stty [raw|cooked]\n");
  return 2;
}

static int b_console(int argc, char **argv) {
  if (argc != 2) {
    printf("usage: console BOARD (master, earth, air, fire, water, space or a board number)\n");
    return 2;
  }
  int b = board_number(argv[1]);
  if (b < 0) {
    printf("console: %s: no such board (master, earth, air, fire, water, space or a board number)\n", argv[1]);
    return 2;
  }
  int r = console(b);
  if (r < 0) printf("console: %s: %s\n", argv[1], tos_strerror(r));
  return r < 0;
}

static int b_echo(int argc, char **argv) {
  for (int i = 1; i < argc; ++i) printf(i > 1 ? " %s" : "%s", argv[i]);
  printf("\n");
  return 0;
}

static int b_env(int argc, char **argv) {
  (void)argc;
  (void)argv;
  for (char **e = environ; e && *e; ++e) printf("%s\n", *e);
  return 0;
}

/* ---- files ---- */
static const char *why(int err) {
  switch (-err) {
    case TOS_ENOENT: return "no such file";
    case TOS_EPERM: return "permission denied";
    case TOS_ENOSPC: return "filestore full";
    case TOS_ENFILE: return "filestore directory full (64 files)";
    case TOS_EFBIG: return "file too large (512 KB at most)";
    case TOS_EBUSY: return "file in use";
    case TOS_EINVAL: return "bad name";
  }
  return tos_strerror(err);
}

static void perms(uint32_t p, char *out) {
  out[0] = (p & TOS_FS_PERM_READ) ? 'r' : '-';
  out[1] = (p & TOS_FS_PERM_WRITE) ? 'w' : '-';
  out[2] = (p & TOS_FS_PERM_EXEC) ? 'x' : '-';
  out[3] = 0;
}

static int b_ls(int argc, char **argv) {
  struct tos_stat st;
  struct tos_fsstat fst;
  char p[4];
  int rc = 0;
  if (argc > 1) {
    for (int i = 1; i < argc; ++i) {
      int r = stat(argv[i], &st);
      if (r < 0) {
        printf("ls: %s: %s\n", argv[i], why(r));
        rc = 1;
        continue;
      }
      perms(st.perm, p);
      printf("%s %8lu %s\n", p, (unsigned long)st.size, st.name);
    }
    return rc;
  }
  for (int i = 0; readdir(i, &st) == 0; ++i) {
    perms(st.perm, p);
    printf("%s %8lu %s\n", p, (unsigned long)st.size, st.name);
  }
  if (fsstat(&fst) == 0)
    printf("%lu files, %lu KB free of %lu KB\n", (unsigned long)fst.files,
           (unsigned long)(fst.free_blocks * fst.block_bytes / 1024), (unsigned long)(fst.blocks * fst.block_bytes / 1024));
  return 0;
}

/* The whole of a file in memory (malloc); its size in *len. NULL after saying why. */
static char *slurp(const char *cmd, const char *path, long *len) {
  struct tos_stat st;
  int r = stat(path, &st);
  if (r < 0) {
    printf("%s: %s: %s\n", cmd, path, why(r));
    return NULL;
  }
  int fd = open(path, TOS_O_READ);
  if (fd < 0) {
    printf("%s: %s: %s\n", cmd, path, why(fd));
    return NULL;
  }
  char *buf = malloc(st.size ? st.size : 1);
  long n = 0;
  while (buf && n < (long)st.size) {
    int k = read(fd, buf + n, (int)st.size - (int)n);
    if (k <= 0) break;
    n += k;
  }
  close(fd);
  if (!buf) printf("%s: %s: out of memory\n", cmd, path);
  *len = n;
  return buf;
}

static int spill(const char *cmd, const char *path, const char *buf, long len, uint32_t perm) {
  int fd = open(path, TOS_O_WRITE | TOS_O_CREATE | TOS_O_TRUNC);
  if (fd < 0) {
    printf("%s: %s: %s\n", cmd, path, why(fd));
    return 1;
  }
  long n = 0;
  while (n < len) {
    int k = write(fd, buf + n, (int)(len - n));
    if (k <= 0) {
      printf("%s: %s: %s\n", cmd, path, why(k < 0 ? k : -TOS_ENOSPC));
      close(fd);
      remove(path); /* no half-written file */
      return 1;
    }
    n += k;
  }
  close(fd);
  if (perm) chmod(path, (int)perm);
  return 0;
}

static int b_cp(int argc, char **argv) {
  if (argc != 3) {
    printf("usage: cp FROM TO    (TO may be BOARD:NAME, a file on another board)\n");
    return 2;
  }
  struct tos_stat st;
  long len;
  char *buf = slurp("cp", argv[1], &len);
  if (!buf) return 1;
  stat(argv[1], &st);
  int rc;
  char *colon = strchr(argv[2], ':');
  if (colon) {
    *colon = 0;
    int b = board_number(argv[2]);
    const char *name = colon[1] ? colon + 1 : argv[1];
    if (b < 0) {
      printf("cp: %s: no such board\n", argv[2]);
      rc = 2;
    } else {
      int r = rput(b, name, buf, (int)len, (int)st.perm);
      if (r < 0) printf("cp: %s:%s: %s\n", argv[2], name, why(r));
      rc = r < 0;
    }
  } else {
    rc = spill("cp", argv[2], buf, len, st.perm);
  }
  free(buf);
  return rc;
}

static int b_rm(int argc, char **argv) {
  int rc = 0;
  if (argc < 2) printf("usage: rm FILE...\n");
  for (int i = 1; i < argc; ++i) {
    int r = remove(argv[i]) < 0 ? -tos_errno : 0; /* C's remove: -1, the reason in tos_errno */
    if (r < 0) {
      printf("rm: %s: %s\n", argv[i], why(r));
      rc = 1;
    }
  }
  return argc < 2 ? 2 : rc;
}

static int b_mv(int argc, char **argv) {
  if (argc != 3) {
    printf("usage: mv FROM TO\n");
    return 2;
  }
  int r = rename(argv[1], argv[2]) < 0 ? -tos_errno : 0; /* C's rename: -1, the reason in tos_errno */
  if (r < 0) printf("mv: %s: %s\n", argv[1], why(r));
  return r < 0;
}

static int b_chmod(int argc, char **argv) {
  if (argc != 3) {
    printf("usage: chmod rwx FILE   (r, w, x or - in each place; or one octal digit)\n");
    return 2;
  }
  const char *m = argv[1];
  int perm = 0;
  if (m[0] >= '0' && m[0] <= '7' && !m[1]) perm = m[0] - '0';
  else if (strlen(m) == 3 && (m[0] == 'r' || m[0] == '-') && (m[1] == 'w' || m[1] == '-') && (m[2] == 'x' || m[2] == '-'))
    perm = (m[0] == 'r' ? TOS_FS_PERM_READ : 0) | (m[1] == 'w' ? TOS_FS_PERM_WRITE : 0) | (m[2] == 'x' ? TOS_FS_PERM_EXEC : 0);
  else {
    printf("chmod: %s: expected rwx, r-x, ... or an octal digit\n", m);
    return 2;
  }
  int r = chmod(argv[2], perm);
  if (r < 0) printf("chmod: %s: %s\n", argv[2], why(r));
  return r < 0;
}

static int b_cat(int argc, char **argv) {
  int rc = 0;
  for (int i = 1; i < argc; ++i) {
    long len;
    char *buf = slurp("cat", argv[i], &len);
    if (!buf) {
      rc = 1;
      continue;
    }
    write(1, buf, (int)len);
    free(buf);
  }
  return rc;
}

/* upload NAME: the host's upload folder -> the filestore; download NAME: the other way. */
static int b_upload(int argc, char **argv) {
  if (argc != 2) {
    printf("usage: upload NAME   (from the host's upload folder into this filestore)\n");
    return 2;
  }
  /* The whole file comes in one transfer: a buffer as large as a file may be, or as large as
   * the heap can grow beside the shell (a larger file is then refused as too large). */
  int max = TOS_MAX_FS_FILE_BYTES + 1;
  char *buf = NULL;
  while (!buf && max > 1024) {
    buf = malloc((size_t)max);
    if (!buf) max -= 16 * 1024;
  }
  if (!buf) {
    printf("upload: out of memory\n");
    return 1;
  }
  int n = lan_get(argv[1], buf, max);
  int rc = 1;
  if (n == -TOS_ENOENT) printf("upload: %s: no such file on the host\n", argv[1]);
  else if (n == -TOS_EFBIG || n > TOS_MAX_FS_FILE_BYTES) printf("upload: %s: %s\n", argv[1], why(-TOS_EFBIG));
  else if (n == -TOS_EIO) printf("upload: %s: the transfer was corrupt: nothing stored\n", argv[1]);
  else if (n < 0) printf("upload: %s: %s\n", argv[1], tos_strerror(n));
  else {
    int elf = n >= 4 && buf[0] == 0x7F && buf[1] == 'E' && buf[2] == 'L' && buf[3] == 'F';
    rc = spill("upload", argv[1], buf, n, elf ? TOS_FS_PERM_READ | TOS_FS_PERM_WRITE | TOS_FS_PERM_EXEC : 0);
    if (!rc) printf("upload: %s: %d bytes\n", argv[1], n);
  }
  free(buf);
  return rc;
}

static int b_download(int argc, char **argv) {
  if (argc != 2) {
    printf("usage: download NAME   (from this filestore to the host's download folder)\n");
    return 2;
  }
  long len;
  char *buf = slurp("download", argv[1], &len);
  if (!buf) return 1;
  int r = lan_put(argv[1], buf, (int)len);
  free(buf);
  if (r == -TOS_EPERM) printf("download: %s: refused: the host keeps that name for its own results\n", argv[1]);
  else if (r < 0) printf("download: %s: %s\n", argv[1], tos_strerror(r));
  else printf("download: %s: %ld bytes\n", argv[1], len);
  return r < 0;
}

/* migrate TID BOARD: move a thread (any board's) to BOARD; only ready threads move. */
static int b_migrate(int argc, char **argv) {
  char *end;
  long tid = argc == 3 ? strtol(argv[1], &end, 16) : -1;
  int b = argc == 3 ? board_number(argv[2]) : -1;
  if (argc != 3 || *end || tid < 0) {
    printf("usage: migrate TID BOARD   (TID in hex, as ps shows it)\n");
    return 1;
  }
  if (b < 0 || b >= tos_info(TOS_INFO_BOARDS)) {
    printf("migrate: %s: no such board\n", argv[2]);
    return 1;
  }
  int r = migrate((int)tid, b);
  if (r == -TOS_ENOTREADY)
    printf("migrate: thread %04lx is not ready (it is blocked; only threads in the ready queue migrate)\n", tid);
  else if (r == -TOS_ESRCH)
    printf("migrate: thread %04lx: no such thread\n", tid);
  else if (r < 0)
    printf("migrate: thread %04lx to %s: %s\n", tid, argv[2], tos_strerror(r));
  return r < 0;
}

/* pmigrate PID BOARD [direct|indirect]: move a process of this board whole (seed 001). */
static int b_pmigrate(int argc, char **argv) {
  char *end = "";
  long pid = argc >= 3 && argc <= 4 ? strtol(argv[1], &end, 10) : -1;
  int b = argc >= 3 ? board_number(argv[2]) : -1, mode = -1;
  if (argc == 3 || (argc == 4 && strcmp(argv[3], "direct") == 0)) mode = TOS_PMIG_DIRECT;
  else if (argc == 4 && strcmp(argv[3], "indirect") == 0) mode = TOS_PMIG_INDIRECT;
  if (argc < 3 || argc > 4 || *end || pid < 0 || mode < 0) {
    printf("usage: pmigrate PID BOARD [direct|indirect]   (PID as ps shows it)\n");
    return 1;
  }
  if (b < 0 || b >= TOS_BOARD_NAME_COUNT) {
    printf("pmigrate: %s: no such board\n", argv[2]);
    return 1;
  }
  unsigned long t0 = time_us();
  int r = pmigrate((int)pid, b, mode);
  if (r == -TOS_EAGAIN)
    printf("pmigrate: process %ld: its threads were not all outside a call (a channel operation is a critical section) or a critical section it marked; try again\n", pid);
  else if (r == -TOS_EBUSY)
    printf("pmigrate: process %ld: it is spread over boards already (or, to come home, not wholly on one other board), or another migration is under way\n", pid);
  else if (r < 0)
    printf("pmigrate: process %ld to %s: %s\n", pid, argv[2], tos_strerror(r));
  else
    printf("pmigrate: process %ld is on %s (%s, %lu us)\n", pid, argv[2], mode ? "indirect" : "direct",
           time_us() - t0);
  return r < 0;
}

static int b_halt(int argc, char **argv) {
  (void)argv;
  halt(argc > 1 || strcmp(argv[0], "shutdown") == 0);
  return 0;
}

/* filter BOARD [COMMAND...]: slave BOARD's SMI event filter (the master's MMI programs it, during
 * a run if need be); without a command, its settings and counters. */
static int b_filter(int argc, char **argv) {
  int b = argc > 1 ? board_number(argv[1]) : -1;
  if (b < 1 || b > 15) {
    printf("filter: %s: give a slave board (name or number 1..15)\n", argc > 1 ? argv[1] : "no board");
    return 1;
  }
  if (argc == 2) {
    mon_filter_show(b);
    return 0;
  }
  return mon_filter_apply(b, argc - 2, argv + 2) < 0;
}

static int b_exit(int argc, char **argv) { exit(argc > 1 ? atoi(argv[1]) : 0); }
static int b_help(int argc, char **argv);

static const struct {
  const char *name;
  builtin fn;
  const char *help;
} builtins[] = {
    {"ps", b_ps, "ps [-l]          processes and their threads (-l: thread contexts)"},
    {"kill", b_kill, "kill PID         remove a process (Ctrl-C: the foreground one)"},
    {"migrate", b_migrate, "migrate TID BOARD move a ready thread to another board"},
    {"pmigrate", b_pmigrate, "pmigrate PID BOARD [direct|indirect] move a process whole"},
    {"fg", b_fg, "fg PID           bring a process to the foreground and wait for it"},
    {"bg", b_bg, "bg PID           let a process (stopped by Ctrl-Z) run in the background"},
    {"stty", b_stty, "stty [raw|cooked] the console's input mode"},
    {"console", b_console, "console BOARD    switch the operator's console to BOARD's shell"},
    {"echo", b_echo, "echo WORD...     print the words"},
    {"ls", b_ls, "ls [FILE...]     the filestore: permissions, size, name"},
    {"cat", b_cat, "cat FILE...      print files"},
    {"cp", b_cp, "cp FROM TO       copy a file (TO may be BOARD:NAME on another board)"},
    {"rm", b_rm, "rm FILE...       remove files"},
    {"mv", b_mv, "mv FROM TO       rename a file"},
    {"chmod", b_chmod, "chmod rwx FILE   set a file's permissions"},
    {"upload", b_upload, "upload NAME      fetch NAME from the host over the LAN link"},
    {"download", b_download, "download NAME    send NAME to the host over the LAN link"},
    {"env", b_env, "env              the shell's variables (NAME=value sets one)"},
    {"filter", b_filter, "filter BOARD [on|off|reset|only CLASSES|drop CLASSES|match CLASSES VALUE MASK|\n"
                         "                 decim CLASS|EVENT N|guard CLASSES LIMIT TICKS|code EVENT on|off]\n"
                         "                 BOARD's SMI event filter (master); no command: show it"},
    {"halt", b_halt, "halt             halt this board"},
    {"shutdown", b_halt, "shutdown         halt every board (on the master)"},
    {"exit", b_exit, "exit [CODE]      leave the shell"},
    {"help", b_help, "help             this list"},
};
#define NBUILTINS (int)(sizeof builtins / sizeof builtins[0])

static int b_help(int argc, char **argv) {
  (void)argc;
  (void)argv;
  for (int i = 0; i < NBUILTINS; ++i) printf("  %s\n", builtins[i].help);
  printf("  PROGRAM [ARGS] [> FILE] [&]  run a program of the filestore (& in the background)\n");
  printf("  sh FILE          run the commands of a script;  NAME=value  set a variable ($NAME)\n");
  printf("  dgl [+CLASS|-CLASS]...  switch event classes on and off\n");
  return 0;
}

/* One command line. */
static int execute(char *line) {
  char *argv[MAXARGS];
  int argc = split(line, argv);
  if (argc < 0) return 2;
  if (argc == 0) return last_status;
  int background = 0;
  if (strcmp(argv[argc - 1], "&") == 0) {
    background = 1;
    argv[--argc] = NULL;
    if (argc == 0) return last_status;
  }
  if (argc == 1 && strchr(argv[0], '=') && argv[0][0] != '=') return var_set(argv[0]);
  const char *out = NULL; /* > FILE: stdout of the command goes to FILE */
  if (argc >= 3 && strcmp(argv[argc - 2], ">") == 0) {
    out = argv[argc - 1];
    argc -= 2;
    argv[argc] = NULL;
  } else if (argc >= 2 && argv[argc - 1][0] == '>' && argv[argc - 1][1]) {
    out = argv[argc - 1] + 1;
    argv[--argc] = NULL;
  }
  int saved = -1, fd = -1;
  if (out) {
    fd = open(out, TOS_O_WRITE | TOS_O_CREATE | TOS_O_TRUNC);
    if (fd < 0) {
      printf("sh: %s: %s\n", out, why(fd));
      return 1;
    }
    saved = dup2(1, 15);
    dup2(fd, 1);
  }
  int rc = -1;
  for (int i = 0; i < NBUILTINS && rc < 0; ++i)
    if (strcmp(argv[0], builtins[i].name) == 0) rc = builtins[i].fn(argc, argv);
  if (rc < 0) rc = run(argv, argc, background);
  if (out) {
    dup2(saved, 1);
    close(saved);
    close(fd);
  }
  return rc;
}

/* sh FILE: each line a command; stops at the first line it cannot even parse. */
static int script(const char *path) {
  FILE *f = fopen(path, "r");
  if (!f) {
    struct tos_stat st;
    int r = stat(path, &st);
    printf("sh: %s: %s\n", path, why(r < 0 ? r : -TOS_EPERM));
    return 1;
  }
  char line[LINE];
  int n = 0, rc = 0;
  while (fgets(line, sizeof line, f)) {
    ++n;
    size_t k = strlen(line);
    if (k && line[k - 1] == '\n') line[--k] = 0;
    else if (k == sizeof line - 1) {
      printf("sh: %s:%d: line too long\n", path, n);
      rc = 2;
      break;
    }
    int quotes = 0;
    for (size_t i = 0; i < k; ++i) quotes += line[i] == '"';
    if (quotes & 1) {
      printf("sh: %s:%d: syntax error: unmatched \"\n", path, n);
      rc = 2;
      break;
    }
    last_status = rc = execute(line);
  }
  fclose(f);
  return rc;
}

/* A command line from the console: its length, or -1 at end of input. The console delivers a
 * line longer than its own buffer in pieces, each without the newline; a line that does not fit
 * `buf` is read to its end and refused whole (never run cut short), and -2 is returned. */
static int read_line(char *buf, int max) {
  int n = read(0, buf, max - 1);
  if (n <= 0) return -1;
  buf[n] = 0;
  if (buf[n - 1] == '\n') {
    buf[n - 1] = 0;
    return n;
  }
  if (n < max - 2) return n; /* Ctrl-D inside a line: the line as it is */
  long total = n;
  char rest[LINE];
  for (;;) {
    int k = read(0, rest, sizeof rest);
    if (k <= 0) break;
    total += k;
    if (rest[k - 1] == '\n') {
      --total;
      break;
    }
  }
  printf("sh: line too long (%ld characters; %d at most): nothing run\n", total, max - 2);
  return -2;
}

int main(int argc, char **argv) {
  char line[LINE];
  long b = tos_info(TOS_INFO_BOARD);
  if (b < TOS_BOARD_NAME_COUNT) snprintf(me, sizeof me, "%s", board_names[b]);
  else snprintf(me, sizeof me, "board%ld", b);
  for (int i = 0; i < MAXBG; ++i) bg[i] = -1;
  my_pid = (gettid() >> 6) & (TOS_MAX_PROCESSES - 1);
  if (argc > 1) return script(argv[1]);
  for (;;) {
    reap();
    printf("%s$ ", me);
    int n = read_line(line, sizeof line);
    if (n == -1) return 0;
    last_status = n == -2 ? 2 : execute(line);
  }
}
