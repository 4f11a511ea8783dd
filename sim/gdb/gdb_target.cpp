#include "gdb_target.h"
#include "rsp_server.h"

#include <testbed/memory_map.h>

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
    bool was = r.sr & 0x2000, now = sr & 0x2000;
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
  // Off the fast path: every access to these pages comes through access().
  uint32_t first = addr & ~uint32_t(TB_PAGE_SIZE - 1), last = (addr + len - 1) & ~uint32_t(TB_PAGE_SIZE - 1);
  for (uint64_t p = first; p <= last; p += TB_PAGE_SIZE) {
    core().unmap_fast(m68k::Space::User, uint32_t(p), TB_PAGE_SIZE);
    core().unmap_fast(m68k::Space::Supervisor, uint32_t(p), TB_PAGE_SIZE);
  }
  return true;
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
  update_check();
}

void GdbTarget::update_check() {
  if (breaks_.empty() && !stepping_) core().set_break_check(nullptr);
  else core().set_break_check([this](uint32_t pc, bool s) { return check(pc, s); });
}

// Before each instruction while breakpoints are set or a step is under way. The instruction the
// board resumes at runs (its breakpoint is the one it stopped at); a step stops before the next.
bool GdbTarget::check(uint32_t pc, bool supervisor) {
  bool first = first_;
  first_ = false;
  if (stepping_ && !first) {
    stop_ = StopKind::Step;
    return true;
  }
  if (first && pc == resume_pc_) return false;
  for (const Point& b : breaks_)
    if (b.addr == pc && matches(b.space, supervisor)) {
      stop_ = StopKind::Breakpoint;
      stop_addr_ = pc;
      return true;
    }
  return false;
}

void GdbTarget::access(const m68k::BusAccess& a, unsigned len) {
  if (watches_.empty()) return;
  uint32_t addr = a.address & ((1u << TB_ADDRESS_BITS) - 1);
  bool sup = m68k::fc_is_supervisor(a.fc);
  if (a.fc == m68k::FC_CPU_SPACE || a.fc == m68k::FC_USER_PROGRAM || a.fc == m68k::FC_SUPERVISOR_PROGRAM) return;
  for (const Point& w : watches_) {
    if (!matches(w.space, sup)) continue;
    if (addr + len <= w.addr || addr >= w.addr + w.len) continue;
    bool hit = w.type == 4 || (w.type == 2 && a.write) || (w.type == 3 && !a.write);
    if (!hit || stop_ != StopKind::None) continue;
    stop_ = StopKind::Watchpoint;
    stop_addr_ = std::max(addr, w.addr);
    stop_watch_type_ = w.type;
    core().request_yield();  // the instruction completes, then the board stops
  }
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
  bool user = !(r.sr & 0x2000);
  board_.cpu().debug_access(false, r.pc, b, 4, user ? m68k::FC_USER_PROGRAM : m68k::FC_SUPERVISOR_PROGRAM);
  core().load_prefetch(uint16_t(b[0] << 8 | b[1]), uint16_t(b[2] << 8 | b[3]));
}

void GdbTarget::resume(bool step) {
  stepping_ = step;
  first_ = true;
  resume_pc_ = core().regs().pc;
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

}  // namespace testbed::gdb
