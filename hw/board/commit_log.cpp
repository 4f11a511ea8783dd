#include "commit_log.h"

namespace testbed {

void CommitLog::flush(const sc_core::sc_time& until) {
  for (const Record& x : records_) {
    if (x.time > until) break;
    if (x.kind == Record::kBus) observer_->bus_cycle(x.bus);
    else if (x.kind == Record::kIpl) observer_->ipl(x.time, x.level);
    else put_trace(x.text.c_str());
  }
  records_.clear();
  for (const Instruction& x : instructions_) {
    if (x.time > until.value()) break;
    profile_->instruction(x.pc, x.supervisor, x.cycle);
  }
  instructions_.clear();
}

}  // namespace testbed
