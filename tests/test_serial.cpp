// Serial ports over TLM without a CPU: character timing at the baud rate, receive with flow
// control, interrupt lines, the console switch, and the host file service protocol.
#include <testbed/memory_map.h>

#include "address_decoder.h"
#include "board_tlm_harness.h"
#include "console_endpoints.h"
#include "file_service.h"
#include "serial_port.h"

#include <filesystem>
#include <fstream>
#include <vector>

using namespace testbed;
using namespace testbed_test;
using sc_core::sc_time;
using sc_core::SC_US;

namespace {

constexpr uint32_t S0 = TB_SERIAL0_BASE, S1 = TB_SERIAL1_BASE;

struct Bench {
  TestInitiator cpu{"cpu"};
  AddressDecoder decoder{"decoder", {{"S0", S0, TB_SERIAL0_SIZE}, {"S1", S1, TB_SERIAL1_SIZE}}};
  SerialPort s0{"s0", 9600};
  SerialPort s1{"s1", 38400};
  Harness h{"h"};
  bool irq0 = false;
  // Ports must not outlive a test's endpoints.
  void disconnect() {
    h.run([this] {
      s0.connect(nullptr);
      s1.connect(nullptr);
    });
  }
  Bench() {
    cpu.socket.bind(decoder.target);
    decoder.port("S0").bind(s0.socket);
    decoder.port("S1").bind(s1.socket);
    s0.irq_line().connect([this](bool l) { irq0 = l; });
    s1.irq_line().leave_open("the tests poll serial 1's STATUS");
  }
  void send(uint32_t base, uint8_t c) {
    while (!(cpu.rd(base + TB_SERIAL0_STATUS_OFF, 2) & 2)) wait(sc_time(10, SC_US));
    cpu.wr(base + TB_SERIAL0_DATA_OFF + 1, c, 1);  // byte write to the low byte
  }
  uint8_t get(uint32_t base) {
    while (!(cpu.rd(base + TB_SERIAL0_STATUS_OFF, 2) & 1)) wait(sc_time(10, SC_US));
    return uint8_t(cpu.rd(base + TB_SERIAL0_DATA_OFF, 2));
  }
};

Bench& bench() {
  static Bench b;
  return b;
}

// Checks that throw run first, before any SystemC thread has run: ASan without fiber
// annotations (SystemC 2.3.4's QuickThreads) misreads the stack after a coroutine switch when an
// exception unwinds.
TEST(Serial, BadSettingsAreRefused) {
  CaptureEndpoint host;
  ConsoleSwitch sw(host);
  EXPECT_THROW(sw.select(0), std::out_of_range);
  EXPECT_THROW(FileService("/nonexistent/dir", "/tmp"), std::runtime_error);
  EXPECT_THROW(SerialPort("slow", 10), std::invalid_argument);
}

TEST(Serial, TransmitTakesTenBitTimesPerCharacter) {
  Bench& b = bench();
  CaptureEndpoint cap;
  b.h.run([&] {
    b.s0.connect(&cap);
    sc_time t0 = sc_core::sc_time_stamp();
    for (char c : std::string("hello\n")) b.send(S0, uint8_t(c));
    sc_time took = sc_core::sc_time_stamp() - t0;
    // 5 characters had to wait for their predecessor: >= 5 character times at 9600 baud.
    EXPECT_GE(took, b.s0.char_time() * 5.0);
    EXPECT_LT(took, b.s0.char_time() * 5.0 + sc_time(60, SC_US)) << "polled every 10 us";
    uint32_t v = 'x';
    b.cpu.access(true, S0, v, 2);  // written while busy: lost, and reported
    EXPECT_EQ(b.cpu.rd(S0 + TB_SERIAL0_STATUS_OFF, 2) & 8, 8u);
    EXPECT_EQ(b.cpu.rd(TB_SERIAL0_BAUD - TB_SERIAL0_BASE + S0, 4), 9600u);
  });
  b.disconnect();
  EXPECT_EQ(cap.text(), "hello\n");
}

TEST(Serial, ReceiveWithFlowControlAndInterrupt) {
  Bench& b = bench();
  CaptureEndpoint cap;
  cap.type("ok");
  b.h.run([&] {
    b.cpu.wr(S0 + TB_SERIAL0_CTRL_OFF, 1, 2);  // RX_IRQ
    b.s0.connect(&cap);
    wait(b.s0.char_time() * 5.0);  // the host side sends only when the holding register is free
    EXPECT_TRUE(b.irq0);
    EXPECT_EQ(b.cpu.rd(S0 + TB_SERIAL0_STATUS_OFF, 2) & 1, 1u);
    EXPECT_EQ(b.cpu.rd(S0, 2), uint32_t('o'));
    EXPECT_FALSE(b.irq0) << "reading DATA clears RX_READY and the line";
    EXPECT_EQ(b.get(S0), 'k');
    b.cpu.wr(S0 + TB_SERIAL0_CTRL_OFF, 0, 2);
  });
  b.disconnect();
}

TEST(Serial, ConsoleSwitchRoutesOneHostSideToTheSelectedPort) {
  Bench& b = bench();
  CaptureEndpoint host;
  ConsoleSwitch sw(host);
  sw.add(b.s0);
  sw.add(b.s1);
  b.h.run([&] {
    b.send(S0, 'a');
    b.send(S1, 'b');
    sw.select(1);
    b.send(S0, 'c');
    b.send(S1, 'd');
  });
  b.disconnect();
  EXPECT_EQ(host.text(), "ad");
}

std::vector<uint8_t> request(uint8_t op, const std::string& name, const std::vector<uint8_t>& data) {
  std::vector<uint8_t> r{FileService::kRequestSync, op, uint8_t(name.size())};
  for (char c : name) r.push_back(uint8_t(c));  // (vector::insert trips a GCC 12 -Warray-bounds false positive)
  uint32_t n = uint32_t(data.size());
  for (int i = 3; i >= 0; --i) r.push_back(uint8_t(n >> (8 * i)));
  for (uint8_t c : data) r.push_back(c);
  uint8_t sum = 0;
  for (size_t i = 1; i < r.size(); ++i) sum = uint8_t(sum + r[i]);
  r.push_back(sum);
  return r;
}

TEST(Serial, FileServiceUploadsAndDownloadsOverTheLink) {
  Bench& b = bench();
  namespace fs = std::filesystem;
  fs::path dir = fs::temp_directory_path() / ("testbed_fs_" + std::to_string(::getpid()));
  fs::create_directories(dir / "in");
  fs::create_directories(dir / "out");
  { std::ofstream(dir / "in" / "data.txt") << "input file"; }
  FileService svc((dir / "in").string(), (dir / "out").string());
  std::vector<uint8_t> got, put_reply, bad_reply;
  b.h.run([&] {
    b.s1.connect(&svc);
    auto exchange = [&](const std::vector<uint8_t>& req, std::vector<uint8_t>& reply) {
      for (uint8_t c : req) b.send(S1, c);
      reply.clear();
      for (int i = 0; i < 6; ++i) reply.push_back(b.get(S1));
      uint32_t n = uint32_t(reply[2]) << 24 | uint32_t(reply[3]) << 16 | uint32_t(reply[4]) << 8 | reply[5];
      for (uint32_t i = 0; i <= n; ++i) reply.push_back(b.get(S1));
    };
    exchange(request('G', "data.txt", {}), got);
    exchange(request('P', "result.bin", {1, 2, 3, 0xFF}), put_reply);
    exchange(request('G', "../etc", {}), bad_reply);
  });
  b.disconnect();
  ASSERT_GE(got.size(), 7u);
  EXPECT_EQ(got[0], FileService::kReplySync);
  EXPECT_EQ(got[1], FileService::Ok);
  EXPECT_EQ(std::string(got.begin() + 6, got.end() - 1), "input file");
  uint8_t sum = 0;
  for (size_t i = 1; i + 1 < got.size(); ++i) sum = uint8_t(sum + got[i]);
  EXPECT_EQ(got.back(), sum);
  EXPECT_EQ(put_reply[1], FileService::Ok);
  std::ifstream f(dir / "out" / "result.bin", std::ios::binary);
  std::vector<char> out((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  EXPECT_EQ(out, (std::vector<char>{1, 2, 3, char(0xFF)}));
  EXPECT_EQ(bad_reply[1], FileService::BadName);
  fs::remove_all(dir);
}

}  // namespace
