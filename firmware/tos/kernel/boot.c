/* The boot script (TOS_FS_BOOT_SCRIPT, "rc" in the filestore): the programs a board starts by
 * itself after booting, until the shell takes over this role. A line is
 *     <board> <program> [arguments] [&]
 * where <board> is this board's name, its number or "*". Lines run in order; the script waits
 * for each program to end unless the line ends with "&". A program that cannot start is
 * reported and the script goes on. The script is read in place: its file is pinned (fs_map)
 * while it runs, so that programs writing files cannot move it. */
#include "defs.h"

static const char *script, *script_end, *pos;
static int waiting_pid = -1;
static uint32_t waiting_serial;
/* The boot script's shell (a line running `sh` with no arguments in the foreground) is this
 * board's console session: when it ends -- exit, Ctrl-D, a kill from another program -- a new
 * one starts at once, as init restarts a getty, so no board's console is ever left dead. */
static int respawn; /* the line waited for is the shell */
static uint32_t respawns;
static int done;
static int rc_node = -1;

void boot_start(void) {
  const struct tos_fs_entry *e = fs_lookup(TOS_FS_BOOT_SCRIPT);
  done = 1;
  if (!e || (rc_node = fs_map(e)) < 0) return;
  script = pos = (const char *)fs_data(e);
  script_end = script + e->size;
  done = 0;
}

int boot_done(void) { return done; }

static int is_space(char c) { return c == ' ' || c == '\t' || c == '\r'; }

static int for_me(const char *w, uint32_t n) {
  if (n == 1 && w[0] == '*') return 1;
  if (n == strlen(board_name) && strncmp(w, board_name, n) == 0) return 1;
  uint32_t v = 0;
  for (uint32_t i = 0; i < n; ++i) {
    if (w[i] < '0' || w[i] > '9') return 0;
    v = v * 10 + (uint32_t)(w[i] - '0');
  }
  return v == board_id;
}

/* Start the next line meant for this board; 0 when the script is over. */
static int next_line(void) {
  while (pos < script_end) {
    const char *l = pos, *e = pos;
    while (e < script_end && *e != '\n') ++e;
    pos = e < script_end ? e + 1 : e;
    while (l < e && is_space(*l)) ++l;
    const char *end = e;
    while (end > l && is_space(end[-1])) --end;
    if (l == end || *l == '#') continue;
    const char *w = l;
    while (l < end && !is_space(*l)) ++l;
    if (!for_me(w, (uint32_t)(l - w))) continue;
    while (l < end && is_space(*l)) ++l;
    int background = end > l && end[-1] == '&';
    if (background) {
      --end;
      while (end > l && is_space(end[-1])) --end;
    }
    char prog[TOS_FS_NAME_LEN], args[TOS_MAX_ARGS_BYTES];
    uint32_t n = (uint32_t)(end - l);
    if (n == 0) continue;
    if (n >= sizeof args) n = sizeof args - 1;
    memcpy(args, l, n);
    args[n] = 0;
    uint32_t k = 0;
    while (k < n && !is_space(args[k]) && k < sizeof prog - 1) {
      prog[k] = args[k];
      ++k;
    }
    prog[k] = 0;
    struct proc *p;
    int pid = proc_spawn(prog, args, NULL, &p);
    if (pid < 0) {
      kprintf("tos: %s: rc: cannot run '%s': error %d\n", board_name, prog, -pid);
      continue;
    }
    if (!background) {
      waiting_pid = pid;
      waiting_serial = p->serial;
      respawn = strcmp(args, "sh") == 0;
      return 1;
    }
  }
  return 0;
}

/* Main loop: when the program the script waits for has ended, start the next line. */
void boot_service(void) {
  if (done) return;
  if (waiting_pid >= 0) {
    struct proc *p = &procs[waiting_pid];
    if (proc_alive(p) && p->serial == waiting_serial) return;
    waiting_pid = -1;
    if (respawn) {
      struct proc *np;
      int32_t code = p->serial == waiting_serial ? p->exit_code : 0;
      int pid = proc_spawn("sh", "sh", NULL, &np);
      ++respawns;
      if (pid >= 0) {
        kprintf("tos: %s: the shell ended (exit %d); a new shell starts (%u so far)\n", board_name, code, respawns);
        waiting_pid = pid;
        waiting_serial = np->serial;
        return;
      }
      kprintf("tos: %s: the shell ended and cannot start again: error %d\n", board_name, -pid);
      respawn = 0;
    }
  }
  if (!next_line()) {
    done = 1;
    fs_unmap(rc_node);
    rc_node = -1;
  }
}
