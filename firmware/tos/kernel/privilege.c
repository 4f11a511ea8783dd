/* Who may do what (firmware/tos/README.md "Privileges"; issue #57): the one place a privilege is
 * decided. tos.toml says, per system call, what it needs ("privilege"): the calls that need a
 * privileged caller are refused by trap.c's gate before they run; a call that acts on another
 * process or thread ("own") asks privilege_controls about its target; a device register is
 * reached by the device's owner only ("owner", privilege_owns_device). */
#include "defs.h"

/* A process the boot script started (the kernel is its parent: the operator's shells, the
 * machine's configured programs such as the logger and the balancer), or a part of one on
 * another board (its home said so when the part was made). */
int proc_privileged(const struct proc *p) { return p->guest ? p->home_privileged : p->parent < 0; }

/* May `caller` act on `target` (kill, suspend, wait for, migrate)? Its own process and its
 * descendants always; any process only when it is privileged. */
int privilege_controls(const struct proc *caller, const struct proc *target) {
  return proc_privileged(caller) || proc_descends(target, caller);
}

/* User devices (kernel/dev.c): the first process that reaches a device's registers owns it
 * until it ends (its part on this board: proc_thread_gone and proc_kill hand it back through
 * privilege_process_gone); any other process is refused EBUSY meanwhile. Without an owner, a
 * device that can write memory by DMA would let any program write the kernel. */
static struct {
  struct proc *p; /* NULL: free */
  uint32_t serial;
} dev_owner[TB_DEV_ADDR_COUNT];

int privilege_owns_device(struct proc *p, uint32_t dev) {
  if (dev >= TB_DEV_ADDR_COUNT) return 0;
  if (dev_owner[dev].p && (!proc_alive(dev_owner[dev].p) || dev_owner[dev].p->serial != dev_owner[dev].serial))
    dev_owner[dev].p = NULL; /* its owner ended without saying (cannot happen: belt and braces) */
  if (!dev_owner[dev].p) {
    dev_owner[dev].p = p;
    dev_owner[dev].serial = p->serial;
  }
  return dev_owner[dev].p == p;
}

/* DMA buffers (dev.c) are for a device's owner: does p own one now? (Claims nothing.) */
RARE int privilege_holds_a_device(const struct proc *p) {
  for (uint32_t i = 0; i < TB_DEV_ADDR_COUNT; ++i)
    if (dev_owner[i].p == p && p->serial == dev_owner[i].serial) return 1;
  return 0;
}

void privilege_process_gone(struct proc *p) {
  for (uint32_t i = 0; i < TB_DEV_ADDR_COUNT; ++i)
    if (dev_owner[i].p == p) dev_owner[i].p = NULL;
}
