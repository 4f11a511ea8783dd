// m68k-vectors DIR [--known FILE] [--write-known FILE] [--show N] [--only NAME]
//
// Runs the single-instruction 68000 reference vectors (../shared/m68000-tests/v1, format in its
// FORMAT.md) on the core in MC68000 mode. Each test is checked for D0-D7, A0-A6, USP, SSP, SR,
// PC (the prefetch address), the prefetch queue, every RAM word the vector lists and the cycle
// count. With --known, the run fails on any failure not in the list and on any listed failure
// that now passes, so the list can only shrink.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <dirent.h>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "m68k_cpu.h"
#include "m68k_sr.h"
#include "tool_args.h"
#include "host_file.h"
#include "version.h"

namespace {

struct State {
  uint32_t r[19];  // d0..d7, a0..a6, usp, ssp, sr, pc
  uint32_t prefetch[2];
  std::vector<std::pair<uint32_t, uint16_t>> ram;
};
struct Test {
  std::string name;
  State before, after;
  uint32_t cycles = 0;
};

class Reader {
 public:
  explicit Reader(std::vector<uint8_t> d) : d_(std::move(d)) {}
  uint32_t u32() {
    need(4);
    uint32_t v = d_[p_] | d_[p_ + 1] << 8 | d_[p_ + 2] << 16 | (uint32_t)d_[p_ + 3] << 24;
    p_ += 4;
    return v;
  }
  uint16_t u16() {
    need(2);
    uint16_t v = (uint16_t)(d_[p_] | d_[p_ + 1] << 8);
    p_ += 2;
    return v;
  }
  std::string str(size_t n) {
    need(n);
    std::string s(reinterpret_cast<const char*>(&d_[p_]), n);
    p_ += n;
    return s;
  }
  size_t pos() const { return p_; }
  void seek(size_t p) { p_ = p; }
  bool ok() const { return ok_; }

