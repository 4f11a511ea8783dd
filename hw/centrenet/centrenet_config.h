// Configuration of a Centrenet: the tree of nodes, the bus, the fibre links and the network
// interfaces. Everything that shapes timing is a parameter here; nothing is hard-coded in the
// models. The defaults are the Edinburgh Testbed: one node of six boards, 10 MB/s.
#pragma once
#include <systemc>

#include <cstdint>
#include <string>
#include <vector>

namespace testbed {
class Config;  // sw/config: a machine file
}

namespace testbed::centrenet {

// One node's bus.
struct BusParams {
  double rate_bytes_per_s = 10e6;  // "approximately 10 Mbytes/second" (seed 000, 2.1.1)
  // Fixed cost of every frame on the bus, on top of its bytes: arbitration, the address
  // cycle and the receiver's acknowledge. Chosen as 10 byte times at 10 MB/s (1 us); it is
  // a parameter because the Centrenet paper's exact figure is not in the seeds.
  sc_core::sc_time frame_overhead = sc_core::sc_time(1, sc_core::SC_US);
  // Bytes of framing sent with every frame (destination, source, length, check).
  unsigned frame_header_bytes = 8;
};

// One fibre link between a node and its parent (full duplex: one channel per direction).
struct FibreParams {
  double rate_bytes_per_s = 10e6;
  sc_core::sc_time hop_latency = sc_core::sc_time(2, sc_core::SC_US);  // propagation + repeater
  sc_core::sc_time frame_overhead = sc_core::SC_ZERO_TIME;             // per frame, serialiser
  unsigned frame_header_bytes = 8;
  unsigned buffer_frames = 4;  // frames a direction holds (in flight + waiting for the far bus)
};

// How far the network interface's DMA reaches (seed 000 section 3.4).
enum class DmaMode {
  k1994,       // only the controller's own buffer memory (in the NET window): software copies
  kAnywhere,   // all of RAM, through the NI's TLM initiator socket ("dma-anywhere")
};

const char* to_string(DmaMode m);
DmaMode dma_mode_from_string(const std::string& s);  // "1994" | "dma-anywhere"; throws

struct NiParams {
  DmaMode mode = DmaMode::k1994;
  unsigned input_queue_messages = 8;
  unsigned input_queue_bytes = 32768;
  unsigned output_queue_messages = 2;   // launched messages not yet taken by the bus
  unsigned max_message_bytes = 8192;    // header + operands + DMA data
  // DMA timing, per 16-bit word moved. Board RAM: one 68010-style bus cycle (4 clocks at
  // 10 MHz), during which the CPU cannot use memory. The controller's buffer memory is its
  // own fast static RAM, so the bus, not the buffer, limits a transfer.
  sc_core::sc_time ram_word_time = sc_core::sc_time(400, sc_core::SC_NS);
  sc_core::sc_time buffer_word_time = sc_core::sc_time(100, sc_core::SC_NS);
  unsigned dma_burst_bytes = 16;        // bytes per DMA b_transport (and per memory-port hold)
  // An access from a temporally decoupled initiator (an SC_THREAD running ahead of the kernel)
  // first waits until its own time, so the NI sees every register and buffer access at the
  // time it happens whatever the quantum: results do not depend on where CPUs synchronise.
  bool sync_accesses = true;
};

struct NodeConfig {
  int parent = -1;      // index of the parent node; -1 for the root (exactly one root)
  unsigned boards = 6;  // slots 0..boards-1 populated, at most 16
};

struct NetworkConfig {
  std::vector<NodeConfig> nodes{NodeConfig{}};
  BusParams bus;
  FibreParams fibre;
  NiParams ni;
  std::string vcd_file;  // non-empty: trace bus owner/frame/busy signals into this VCD file

  static constexpr unsigned kMaxBoardsPerNode = 16;
  static constexpr unsigned kMaxNodes = 255;  // node 0xFF is the broadcast address

  // The Testbed itself: one node, six boards.
  static NetworkConfig single_node(unsigned boards = 6);
  // `count` nodes, node i's parent is (i-1)/fanout: a balanced tree (fanout 1: a chain).
  static NetworkConfig tree(unsigned count, unsigned boards_per_node, unsigned fanout);

  // Throws std::invalid_argument naming the field and the problem.
  void validate() const;

  // One setting from the testbed's configuration file, by name; values are decimal numbers
  // (rates in bytes/s, times in ns) or, for ni.mode, "1994" / "dma-anywhere". Keys:
  //   nodes (resize; new nodes hang off node 0), node.<i>.parent, node.<i>.boards,
  //   bus.rate, bus.frame_overhead_ns, bus.frame_header_bytes,
  //   fibre.rate, fibre.hop_latency_ns, fibre.frame_overhead_ns, fibre.frame_header_bytes,
  //   fibre.buffer_frames, ni.mode, ni.input_queue_messages, ni.input_queue_bytes,
  //   ni.output_queue_messages, ni.max_message_bytes, ni.ram_word_ns, ni.buffer_word_ns,
  //   ni.dma_burst_bytes, vcd.
  // Throws std::invalid_argument naming the key (unknown key, malformed value).
  void set(const std::string& key, const std::string& value);
  // The machine file's [centrenet] settings (centrenet_settings.cpp): rate_mb_s,
  // frame_overhead_us, frame_header_bytes, fibre_rate_mb_s, hop_latency_us, dma,
  // input_queue_messages. A missing key keeps the value it has (the defaults above); a bad one
  // throws ConfigError naming file, line, key and range. The node tree is the machine's.
  void read(const testbed::Config& cfg);
};

}  // namespace testbed::centrenet
