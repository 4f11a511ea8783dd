// The host side of the master's LAN link (SERIAL1): a file service that lets firmware fetch
// files from a host folder and store result files into another. Protocol (all lengths
// big-endian; checksum = 8-bit sum of the bytes it follows, from the byte after the sync; the
// sync bytes are TB_FS_REQUEST_SYNC and TB_FS_REPLY_SYNC, sw/tables/file_service.toml):
//
//   request : REQUEST_SYNC  op  name_len  name[name_len]  len[4]  data[len]  checksum
//             op 'G' get a file (len 0), 'P' put a file (data = contents)
//   reply   : REPLY_SYNC  status  len[4]  data[len]  checksum
//             status 0 ok (G: data = contents), 1 no such file, 2 bad name, 3 bad checksum,
//             4 host I/O error, 5 too large, 6 unknown op, 7 a name the host keeps for its own
//             results (a 'P' the host refuses, so that a guest cannot plant a file the host
//             would then present as its own: set_reserved)
//
// Names are 1..64 characters of [A-Za-z0-9._-], not starting with '.': no paths. Files are
// at most 16 MB. Bytes before a sync byte are ignored (resynchronisation).
//
// A transfer that takes more than a second of simulated time (the link runs at about 3 KB/s)
// prints a progress line on stderr once a second and a last one when it is done:
//   lan: upload ping.elf: 12 of 40 KB (30%) after 4 s
//   lan: upload ping.elf: 40 KB in 13.1 s
#pragma once
#include "serial_endpoint.h"

#include <testbed/file_service_protocol.h>

#include <cstdint>
#include <deque>
#include <functional>
#include <set>
#include <string>
#include <vector>

namespace testbed {

class FileService : public SerialEndpoint {
 public:
  static constexpr uint8_t kRequestSync = TB_FS_REQUEST_SYNC, kReplySync = TB_FS_REPLY_SYNC;
  enum Status : uint8_t {
    Ok = 0, NoSuchFile = 1, BadName = 2, BadChecksum = 3, IoError = 4, TooLarge = 5, BadOp = 6, Reserved = 7
  };
  static constexpr uint32_t kMaxFile = 16u << 20;

  // `upload_dir`: where 'G' reads; `download_dir`: where 'P' writes. Both must exist
  // (std::runtime_error naming the folder otherwise).
  FileService(const std::string& upload_dir, const std::string& download_dir);

  void transmit(uint8_t byte, const sc_core::sc_time& t) override;
  bool receive(uint8_t& byte) override;
  bool has_input() const override { return true; }

  // Names the guest may not write ('P' answers Reserved, the refusal counted and said once per name).
  void set_reserved(std::function<bool(const std::string&)> reserved) { reserved_ = std::move(reserved); }
  // Whether the guest stored `name` during this run (a file of an earlier run is not this run's).
  bool received(const std::string& name) const { return received_.count(name) != 0; }
  uint64_t refused() const { return refused_; }

  void state(StateArchive& a) override;
  uint64_t requests() const { return requests_; }
  uint64_t bytes() const { return bytes_; }  // both ways
  static bool valid_name(const std::string& n);

 private:
  enum class State { Sync, Op, NameLen, Name, Len, Data, Check };
  void handle();
  void reply(uint8_t status, const std::vector<uint8_t>& data = {});
  // Progress of the transfer under way: `done` of `total` bytes at simulated time `now`.
  void progress(const char* what, uint64_t done, uint64_t total, const sc_core::sc_time& now);

  struct Transfer {
    std::string name;
    sc_core::sc_time start, last_line;
    uint64_t total = 0, done = 0;
    bool shown = false;
  };
  Transfer put_, get_;  // guest to host ('P', a download), host to guest ('G', an upload)

  std::string up_, down_;
  State state_ = State::Sync;
  uint8_t op_ = 0, sum_ = 0;
  unsigned name_len_ = 0, len_bytes_ = 0;
  std::string name_;
  uint32_t len_ = 0;
  bool too_large_ = false;
  std::vector<uint8_t> data_;
  std::deque<uint8_t> out_;
  uint64_t requests_ = 0, bytes_ = 0, refused_ = 0;
  std::function<bool(const std::string&)> reserved_;
  std::set<std::string> received_, refused_names_;
};

}  // namespace testbed