 private:
  void need(size_t n) {
    if (p_ + n > d_.size()) {
      ok_ = false;
      p_ = d_.size() - n;  // keep reads in bounds; the caller checks ok()
    }
  }
  std::vector<uint8_t> d_;
  size_t p_ = 0;
  bool ok_ = true;
};

bool read_state(Reader& rd, State& s) {
  rd.u32();
  if (rd.u32() != 0x01234567) return false;
  for (auto& v : s.r) v = rd.u32();
  s.prefetch[0] = rd.u32();
  s.prefetch[1] = rd.u32();
  uint32_t n = rd.u32();
  s.ram.resize(n);
  for (auto& w : s.ram) {
    w.first = rd.u32();
    w.second = rd.u16();
  }
  return rd.ok();
}

bool load_file(const std::string& path, std::vector<Test>& tests) {
  std::vector<uint8_t> data;
  try {
    data = testbed::read_host_file(path);
  } catch (const testbed::HostFileError&) {
    return false;
  }
  if (data.size() < 8) return false;
  Reader rd(std::move(data));
  if (rd.u32() != 0x1A3F5D71) return false;
  uint32_t count = rd.u32();
  tests.resize(count);
  for (auto& t : tests) {
    size_t start = rd.pos();
    uint32_t bytes = rd.u32();
    if (rd.u32() != 0xABC12367) return false;
    rd.u32();
    if (rd.u32() != 0x89ABCDEF) return false;
    t.name = rd.str(rd.u32());
    if (!read_state(rd, t.before) || !read_state(rd, t.after)) return false;
    rd.u32();
    if (rd.u32() != 0x456789AB) return false;
    t.cycles = rd.u32();
    rd.seek(start + bytes);
    if (!rd.ok()) return false;
  }
  return true;
}

// 16 MB flat memory on the fast path; the Bus only sees what the pages do not cover (nothing).
class NullBus : public m68k::Bus {
 public:
  m68k::BusResponse read(const m68k::BusAccess&, uint16_t& d, uint32_t&) override {
    d = 0;
    return m68k::BusResponse::Ok;
  }
  m68k::BusResponse write(const m68k::BusAccess&, uint16_t, uint32_t&) override {
    return m68k::BusResponse::Ok;
  }
};

const char* kRegNames[19] = {"D0", "D1", "D2", "D3", "D4", "D5", "D6", "D7", "A0", "A1",
                             "A2", "A3", "A4", "A5", "A6", "USP", "SSP", "SR", "PC"};

std::string run_one(m68k::Cpu& cpu, std::vector<uint8_t>& mem, const Test& t) {
  for (auto& w : t.before.ram) {
    mem[w.first & 0xFFFFFF] = (uint8_t)(w.second >> 8);
    mem[(w.first + 1) & 0xFFFFFF] = (uint8_t)w.second;
  }
  auto& r = cpu.regs();
  const uint32_t* b = t.before.r;
  for (int i = 0; i < 8; i++) r.d[i] = b[i];
  for (int i = 0; i < 7; i++) r.a[i] = b[8 + i];
  r.usp = b[15];
  r.ssp = b[16];
  r.sr = (uint16_t)b[17];
  r.a[7] = (r.sr & m68k::kSrSupervisor) ? r.ssp : r.usp;
  r.pc = b[18] - 4;
  cpu.load_prefetch((uint16_t)t.before.prefetch[0], (uint16_t)t.before.prefetch[1]);
  cpu.clear_halt();
  uint64_t c0 = cpu.cycles();
  cpu.run_until(c0 + 1);
  uint64_t took = cpu.cycles() - c0;

  std::string err;
  char buf[160];
  uint32_t got[19];
  for (int i = 0; i < 8; i++) got[i] = r.d[i];
  for (int i = 0; i < 7; i++) got[8 + i] = r.a[i];
  got[15] = r.usp;
  got[16] = r.ssp;
  got[17] = r.sr;
  got[18] = r.pc + 4;
  for (int i = 0; i < 19; i++) {
    uint32_t want = t.after.r[i];
    if (i == 18) {
      got[i] &= 0xFFFFFF;
      want &= 0xFFFFFF;
    }
    if (got[i] != want) {
      // The value before the instruction too: it is what a diagnosis needs first.
      std::snprintf(buf, sizeof buf, " %s=%08X(want %08X, was %08X)", kRegNames[i], got[i], want,
                    t.before.r[i]);
      err += buf;
    }
  }
  if (cpu.ird() != (uint16_t)t.after.prefetch[0] || cpu.irc() != (uint16_t)t.after.prefetch[1]) {
    std::snprintf(buf, sizeof buf, " queue=%04X,%04X(want %04X,%04X)", cpu.ird(), cpu.irc(),
                  t.after.prefetch[0] & 0xFFFF, t.after.prefetch[1] & 0xFFFF);
    err += buf;
  }
  for (auto& w : t.after.ram) {
    uint16_t v = (uint16_t)(mem[w.first & 0xFFFFFF] << 8 | mem[(w.first + 1) & 0xFFFFFF]);
    if (v != w.second) {
      std::snprintf(buf, sizeof buf, " [%06X]=%04X(want %04X)", w.first, v, w.second);
      err += buf;
    }
  }
  if (took != t.cycles) {
    std::snprintf(buf, sizeof buf, " cycles=%llu(want %u)", (unsigned long long)took, t.cycles);
    err += buf;
  }
  // Leave memory zeroed for the next test.
  for (auto& w : t.before.ram) mem[w.first & 0xFFFFFF] = mem[(w.first + 1) & 0xFFFFFF] = 0;
  for (auto& w : t.after.ram) mem[w.first & 0xFFFFFF] = mem[(w.first + 1) & 0xFFFFFF] = 0;
  return err;
}

}  // namespace

