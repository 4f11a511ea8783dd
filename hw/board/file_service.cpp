#include "file_service.h"

#include "host_file.h"
#include "output_errors.h"

#include <sys/stat.h>

#include <cctype>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <stdexcept>

namespace testbed {

namespace {
void require_dir(const std::string& d, const char* what) {
  struct stat st;
  if (::stat(d.c_str(), &st) != 0 || !S_ISDIR(st.st_mode))
    throw std::runtime_error(d + ": the file service's " + what + " folder does not exist");
}
}  // namespace

FileService::FileService(const std::string& upload_dir, const std::string& download_dir)
    : up_(upload_dir), down_(download_dir) {
  require_dir(up_, "upload");
  require_dir(down_, "download");
}

bool FileService::valid_name(const std::string& n) {
  if (n.empty() || n.size() > 64 || n[0] == '.') return false;
  for (char c : n)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '-')) return false;
  return true;
}

void FileService::progress(const char* what, uint64_t done, uint64_t total, const sc_core::sc_time& now) {
  Transfer& x = what[0] == 'u' ? get_ : put_;
  double after = (now - x.start).to_seconds();
  bool end = done >= total;
  if (end ? !x.shown : (after < 1.0 || (x.shown && (now - x.last_line).to_seconds() < 1.0))) return;
  // A terminal in raw mode (--interactive) does not return the carriage on '\n'.
  const char* eol = isatty(2) ? "\r\n" : "\n";
  char line[200];
  if (end)
    std::snprintf(line, sizeof line, "lan: %s %s: %.0f KB in %.1f s%s", what, x.name.c_str(), double(total) / 1024,
                  after, eol);
  else
    std::snprintf(line, sizeof line, "lan: %s %s: %.0f of %.0f KB (%.0f%%) after %.0f s%s", what, x.name.c_str(),
                  double(done) / 1024, double(total) / 1024, 100.0 * double(done) / double(total), after, eol);
  std::cerr << line << std::flush;
  x.shown = true;
  x.last_line = now;
}

void FileService::transmit(uint8_t b, const sc_core::sc_time& t) {
  ++bytes_;
  if (state_ != State::Sync && state_ != State::Check) sum_ = uint8_t(sum_ + b);
  switch (state_) {
    case State::Sync:
      if (b == kRequestSync) {
        state_ = State::Op;
        sum_ = 0;
        name_.clear();
        data_.clear();
        len_ = 0;
        len_bytes_ = 0;
        too_large_ = false;
      }
      return;
    case State::Op: op_ = b; state_ = State::NameLen; return;
    case State::NameLen:
      name_len_ = b;
      state_ = name_len_ ? State::Name : State::Len;
      return;
    case State::Name:
      name_ += char(b);
      if (name_.size() == name_len_) state_ = State::Len;
      return;
    case State::Len:
      len_ = len_ << 8 | b;
      if (++len_bytes_ == 4) {
        too_large_ = len_ > kMaxFile;
        state_ = len_ ? State::Data : State::Check;
        put_ = Transfer{name_, t, t, len_, 0, false};
      }
      return;
    case State::Data:
      if (!too_large_) data_.push_back(b);
      if (op_ == 'P') progress("download", ++put_.done, put_.total, t);
      if (--len_ == 0) state_ = State::Check;
      return;
    case State::Check:
      state_ = State::Sync;
      ++requests_;
      if (b != sum_) reply(BadChecksum);
      else handle();
      return;
  }
}

void FileService::handle() {
  if (op_ != 'G' && op_ != 'P') return reply(BadOp);
  if (!valid_name(name_)) return reply(BadName);
  if (too_large_) return reply(TooLarge);
  if (op_ == 'G') {
    std::vector<uint8_t> d;
    try {
      d = read_host_file(up_ + "/" + name_);
    } catch (const HostFileError&) {
      return reply(NoSuchFile);
    }
    if (d.size() > kMaxFile) return reply(TooLarge);
    reply(Ok, d);
    get_ = Transfer{name_, sc_core::sc_time_stamp(), sc_core::sc_time_stamp(), out_.size(), 0, false};
    return;
  }
  if (reserved_ && reserved_(name_)) {
    ++refused_;
    if (refused_names_.insert(name_).second)
      std::cerr << "testbed: the guest tried to write " << name_ << " over the LAN link: refused, the host writes "
                << "that file as one of its own results" << std::endl;
    return reply(Reserved);
  }
  received_.insert(name_);
  std::string path = down_ + "/" + name_;
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  if (f) f.write(reinterpret_cast<const char*>(data_.data()), std::streamsize(data_.size()));
  if (f.is_open()) f.close();  // the last write (a full disk) fails here
  if (!f) output::failed(path, "the file the guest sent over the LAN link could not be written");
  reply(f ? Ok : IoError);
}

// The protocol's state between bytes, and the files the guest stored (a restored run finds
// what the first run wrote there).
void FileService::state(StateArchive& a) {
  a.section("file service");
  for (Transfer* t : {&put_, &get_}) a.io(t->name).io(t->start).io(t->last_line).io(t->total).io(t->done).io(t->shown);
  a.io(state_).io(op_).io(sum_).io(name_len_).io(len_bytes_).io(name_).io(len_).io(too_large_).io(data_).io(out_);
  a.io(requests_).io(bytes_).io(refused_);
  for (std::set<std::string>* s : {&received_, &refused_names_}) {
    std::vector<std::string> v(s->begin(), s->end());
    a.io(v);
    if (a.loading()) *s = std::set<std::string>(v.begin(), v.end());
  }
  // The files the guest stored during the run go with it: a restored run's folder has them too.
  for (const std::string& name : received_) {
    std::string path = down_ + "/" + name;
    std::vector<uint8_t> bytes;
    if (!a.loading()) {
      try {
        bytes = read_host_file(path);
      } catch (const HostFileError& e) {
        throw StateError(std::string("snapshot: a file the guest stored is gone from the host's folder: ") + e.what());
      }
    }
    a.io(bytes);
    if (!a.loading()) continue;
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
    if (!out) throw StateError("snapshot: " + path + ": cannot write a file the guest had stored");
  }
}

void FileService::reply(uint8_t status, const std::vector<uint8_t>& data) {
  out_.push_back(kReplySync);
  uint8_t sum = status;
  out_.push_back(status);
  uint32_t n = uint32_t(data.size());
  for (int i = 3; i >= 0; --i) {
    uint8_t b = uint8_t(n >> (8 * i));
    out_.push_back(b);
    sum = uint8_t(sum + b);
  }
  for (uint8_t b : data) {
    out_.push_back(b);
    sum = uint8_t(sum + b);
  }
  out_.push_back(sum);
}

bool FileService::receive(uint8_t& byte) {
  if (out_.empty()) return false;
  byte = out_.front();
  out_.pop_front();
  ++bytes_;
  if (get_.total) {
    progress("upload", ++get_.done, get_.total, sc_core::sc_time_stamp());
    if (get_.done >= get_.total) get_ = Transfer{};
  }
  return true;
}

}  // namespace testbed
