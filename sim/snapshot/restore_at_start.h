// Restores a machine from a snapshot once SystemC has finished elaborating it (devices a board
// fits in before_end_of_elaboration exist by then) and before any of its processes runs: in
// start_of_simulation. A refusal stops the simulation before its first instant; error() says why.
#pragma once
#include <systemc>

#include <functional>
#include <string>
#include <utility>

namespace testbed {

class RestoreAtStart : public sc_core::sc_module {
 public:
  RestoreAtStart(sc_core::sc_module_name name, std::function<void()> restore)
      : sc_module(name), restore_(std::move(restore)) {}
  const std::string& error() const { return error_; }

 private:
  void start_of_simulation() override {
    try {
      restore_();
    } catch (const std::exception& e) {
      error_ = e.what();
      sc_core::sc_stop();
    }
  }
  std::function<void()> restore_;
  std::string error_;
};

}  // namespace testbed
