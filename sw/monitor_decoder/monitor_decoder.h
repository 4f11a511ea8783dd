// Host decoder for the MMI word stream (formats: README.md in this folder).
// Input: the 32-bit values the master reads from the MMI (move.l of DATA_HI:DATA_LO), big-endian.
// Output: per-SMI time stamps re-united with their events, absolute times rebuilt from the 0xAAnn
// wrap markers, time-ordered. A stream that breaks the rules stops the decoding at the offending
// word and says where; nothing is guessed or invented.
#pragma once
#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

namespace testbed::monitor_decoder {

struct Options {
  unsigned n_smi = 5;          // valid sources 1..n_smi
  uint64_t tick_ps = 1000000;  // one time-stamp tick (default 1 us)
};

struct Event {
  uint64_t ticks;    // absolute time stamp: wraps * 65536 + ts
  unsigned board;    // source SMI (slave board number)
  uint16_t word;     // event word (or the wrap marker 0xAAnn, the filter marker 0xABnn)
  bool marker;       // a wrap or filter marker (not an event)
  uint64_t offset;   // word offset of the event word in the stream
};

struct Result {
  std::vector<Event> events;     // time-ordered (ticks, then board, then stream order)
  uint64_t words = 0;            // words consumed
  uint64_t empty_reads = 0;      // reads that found the MMI empty (skipped)
  uint64_t markers = 0;          // wrap markers
  // Filter markers 0xABnn: SMI `board`'s event filter settings changed at `ticks` (nn = the
  // filter's generation): from there the trace holds what the new settings pass. Events the
  // filter dropped are not in the stream and not lost: the master reads how many (FLT_FILTERED).
  struct FilterChange {
    uint64_t ticks;
    unsigned board;
    unsigned generation;
  };
  std::vector<FilterChange> filter_changes;
  bool ok = true;
  std::string error;             // what broke, with its word offset
  uint64_t error_offset = 0;     // word offset (byte offset = 4x) where it broke
  bool truncated = false;        // the break is the end of the stream (a pair or word cut short)
  uint64_t events_excluding_markers() const { return events.size() - markers - filter_changes.size(); }
};

Result decode(const std::vector<uint32_t>& words, const Options& opt);
// Reads big-endian u32s; a length that is not a multiple of 4 is reported as truncated.
Result decode_bytes(const std::vector<uint8_t>& bytes, const Options& opt);

std::string event_name(uint16_t word);  // from the generated event table (testbed/events.h)

// The local-communication FSM of seed 000 Figure 5 (section 3.2.2), per board, over decoded
// events: TRAP7 (a thread asks to communicate) ... TRAP70 (it is served and blocks), then
// TRAP7 (its partner asks) ... TRAP72 (the message is copied and both are released): one occam
// message. Only TRAP7 / TRAP70 / TRAP72 move the FSM (argument words of variable-length events
// are skipped); an event it does not expect in its state (an error return leaves a TRAP7
// alone; a trace cut in the middle; several channels busy at once on one board) counts as a
// broken sequence and the FSM starts again from that event.
struct PhaseStats {  // durations in ticks
  uint64_t count = 0, min = 0, max = 0, sum = 0;
  void add(uint64_t ticks);
  double mean() const { return count ? double(sum) / double(count) : 0.0; }
};
struct LocalComms {
  uint64_t messages = 0;  // complete TRAP7 TRAP70 TRAP7 TRAP72 sequences
  uint64_t broken = 0;    // sequences abandoned
  bool open = false;      // the trace ends inside a sequence
  PhaseStats first;       // service of the first request: TRAP7 -> TRAP70
  PhaseStats second;      // service of the second request, the copy included: TRAP7 -> TRAP72
  PhaseStats total;       // total communication time: first TRAP7 -> TRAP72
};
// Index = board (0 unused), boards 1..n_smi.
std::vector<LocalComms> local_comms(const Result& r, unsigned n_smi);

void write_text(std::ostream& out, const Result& r, const Options& opt);
void write_binary(std::ostream& out, const Result& r, const Options& opt);
void write_vcd(std::ostream& out, const Result& r, unsigned board, const Options& opt);

}  // namespace testbed::monitor_decoder
