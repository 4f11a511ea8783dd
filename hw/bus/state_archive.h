// testbed::StateArchive: a model's state in a machine snapshot, saved and restored by one function
// per model that names each field once (as Dolphin's PointerWrap and MAME's save states do), so
// that what is saved and what is restored cannot drift apart:
//
//   void Timer::state(StateArchive& a) {
//     a.section("timer");              // checked on restore: a model read out of turn is named
//     a.io(ctrl_).io(status_).io(next_expiry_);
//     if (a.loading()) schedule();     // what follows from the fields (kernel events) is redone
//   }
//
// The bytes are the host's (a snapshot is restored by the build that wrote it: the file says
// which, sim/snapshot/snapshot_file.h). A restore that runs out of bytes, or finds another
// section than the one it expects, throws StateError naming both.
#pragma once
#include <systemc>

#include <array>
#include <cstdint>
#include <cstring>
#include <deque>
#include <map>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace testbed {

struct StateError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class StateArchive {
 public:
  // An archive that saves the machine as it is now into data().
  StateArchive() : when_(sc_core::sc_time_stamp()) {}
  // An archive that restores from `bytes` (kept by the caller while it is used) a machine saved
  // at kernel time `when`.
  StateArchive(const std::vector<uint8_t>& bytes, sc_core::sc_time when) : in_(&bytes), when_(when) {}

  bool loading() const { return in_ != nullptr; }
  // The kernel time of the snapshot. A restored machine starts its kernel at 0: each process
  // first waits until this time, then goes on from where it was (nothing of the machine runs
  // before it).
  sc_core::sc_time when() const { return when_; }
  const std::vector<uint8_t>& data() const { return out_; }

  // Names what follows. Saved as text and compared on restore.
  StateArchive& section(const std::string& name) {
    std::string s = name;
    io(s);
    if (loading() && s != name)
      throw StateError("snapshot: expected the state of '" + name + "', found '" + s + "' (the snapshot and the machine built to restore it differ)");
    last_ = name;
    return *this;
  }
  // Every byte read: the machine took all of the snapshot's state.
  void finish() const {
    if (loading() && pos_ != in_->size())
      throw StateError("snapshot: " + std::to_string(in_->size() - pos_) + " bytes of state left after '" + last_ +
                       "' (the snapshot holds more than this machine)");
  }

  template <class T, std::enable_if_t<std::is_arithmetic_v<T> || std::is_enum_v<T>, int> = 0>
  StateArchive& io(T& v) {
    return raw(&v, sizeof v);
  }
  StateArchive& io(sc_core::sc_time& t) {
    sc_dt::uint64 v = t.value();
    io(v);
    if (loading()) t = sc_core::sc_time::from_value(v);
    return *this;
  }
  StateArchive& io(std::string& s) {
    uint64_t n = s.size();
    io(n);
    if (loading()) {
      need(n);
      s.assign(reinterpret_cast<const char*>(in_->data() + pos_), size_t(n));
      pos_ += size_t(n);
    } else {
      out_.insert(out_.end(), s.begin(), s.end());
    }
    return *this;
  }
  template <class A, class B> StateArchive& io(std::pair<A, B>& p) { return io(p.first).io(p.second); }
  template <class T, size_t N> StateArchive& io(std::array<T, N>& v) {
    for (T& x : v) io(x);
    return *this;
  }
  template <class T, size_t N> StateArchive& io(T (&v)[N]) {
    for (T& x : v) io(x);
    return *this;
  }
  template <class C> StateArchive& seq(C& c) {
    uint64_t n = c.size();
    io(n);
    if (loading()) {
      if (n > in_->size() - pos_) short_of(n);  // every element takes at least a byte
      c.clear();
      c.resize(size_t(n));
    }
    for (auto& x : c) io(x);
    return *this;
  }
  template <class T> StateArchive& io(std::vector<T>& v) {
    if constexpr (std::is_arithmetic_v<T>) {
      uint64_t n = v.size();
      io(n);
      if (loading()) {
        need(n * sizeof(T));
        v.resize(size_t(n));
      }
      return raw(v.data(), v.size() * sizeof(T));
    } else {
      return seq(v);
    }
  }
  template <class T> StateArchive& io(std::deque<T>& v) { return seq(v); }
  template <class K, class V> StateArchive& io(std::map<K, V>& m) {
    uint64_t n = m.size();
    io(n);
    if (!loading()) {
      for (auto& kv : m) {
        K k = kv.first;
        io(k).io(kv.second);
      }
      return *this;
    }
    if (n > in_->size() - pos_) short_of(n);
    m.clear();
    for (uint64_t i = 0; i < n; ++i) {
      K k{};
      V v{};
      io(k).io(v);
      m.emplace(std::move(k), std::move(v));
    }
    return *this;
  }
  // A block of a fixed size the machine already has (a RAM).
  StateArchive& raw(void* p, size_t n) {
    if (loading()) {
      need(n);
      if (n == 0) return *this;  // an empty vector's data() may be null: memcpy must not see it
      std::memcpy(p, in_->data() + pos_, n);
      pos_ += n;
    } else {
      const uint8_t* b = static_cast<const uint8_t*>(p);
      out_.insert(out_.end(), b, b + n);
    }
    return *this;
  }
  // A value the machine has already and must equal (a RAM's size, a board's name): a snapshot
  // of another machine is refused with both values.
  template <class T> StateArchive& expect(const char* what, T v) {
    T s = v;
    io(s);
    if (loading() && s != v)
      throw StateError("snapshot: " + last_ + ": " + what + " is " + std::to_string(s) + " in the snapshot, " +
                       std::to_string(v) + " in this machine");
    return *this;
  }

 private:
  void need(uint64_t n) const {
    if (n > in_->size() - pos_) short_of(n);
  }
  [[noreturn]] void short_of(uint64_t n) const {
    throw StateError("snapshot: the state of '" + last_ + "' is cut short (" + std::to_string(n) + " bytes wanted, " +
                     std::to_string(in_->size() - pos_) + " left)");
  }
  const std::vector<uint8_t>* in_ = nullptr;
  sc_core::sc_time when_;
  size_t pos_ = 0;
  std::vector<uint8_t> out_;
  std::string last_ = "(start)";
};

}  // namespace testbed
