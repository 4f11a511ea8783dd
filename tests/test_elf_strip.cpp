// strip_debug (sw/elf/elf_strip.h), what tos-mkfs does to a program before it goes on a board:
// the debug sections go, everything the loader reads stays byte for byte at its offset, the
// symbols stay, and a file it does not understand is left alone.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <string>

#include "elf_loader.h"
#include "elf_strip.h"

namespace {

std::vector<uint8_t> read(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
}

bool has(const std::vector<uint8_t>& b, const std::string& s) {
  return std::search(b.begin(), b.end(), s.begin(), s.end()) != b.end();
}

}  // namespace

TEST(ElfStrip, AProgramBuiltWithDebugInfoLoadsTheSameWithoutIt) {
  for (const char* prog : {"hello", "sh", "gdb_five_threads"}) {
    std::string path = std::string(TESTBED_FIRMWARE_DIR) + "/" + prog + ".elf";
    std::vector<uint8_t> in = read(path);
    ASSERT_FALSE(in.empty()) << path;
    ASSERT_TRUE(has(in, ".debug_info")) << path << " is built without -g";
    std::vector<uint8_t> out = testbed::strip_debug(in);
    EXPECT_LT(out.size() * 2, in.size()) << prog << ": the debug sections were most of the file";
    testbed::ElfImage a = testbed::parse_elf(in, path), b = testbed::parse_elf(out, "stripped");
    EXPECT_EQ(a.entry, b.entry);
    ASSERT_EQ(a.segments.size(), b.segments.size());
    for (size_t i = 0; i < a.segments.size(); ++i) {
      EXPECT_EQ(a.segments[i].vaddr, b.segments[i].vaddr);
      EXPECT_EQ(a.segments[i].memsz, b.segments[i].memsz);
      EXPECT_EQ(a.segments[i].data, b.segments[i].data) << prog << " segment " << i;
    }
    EXPECT_EQ(a.symbols, b.symbols) << prog;
    // No debug section is left (their names stay in the section name table, unused): a second
    // pass finds nothing to strip.
    EXPECT_EQ(testbed::strip_debug(out), out) << prog << ": stripping twice changes the file";
  }
}

TEST(ElfStrip, LeavesAnythingElseAlone) {
  std::vector<uint8_t> text = {'h', 'e', 'l', 'l', 'o'};
  EXPECT_EQ(testbed::strip_debug(text), text);
  std::vector<uint8_t> cut = read(std::string(TESTBED_FIRMWARE_DIR) + "/hello.elf");
  cut.resize(cut.size() / 2);  // the section table lies past the end: left for the loader to refuse
  EXPECT_EQ(testbed::strip_debug(cut), cut);
}
