// What a CPU tells the world about itself -- bus cycles and IPL changes to the bus observer (the
// bus VCD), lines of the instruction trace, instructions for the cycle profile -- goes through
// one log. Outside exact mode each
// record is passed on at once; in exact mode it waits for the commit that makes it certain,
// in the order it was made, and a rollback drops it with the run that made it.
#pragma once
#include "bus_observer.h"
#include "cycle_profile.h"
#include "replayed_output.h"
#include "state_archive.h"  // hw/bus

#include <systemc>

#include <cstdio>
#include <string>
#include <vector>

namespace testbed {

class CommitLog {
 public:
  void set_observer(BusObserver* o) { observer_ = o; }
  void set_trace(std::FILE* out) { trace_ = out; }
  void set_profile(CycleProfile* p) { profile_ = p; }
  bool observed() const { return observer_ != nullptr; }
  bool tracing() const { return trace_ != nullptr; }
  bool profiling() const { return profile_ != nullptr; }
  // Exact mode: records wait for flush() (a commit) or drop() (a rollback).
  void set_deferred(bool on) { deferred_ = on; }

  void bus_cycle(const BusCycleRecord& r) {
    if (deferred_) records_.push_back(Record{Record::kBus, r, r.start, 0, {}});
    else observer_->bus_cycle(r);
  }
  void ipl(const sc_core::sc_time& t, int level) {
    if (deferred_) records_.push_back(Record{Record::kIpl, {}, t, level, {}});
    else observer_->ipl(t, level);
  }
  void trace(const sc_core::sc_time& t, const char* line) {
    if (deferred_) records_.push_back(Record{Record::kTrace, {}, t, 0, line});
    else put_trace(line);
  }
  // One per committed instruction of a profiled CPU: t is kernel time in sc_time's units
  // (sc_time::value()), kept raw and apart from the other records (they go to the profile
  // alone): a profiled run makes one every instruction.
  void instruction(uint64_t t, uint32_t pc, bool supervisor, uint64_t cycle) {
    if (deferred_) instructions_.push_back(Instruction{t, cycle, pc, supervisor});
    else profile_->instruction(pc, supervisor, cycle);
  }
  // Passes on what was recorded up to `until` in order; what lies beyond is dropped (a run that
  // ends while the CPU is ahead: the part after the end never happened).
  void flush(const sc_core::sc_time& until);
  void drop() {
    records_.clear();
    instructions_.clear();
  }
  bool empty() const { return records_.empty() && instructions_.empty(); }
  // The records not yet told (exact mode keeps them until the run that made them commits).
  void state(StateArchive& a) {
    a.section("commit log");
    uint64_t n = records_.size();
    a.io(n);
    if (a.loading()) records_.assign(size_t(n), Record{});
    for (Record& r : records_) {
      a.io(r.kind).io(r.time).io(r.level).io(r.text);
      BusCycleRecord& b = r.bus;
      a.io(b.start).io(b.duration).io(b.address).io(b.data).io(b.fc).io(b.write).io(b.byte).io(b.bus_error);
    }
    uint64_t m = instructions_.size();
    a.io(m);
    if (a.loading()) instructions_.assign(size_t(m), Instruction{});
    for (Instruction& x : instructions_) a.io(x.time).io(x.cycle).io(x.pc).io(x.supervisor);
  }

 private:
  struct Record {
    enum Kind { kBus, kIpl, kTrace } kind = kBus;
    BusCycleRecord bus{};
    sc_core::sc_time time;
    int level = 0;
    std::string text;
  };
  struct Instruction {
    uint64_t time = 0, cycle = 0;
    uint32_t pc = 0;
    bool supervisor = false;
  };
  // A line of the trace, written once however often time travel runs its stretch again.
  void put_trace(const char* line) {
    size_t n = std::char_traits<char>::length(line), skip = size_t(trace_written_.skip(n));
    if (skip < n) std::fputs(line + skip, trace_);
  }
  output::Replayed trace_written_;
  std::vector<Record> records_;
  std::vector<Instruction> instructions_;
  BusObserver* observer_ = nullptr;
  std::FILE* trace_ = nullptr;
  CycleProfile* profile_ = nullptr;
  bool deferred_ = false;
};

}  // namespace testbed