int main(int argc, char** argv) {
  if (testbed::version_requested(argc, argv, "m68k-vectors")) return 0;
  std::string dir, known_path, write_known, only;
  int show = 0;
  for (int i = 1; i < argc; i++) {
    std::string a = argv[i];
    if (a == "-h" || a == "--help") {
      std::printf("usage: m68k-vectors DIR [--known FILE] [--write-known FILE] [--show N] [--only FILE]\n"
                  "  runs the CPU reference vectors (*.json.bin) in DIR; --show N prints the first N failures "
                  "(0..1000000)\n");
      return 0;
    }
    if ((a == "--known" || a == "--write-known" || a == "--show" || a == "--only") && i + 1 >= argc)
      testbed::tool_args::refuse("m68k-vectors", a + " needs a value");
    if (a == "--known" && i + 1 < argc) known_path = argv[++i];
    else if (a == "--write-known" && i + 1 < argc) write_known = argv[++i];
    else if (a == "--show" && i + 1 < argc) show = int(testbed::tool_args::whole("m68k-vectors", "--show", argv[++i], 0, 1000000));
    else if (a == "--only" && i + 1 < argc) only = argv[++i];
    else if (!a.empty() && a[0] == '-') testbed::tool_args::refuse("m68k-vectors", "unknown option " + a);
    else if (!dir.empty()) testbed::tool_args::refuse("m68k-vectors", "more than one DIR");
    else dir = a;
  }
  if (dir.empty()) {
    std::fprintf(stderr, "usage: m68k-vectors DIR [--known FILE] [--write-known FILE] [--show N] [--only FILE]\n");
    return 2;
  }
  std::vector<std::string> files;
  if (DIR* d = opendir(dir.c_str())) {
    while (dirent* e = readdir(d)) {
      std::string n = e->d_name;
      if (n.size() > 9 && n.compare(n.size() - 9, 9, ".json.bin") == 0) files.push_back(n);
    }
    closedir(d);
  }
  if (files.empty()) {
    std::fprintf(stderr, "m68k-vectors: no *.json.bin vectors in '%s' (is TESTBED_SHARED_DIR right?)\n",
                 dir.c_str());
    std::printf("vectors: 0 passed, 0 failed, 0 skipped\n");
    return 1;
  }
  std::sort(files.begin(), files.end());

  std::set<std::string> known;
  if (!known_path.empty()) {
    std::ifstream kf(known_path);
    if (!kf) {
      std::fprintf(stderr, "m68k-vectors: cannot read known-failures list %s\n", known_path.c_str());
      return 1;
    }
    std::string line;
    while (std::getline(kf, line))
      if (!line.empty() && line[0] != '#') known.insert(line);
  }

  std::vector<uint8_t> mem(1 << 24, 0);
  NullBus bus;
  m68k::Cpu cpu(bus, m68k::Model::MC68000);
  cpu.map_fast(m68k::Space::User, 0, 1 << 24, mem.data(), true);
  cpu.map_fast(m68k::Space::Supervisor, 0, 1 << 24, mem.data(), true);

  uint64_t passed = 0, failed = 0, skipped = 0, unverified_pass = 0, unverified_fail = 0;
  std::vector<std::string> failures;
  int bad_files = 0;
  for (auto& f : files) {
    if (!only.empty() && f.rfind(only, 0) != 0) continue;
    std::vector<Test> tests;
    if (!load_file(dir + "/" + f, tests)) {
      std::printf("%-22s unreadable\n", f.c_str());
      bad_files++;
      continue;
    }
    uint64_t p = 0, fl = 0;
    int shown = 0;
    for (auto& t : tests) {
      std::string err = run_one(cpu, mem, t);
      if (err.empty()) {
        p++;
      } else {
        fl++;
        failures.push_back(f + "\t" + t.name);
        if (shown < show) {
          std::printf("  FAIL %s:%s\n", t.name.c_str(), err.c_str());
          shown++;
        }
      }
    }
    // The vector set's own README says its TAS timing and TRAPV results are not verified.
    bool unverified = f.rfind("TAS.", 0) == 0 || f.rfind("TRAPV.", 0) == 0;
    std::printf("%-22s %5llu passed %5llu failed%s\n", f.c_str(), (unsigned long long)p,
                (unsigned long long)fl, unverified ? "  (unverified by the vector set)" : "");
    passed += p;
    failed += fl;
    if (unverified) {
      unverified_pass += p;
      unverified_fail += fl;
    }
  }
  if (!write_known.empty()) {
    std::ofstream out(write_known);
    out << "# Known failing 68000 vectors (file<TAB>test name); the list may only shrink.\n";
    for (auto& s : failures) out << s << "\n";
  }
  int rc = bad_files ? 1 : 0;
  if (!known_path.empty()) {
    std::set<std::string> now(failures.begin(), failures.end());
    uint64_t fresh = 0, fixed = 0;
    for (auto& s : now)
      if (!known.count(s)) {
        if (fresh < 20) std::printf("NEW FAILURE: %s\n", s.c_str());
        fresh++;
      }
    for (auto& s : known)
      if (!now.count(s) && (only.empty() || s.rfind(only, 0) == 0)) {
        if (fixed < 20) std::printf("NOW PASSES (remove from list): %s\n", s.c_str());
        fixed++;
      }
    std::printf("known-failures check: %llu new failures, %llu listed failures now pass\n",
                (unsigned long long)fresh, (unsigned long long)fixed);
    if (fresh || fixed) rc = 1;
  } else if (failed) {
    rc = 1;
  }
  std::printf("TAS+TRAPV (unverified by the vector set): %llu passed, %llu failed\n",
              (unsigned long long)unverified_pass, (unsigned long long)unverified_fail);
  std::printf("vectors: %llu passed, %llu failed, %llu skipped\n", (unsigned long long)passed,
              (unsigned long long)failed, (unsigned long long)skipped);
  return rc;
}
