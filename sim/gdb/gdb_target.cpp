#include "gdb_target.h"
#include "rsp_server.h"

#include "elf_loader.h"
#include "m68k_sr.h"

#include <testbed/memory_map.h>

#include <cstdio>

namespace testbed::gdb {

GdbTarget::GdbTarget(GdbServer& server, Board& board, int index) : server_(server), board_(board), index_(index) {
  board_.cpu().set_debug_hook(this);
}

GdbTarget::~GdbTarget() {
  board_.cpu().set_debug_hook(nullptr);
  core().set_break_check(nullptr);
}

uint32_t GdbTarget::reg(int n) {
  m68k::Registers& r = core().regs();
  if (n < 8) return r.d[n];
  if (n < 16) return r.a[n - 8];
  if (n == 16) return r.sr;
  return r.pc;
}

void GdbTarget::set_reg(int n, uint32_t v) {
  m68k::Registers& r = core().regs();
  if (n < 8) r.d[n] = v;
  else if (n < 16) r.a[n - 8] = v;
  else if (n == 16) {
    uint16_t sr = uint16_t(v);
    bool was = r.sr & m68k::kSrSupervisor, now = sr & m68k::kSrSupervisor;
    if (was != now) {  // a[7] is the stack pointer of the mode SR names: swap them over
      if (was) {
        r.ssp = r.a[7];
        r.a[7] = r.usp;
      } else {
        r.usp = r.a[7];
        r.a[7] = r.ssp;
      }
    }
    r.sr = sr;
  } else if (n == 17) r.pc = v & ~1u;
}

unsigned GdbTarget::read(uint32_t addr, uint8_t* buf, unsigned len, bool user) {
  unsigned done = 0;
  while (done < len) {  // page by page: a range may end in an unmapped page
    uint32_t a = addr + done;
    unsigned n = std::min<unsigned>(len - done, TB_PAGE_SIZE - (a & (TB_PAGE_SIZE - 1)));
    if (a >= (1u << TB_ADDRESS_BITS)) break;
    unsigned got = board_.cpu().debug_access(false, a, buf + done, n,
                                               user ? m68k::FC_USER_DATA : m68k::FC_SUPERVISOR_DATA);
    done += got;
    if (got < n) break;
  }
  return done;
}

unsigned GdbTarget::write(uint32_t addr, const uint8_t* buf, unsigned len, bool user) {
  std::vector<uint8_t> tmp(buf, buf + len);
  unsigned done = 0;
  while (done < len) {
    uint32_t a = addr + done;
    unsigned n = std::min<unsigned>(len - done, TB_PAGE_SIZE - (a & (TB_PAGE_SIZE - 1)));
    if (a >= (1u << TB_ADDRESS_BITS)) break;
    unsigned got = board_.cpu().debug_access(true, a, tmp.data() + done, n,
                                               user ? m68k::FC_USER_DATA : m68k::FC_SUPERVISOR_DATA);
    done += got;
    if (got < n) break;
  }
  if (done) memory_written_ = true;
  return done;
}

bool GdbTarget::insert(int type, uint32_t addr, uint32_t len) {
  if (type < 0 || type > 4) return false;
  if (type <= 1) {
    breaks_.push_back({type, addr, 1, space_});
    update_check();
    return true;
  }
  if (len == 0 || len > 4096) return false;
  watches_.push_back({type, addr, len, space_});
  off_fast_path(watches_.back());
  return true;
}

// Off the fast path: every access to the watched pages comes through access().
void GdbTarget::off_fast_path(const Point& w) {
  uint32_t first = w.addr & ~uint32_t(TB_PAGE_SIZE - 1), last = (w.addr + w.len - 1) & ~uint32_t(TB_PAGE_SIZE - 1);
  for (uint64_t p = first; p <= last; p += TB_PAGE_SIZE) {
    core().unmap_fast(m68k::Space::User, uint32_t(p), TB_PAGE_SIZE);
    core().unmap_fast(m68k::Space::Supervisor, uint32_t(p), TB_PAGE_SIZE);
  }
}

bool GdbTarget::remove(int type, uint32_t addr, uint32_t len) {
  auto& v = type <= 1 ? breaks_ : watches_;
  for (auto it = v.begin(); it != v.end(); ++it)
    if (it->type == type && it->addr == addr && (type <= 1 || it->len == len)) {
      v.erase(it);
      update_check();
      return true;
    }
  return type >= 0 && type <= 4;  // removing what is not there is not an error
}

void GdbTarget::clear_all() {
  breaks_.clear();
  watches_.clear();
  stepping_ = false;
  step_thread_ = 0;
  update_check();
}

bool GdbTarget::has_user_breaks() const {
  for (const Point& b : breaks_)
    if (b.space != Space::Supervisor) return true;
  return false;
}

void GdbTarget::update_check() {
  if (breaks_.empty() && !stepping_ && follows_.empty() && !server_.travel_checks(index_)) core().set_break_check(nullptr);
  else core().set_break_check([this](uint32_t pc, bool s) { return check(pc, s); });
}

// Before each instruction while breakpoints are set or a step is under way. The instruction the
// board resumes at runs (its breakpoint is the one it stopped at); a step stops before the next.
bool GdbTarget::check(uint32_t pc, bool supervisor) {
  if (server_.traveling()) return server_.travel_check(*this, pc, supervisor);
  bool first = first_;
  first_ = false;
  bool stop;
  if (stepping_ && step_thread_) stop = check_thread_step(pc, supervisor);
  else if (stepping_ && !first) {
    stop_ = StopKind::Step;
    stop = true;
  } else stop = !(first && pc == resume_pc_) && check_breaks(pc, supervisor);
  for (Follow& f : follows_) stop = check_follow(f, pc, supervisor) || stop;
  return stop;
}

bool GdbTarget::break_at(uint32_t pc, bool supervisor) const {
  for (const Point& b : breaks_)
    if (b.addr == pc && matches(b.space, supervisor)) return true;
  return false;
}

bool GdbTarget::runs_user_thread(uint32_t thread, bool supervisor, bool& known, bool& is) {
  if (supervisor) {
    known = false;
    return false;
  }
  if (!known) {
    is = user_thread() == thread;
    known = true;
  }
  return is;
}

void GdbTarget::set_points(const Points& p) {
  follows_.clear();
  stepping_ = false;
  step_thread_ = 0;
  stop_ = StopKind::None;
  first_ = false;
  breaks_ = p.breaks;
  watches_ = p.watches;
  for (const Point& w : watches_) off_fast_path(w);
  space_ = p.space;
  step_over_kernel_ = p.step_over_kernel;
  update_check();
}

bool GdbTarget::check_breaks(uint32_t pc, bool supervisor) {
  if (!break_at(pc, supervisor)) return false;
  stop_ = StopKind::Breakpoint;
  stop_addr_ = pc;
  return true;
}

// A step of TOS thread step_thread_. The kernel entries it meets are not the user's: the step
// ends only when that thread is back in user mode past its instruction. The thread is known by
// `current` only where the kernel hands the CPU to user code (a kernel-to-user change), so a
// long run of another thread costs no memory reads. An instruction that left user mode and comes
// back at its own pc has not completed (an interrupt before it, a page fault the 68010 reruns, a
// call the kernel restarts): it runs again. Breakpoints met on the way stop as in a continue.
bool GdbTarget::check_thread_step(uint32_t pc, bool supervisor) {
  if (supervisor) {
    step_where_ = Where::Kernel;
    step_left_ = true;
    return check_breaks(pc, true);
  }
  if (step_where_ == Where::Kernel) step_where_ = user_thread() == step_thread_ ? Where::Thread : Where::Other;
  if (step_where_ == Where::Other) return check_breaks(pc, false);
  if (pc != resume_pc_ || (step_ran_ && !step_left_)) {
    stop_ = StopKind::Step;
    return true;
  }
  step_ran_ = true;  // the instruction the step began at (its breakpoint is the one it stopped at)
  step_left_ = false;
  return false;
}

void GdbTarget::follow(int owner, const GdbTarget& from, uint32_t thread, bool step, uint32_t pc, bool live) {
  unfollow(owner);
  Follow f{owner, &from, thread, pc, step, live, false, false, Where::Thread, StopKind::None, 0};
  if (!live) {  // it arrives (or comes back) from the kernel: its first user instruction decides
    f.where = Where::Kernel;
    f.ran = f.left = true;
  }
  follows_.push_back(f);
  update_check();
}

void GdbTarget::unfollow(int owner) {
  for (auto it = follows_.begin(); it != follows_.end(); ++it)
    if (it->owner == owner) {
      follows_.erase(it);
      update_check();
      return;
    }
}

bool GdbTarget::take_follow_stop(int& owner, uint32_t& thread, StopKind& kind, uint32_t& addr) {
  for (Follow& f : follows_)
    if (f.stop != StopKind::None) {
      owner = f.owner;
      thread = f.thread;
      kind = f.stop;
      addr = f.stop_addr;
      f.stop = StopKind::None;
      return true;
    }
  return false;
}

// A followed thread (follow()) as check_thread_step follows the thread of a step: it is known by
// `current` at a kernel-to-user change only, and other threads here are not its gdb's.
bool GdbTarget::check_follow(Follow& f, uint32_t pc, bool supervisor) {
  bool first = f.first;
  f.first = false;
  if (supervisor) {
    f.where = Where::Kernel;
    f.left = true;
    return false;
  }
  if (f.where == Where::Kernel) f.where = user_thread() == f.thread ? Where::Thread : Where::Other;
  if (f.where == Where::Other) return false;
  if (f.step) {
    if (pc != f.resume_pc || (f.ran && !f.left)) {
      f.stop = StopKind::Step;
      return true;
    }
    f.ran = true;
    f.left = false;
    return false;
  }
  if (first && pc == f.resume_pc) return false;
  for (const Point& b : f.from->breaks_)
    if (b.addr == pc && b.space != Space::Supervisor) {
      f.stop = StopKind::Breakpoint;
      f.stop_addr = pc;
      return true;
    }
  return false;
}

bool GdbTarget::watch_hit(const m68k::BusAccess& a, unsigned len, uint32_t& at, int& type) const {
  if (watches_.empty()) return false;
  uint32_t addr = a.address & ((1u << TB_ADDRESS_BITS) - 1);
  bool sup = m68k::fc_is_supervisor(a.fc);
  if (a.fc == m68k::FC_CPU_SPACE || a.fc == m68k::FC_USER_PROGRAM || a.fc == m68k::FC_SUPERVISOR_PROGRAM) return false;
  for (const Point& w : watches_) {
    if (!matches(w.space, sup)) continue;
    if (addr + len <= w.addr || addr >= w.addr + w.len) continue;
    if (w.type == 4 || (w.type == 2 && a.write) || (w.type == 3 && !a.write)) {
      at = std::max(addr, w.addr);
      type = w.type;
      return true;
    }
  }
  return false;
}

void GdbTarget::access(const m68k::BusAccess& a, unsigned len) {
  if (server_.traveling()) return server_.travel_access(*this, a, len);
  uint32_t addr;
  int type;
  if (stop_ != StopKind::None || !watch_hit(a, len, addr, type)) return;
  stop_ = StopKind::Watchpoint;
  stop_addr_ = addr;
  stop_watch_type_ = type;
  core().request_yield();  // the instruction completes, then the board stops
}

bool GdbTarget::keep_off_fast_path(uint32_t base, bool supervisor) {
  for (const Point& w : watches_)
    if (matches(w.space, supervisor) && w.addr < base + TB_PAGE_SIZE && w.addr + w.len > base) return true;
  return false;
}

// The core's prefetch queue may hold words the debugger has since changed: refill it from memory.
void GdbTarget::refresh_prefetch() {
  m68k::Registers& r = core().regs();
  uint8_t b[4] = {0, 0, 0, 0};
  bool user = !(r.sr & m68k::kSrSupervisor);
  board_.cpu().debug_access(false, r.pc, b, 4, user ? m68k::FC_USER_PROGRAM : m68k::FC_SUPERVISOR_PROGRAM);
  core().load_prefetch(uint16_t(b[0] << 8 | b[1]), uint16_t(b[2] << 8 | b[3]));
}

void GdbTarget::resume(bool step) {
  stepping_ = step;
  first_ = true;
  resume_pc_ = core().regs().pc;
  // A step that begins in a TOS thread's user code is that thread's (see check_thread_step).
  uint32_t th = step && step_over_kernel_ && tos() ? current_thread() : kCpuThread;
  step_thread_ = th != kCpuThread ? th : 0;
  step_where_ = Where::Thread;
  step_ran_ = step_left_ = false;
  stop_ = StopKind::None;
  if (memory_written_) {
    refresh_prefetch();
    memory_written_ = false;
  }
  update_check();
}

void GdbTarget::boundary() {
  started_ = true;
  server_.boundary(this);
}

// ------------------------------------------------------------------ TOS threads

namespace {
enum Info {
  kVersion, kTcbSize, kTcbRegs, kTcbUsp, kTcbFrame, kTcbProc, kTcbTid, kTcbState, kTcbUserId,
  kProcSize, kProcState, kProcPid, kProcName, kProcSlots, kProcPtable, kMaxProcs, kMaxThreads,
  kNameLen, kUserPages, kInfoWords
};
const char* const kThreadStates[] = {"free", "ready", "running", "send", "receive", "wait", "pwait",
                                     "write", "read", "remote", "lan", "page"};
}  // namespace

void GdbTarget::set_image(const std::string& elf_path) {
  tos_info_ = 0;
  if (elf_path.empty()) return;
  try {
    ElfImage img = load_elf(elf_path);
    auto f = [&](const char* n) { auto it = img.symbols.find(n); return it == img.symbols.end() ? 0u : it->second; };
    if (f("tos_gdb_info") && f("procs") && f("current")) {
      tos_info_ = f("tos_gdb_info");
      tos_procs_ = f("procs");
      tos_current_ = f("current");
    }
  } catch (const std::exception&) {
  }
}

uint8_t GdbTarget::phys8(uint32_t a) {
  uint8_t b = 0;
  board_.cpu().debug_access(false, a, &b, 1, m68k::FC_SUPERVISOR_DATA);
  return b;
}
uint16_t GdbTarget::phys16(uint32_t a) { return uint16_t(phys8(a) << 8 | phys8(a + 1)); }
uint32_t GdbTarget::phys32(uint32_t a) { return uint32_t(phys16(a)) << 16 | phys16(a + 2); }

bool GdbTarget::load_info() {
  if (!tos_info_) return false;
  for (int i = 0; i < kInfoWords; ++i) info_[i] = phys32(tos_info_ + 4 * i);
  return info_[kVersion] == 1 && info_[kMaxProcs] <= 64 && info_[kMaxThreads] <= 256 && info_[kNameLen] <= 64;
}

std::vector<GdbTarget::Thread> GdbTarget::threads() {
  std::vector<Thread> v(1);
  v[0].process = "kernel";
  if (!load_info()) return v;
  for (uint32_t p = 0; p < info_[kMaxProcs]; ++p) {
    uint32_t pa = tos_procs_ + p * info_[kProcSize];
    if (phys8(pa + info_[kProcState]) == 0) continue;  // P_FREE
    std::string name;
    for (uint32_t k = 0; k < info_[kNameLen]; ++k) {
      char c = char(phys8(pa + info_[kProcName] + k));
      if (!c) break;
      name += (c >= 32 && c < 127) ? c : '?';
    }
    uint8_t pid = phys8(pa + info_[kProcPid]);
    uint32_t ptable = phys32(pa + info_[kProcPtable]);
    for (uint32_t s = 0; s < info_[kMaxThreads]; ++s) {
      uint32_t tcb = phys32(pa + info_[kProcSlots] + 4 * s);
      if (!tcb || tcb >= (1u << TB_ADDRESS_BITS)) continue;
      Thread t;
      t.tcb = tcb;
      t.tid = phys16(tcb + info_[kTcbTid]);
      t.state = phys8(tcb + info_[kTcbState]);
      if (t.state == 0) continue;  // T_FREE
      t.id = kTosThread + t.tid;
      t.pid = pid;
      t.ptable = ptable;
      t.process = name;
      v.push_back(t);
    }
  }
  return v;
}

bool GdbTarget::find_thread(uint32_t id, Thread& out) {
  for (const Thread& t : threads())
    if (t.id == id) {
      out = t;
      return true;
    }
  return false;
}

// The TOS thread the CPU runs: in user mode, `current`.
uint32_t GdbTarget::current_thread() {
  if (!tos() || (core().regs().sr & m68k::kSrSupervisor)) return kCpuThread;
  uint32_t th = user_thread();
  return th ? th : kCpuThread;
}

// The TOS thread `current` names (the one in user mode when the CPU is); 0 if there is none.
// The SR is not looked at: within a run it is the core's, not regs()' (check_thread_step).
uint32_t GdbTarget::user_thread() {
  if (!load_info()) return 0;
  uint32_t cur = phys32(tos_current_);
  return cur ? kTosThread + phys16(cur + info_[kTcbTid]) : 0;
}

bool GdbTarget::live(const Thread& t) { return t.id == kCpuThread || t.id == current_thread(); }

std::string GdbTarget::describe(uint32_t id) {
  Thread t;
  if (!find_thread(id, t)) return "";
  char buf[160];
  if (t.id == kCpuThread) {
    std::snprintf(buf, sizeof buf, "%s CPU%s", board_.basename(),
                  tos() ? ((core().regs().sr & m68k::kSrSupervisor) ? ", kernel" : ", user") : "");
    return buf;
  }
  const char* st = t.state < sizeof kThreadStates / sizeof *kThreadStates ? kThreadStates[t.state] : "?";
  std::snprintf(buf, sizeof buf, "tid 0x%04x process %u %s, %s%s", t.tid, t.pid, t.process.c_str(),
                id == current_thread() ? "on the CPU" : st, "");
  return buf;
}

uint32_t GdbTarget::thread_reg(uint32_t id, int n) {
  Thread t;
  if (id == kCpuThread || !find_thread(id, t) || live(t)) return reg(n);
  if (n < 15) return phys32(t.tcb + info_[kTcbRegs] + 4 * n);
  if (n == 15) return phys32(t.tcb + info_[kTcbUsp]);
  if (n == 16) return phys16(t.tcb + info_[kTcbFrame]);
  return phys32(t.tcb + info_[kTcbFrame] + 2);
}

bool GdbTarget::set_thread_reg(uint32_t id, int n, uint32_t v) {
  Thread t;
  if (id == kCpuThread || !find_thread(id, t) || live(t)) {
    set_reg(n, v);
    return true;
  }
  uint32_t a = n < 15 ? t.tcb + info_[kTcbRegs] + 4 * n
                      : n == 15 ? t.tcb + info_[kTcbUsp] : t.tcb + info_[kTcbFrame] + (n == 16 ? 0 : 2);
  uint8_t b[4] = {uint8_t(v >> 24), uint8_t(v >> 16), uint8_t(v >> 8), uint8_t(v)};
  if (n == 16) return board_.cpu().debug_access(true, a, b + 2, 2, m68k::FC_SUPERVISOR_DATA) == 2;
  return board_.cpu().debug_access(true, a, b, 4, m68k::FC_SUPERVISOR_DATA) == 4;
}

// A user address of thread t's process: its page table (ASID = pid), walked here.
bool GdbTarget::translate(const Thread& t, uint32_t va, uint32_t& pa) {
  uint32_t page = va >> TB_PAGE_SHIFT;
  if (!t.ptable || page >= info_[kUserPages]) return false;
  uint32_t pte = phys32(t.ptable + 4 * page);
  if (!(pte & TB_MMU_PTE_VALID) || !(pte & TB_MMU_PTE_USER)) return false;
  pa = (pte & TB_MMU_PTE_FRAME) | (va & (TB_PAGE_SIZE - 1));
  return true;
}

unsigned GdbTarget::user_access(const Thread& t, bool write, uint32_t addr, uint8_t* buf, unsigned len) {
  unsigned done = 0;
  while (done < len) {
    uint32_t va = addr + done, pa;
    unsigned n = std::min<unsigned>(len - done, TB_PAGE_SIZE - (va & (TB_PAGE_SIZE - 1)));
    if (!translate(t, va, pa)) break;
    unsigned got = board_.cpu().debug_access(write, pa, buf + done, n, m68k::FC_SUPERVISOR_DATA);
    done += got;
    if (got < n) break;
  }
  if (write && done) memory_written_ = true;
  return done;
}

unsigned GdbTarget::thread_read(uint32_t id, uint32_t addr, uint8_t* buf, unsigned len, bool& handled) {
  Thread t;
  handled = id != kCpuThread && find_thread(id, t);
  return handled ? user_access(t, false, addr, buf, len) : 0;
}

unsigned GdbTarget::thread_write(uint32_t id, uint32_t addr, const uint8_t* buf, unsigned len, bool& handled) {
  Thread t;
  handled = id != kCpuThread && find_thread(id, t);
  if (!handled) return 0;
  std::vector<uint8_t> tmp(buf, buf + len);
  return user_access(t, true, addr, tmp.data(), len);
}

}  // namespace testbed::gdb
