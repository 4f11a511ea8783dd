// The ELF loader accepts the images the build produces and rejects malformed or mismatched
// ones with a message that names the file and the problem.
#include <gtest/gtest.h>

#include <elf.h>

#include "elf_loader.h"

using testbed::ElfError;
using testbed::parse_elf;

namespace {

// A minimal valid big-endian m68k executable with one PT_LOAD segment of `payload`.
std::vector<uint8_t> make_elf(uint32_t paddr, std::vector<uint8_t> payload, uint32_t memsz = 0) {
  std::vector<uint8_t> b(52 + 32, 0);
  auto put16 = [&](size_t o, uint16_t v) { b[o] = uint8_t(v >> 8); b[o + 1] = uint8_t(v); };
  auto put32 = [&](size_t o, uint32_t v) { put16(o, uint16_t(v >> 16)); put16(o + 2, uint16_t(v)); };
  b[0] = 0x7f; b[1] = 'E'; b[2] = 'L'; b[3] = 'F';
  b[EI_CLASS] = ELFCLASS32; b[EI_DATA] = ELFDATA2MSB; b[EI_VERSION] = EV_CURRENT;
  put16(16, ET_EXEC); put16(18, EM_68K); put32(20, EV_CURRENT); put32(24, paddr);
  put32(28, 52); put16(40, 52); put16(42, 32); put16(44, 1);
  put32(52, PT_LOAD); put32(56, 84); put32(60, paddr); put32(64, paddr);
  put32(68, uint32_t(payload.size())); put32(72, memsz ? memsz : uint32_t(payload.size())); put32(76, PF_R | PF_X);
  b.insert(b.end(), payload.begin(), payload.end());
  return b;
}

std::string error_of(const std::vector<uint8_t>& b) {
  try {
    parse_elf(b, "img.elf");
  } catch (const ElfError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST(ElfLoader, LoadsTheBuildsDemoImage) {
  auto img = testbed::load_elf(TESTBED_FIRMWARE_DIR "/demo.elf");
  ASSERT_FALSE(img.segments.empty());
  EXPECT_EQ(img.entry, img.symbol("_start"));
  EXPECT_EQ(img.segments.front().paddr, 0u);  // vectors at 0
  // Initial SSP in the first long word of the vector table is the symbol __stack_top.
  auto& v = img.segments.front().data;
  uint32_t ssp = uint32_t(v[0]) << 24 | v[1] << 16 | v[2] << 8 | v[3];
  EXPECT_EQ(ssp, img.symbol("__stack_top"));
}

TEST(ElfLoader, AcceptsMinimalImageAndZeroFillsBss) {
  auto img = parse_elf(make_elf(0x1000, {1, 2, 3, 4}, 16), "ok.elf");
  ASSERT_EQ(img.segments.size(), 1u);
  EXPECT_EQ(img.segments[0].memsz, 16u);
  EXPECT_EQ(img.segments[0].data.size(), 4u);
}

TEST(ElfLoader, RejectsNonElf) {
  EXPECT_NE(error_of({'h', 'e', 'l', 'l', 'o'}).find("truncated"), std::string::npos);
  std::vector<uint8_t> junk(100, 0x55);
  EXPECT_NE(error_of(junk).find("not an ELF"), std::string::npos);
}

TEST(ElfLoader, RejectsOtherMachine) {
  auto b = make_elf(0, {0, 0});
  b[19] = EM_386;
  auto e = error_of(b);
  EXPECT_NE(e.find("img.elf"), std::string::npos);
  EXPECT_NE(e.find("not m68k"), std::string::npos);
}

TEST(ElfLoader, RejectsLittleEndianAnd64Bit) {
  auto b = make_elf(0, {0, 0});
  b[EI_DATA] = ELFDATA2LSB;
  EXPECT_NE(error_of(b).find("big-endian"), std::string::npos);
  b = make_elf(0, {0, 0});
  b[EI_CLASS] = ELFCLASS64;
  EXPECT_NE(error_of(b).find("32-bit"), std::string::npos);
}

TEST(ElfLoader, RejectsSegmentPastEndOfFile) {
  auto b = make_elf(0, {1, 2, 3, 4});
  b.resize(b.size() - 2);
  EXPECT_NE(error_of(b).find("truncated"), std::string::npos);
}

TEST(ElfLoader, RejectsOverlappingSegments) {
  auto b = make_elf(0x100, {1, 2, 3, 4});
  // Duplicate the program header: two segments at the same address.
  std::vector<uint8_t> ph(b.begin() + 52, b.begin() + 84);
  b.insert(b.begin() + 84, ph.begin(), ph.end());
  b[45] = 2;
  // Both headers' file offsets must now point past the extra header.
  for (size_t o : {56u, 88u}) { b[o + 3] = 116; }
  EXPECT_NE(error_of(b).find("overlap"), std::string::npos);
}

TEST(ElfLoader, RejectsImageOutsideRam) {
  auto img = parse_elf(make_elf(0x3FFFFE, {1, 2, 3, 4}), "big.elf");
  try {
    testbed::check_image_fits(img, {{0, 0x400000, "RAM"}});
    FAIL() << "accepted an image that ends past RAM";
  } catch (const ElfError& e) {
    EXPECT_NE(std::string(e.what()).find("outside"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("RAM"), std::string::npos);
  }
}

TEST(ElfLoader, RejectsPast24BitSpace) {
  EXPECT_NE(error_of(make_elf(0xFFFFFE, {1, 2, 3, 4})).find("24-bit"), std::string::npos);
}
