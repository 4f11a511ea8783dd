// TOS's filestore, host side (sw/filestore, tos-mkfs) and its loading by the simulators:
// images built and checked round trip; every malformed image refused with a message naming
// the image and the problem; tos-mkfs's command line; board.filestore in `testbed` (the store
// lands at TOS_FS_BASE in each board's RAM, a corrupt one stops the run with exit status 2) and
// in `testbed-board` (--filestore); the image of the tos_filestore() CMake function.
#include <gtest/gtest.h>

#include <sys/wait.h>

#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <functional>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "board.h"
#include "config.h"
#include "elf_strip.h"
#include "filestore.h"
#include "machine.h"
#include "machine_spec.h"

namespace fst = testbed::filestore;
namespace fs = std::filesystem;

namespace {

constexpr uint32_t kRw = TOS_FS_PERM_READ | TOS_FS_PERM_WRITE;
constexpr uint32_t kRwx = kRw | TOS_FS_PERM_EXEC;

std::vector<uint8_t> pattern(size_t n, uint8_t seed) {
  std::vector<uint8_t> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = uint8_t(seed + i * 7 + (i >> 8));
  return v;
}

fst::FileData file(const std::string& name, size_t size, uint32_t perm = kRw, uint8_t seed = 1) {
  return {name, perm, pattern(size, seed), name + ".host"};
}

size_t entry_off(size_t i) { return offsetof(tos_fs_header, entry) + i * sizeof(tos_fs_entry); }
size_t super_off(size_t field) { return offsetof(tos_fs_header, super) + field; }

uint32_t get32(const std::vector<uint8_t>& b, size_t off) {
  return uint32_t(b[off]) << 24 | uint32_t(b[off + 1]) << 16 | uint32_t(b[off + 2]) << 8 | b[off + 3];
}
void put32(std::vector<uint8_t>& b, size_t off, uint32_t v) {
  for (int i = 0; i < 4; ++i) b[off + i] = uint8_t(v >> (24 - 8 * i));
}
void put_name(std::vector<uint8_t>& b, size_t entry, const std::string& name) {
  size_t off = entry_off(entry) + offsetof(tos_fs_entry, name);
  std::fill(b.begin() + off, b.begin() + off + TOS_FS_NAME_LEN, 0);
  std::copy(name.begin(), name.end(), b.begin() + off);
}

// Two files in a 64 KB store: "hello" (3000 bytes, rwx) at block 4, "rc" (20 bytes) at block 7.
std::vector<uint8_t> sample() { return fst::build_image({file("hello", 3000, kRwx, 3), file("rc", 20, kRw, 9)}, 64); }

// The message check_image throws, or "" when it accepts the image.
std::string refusal(const std::vector<uint8_t>& img, uint32_t ram = TB_RAM_DEFAULT_BYTES) {
  try {
    fst::check_image(img, "sample.fs", ram);
  } catch (const fst::FilestoreError& e) {
    return e.what();
  }
  return "";
}

std::string build_refusal(const std::vector<fst::FileData>& files, uint32_t size_kb) {
  try {
    fst::build_image(files, size_kb);
  } catch (const fst::FilestoreError& e) {
    return e.what();
  }
  return "";
}

std::string out_dir() {
  fs::path d = fs::path(TEST_OUT_DIR) / "filestore";
  fs::create_directories(d);
  return d.string();
}

std::string write(const std::string& name, const std::vector<uint8_t>& bytes) {
  std::string path = out_dir() + "/" + name;
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  f.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
  return path;
}

struct Result {
  int rc = -1;
  std::string out;  // stdout and stderr
};

Result run(const std::string& cmd) {
  Result r;
  std::FILE* p = popen((cmd + " 2>&1").c_str(), "r");
  if (!p) return r;
  char buf[4096];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) r.out.append(buf, n);
  int status = pclose(p);
  r.rc = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// The library: build, check, list.

TEST(Filestore, BuildCheckListRoundTrip) {
  std::vector<uint8_t> img = sample();
  ASSERT_EQ(img.size(), 64u * 1024);
  EXPECT_EQ(refusal(img), "");
  // Big-endian superblock: "TOSF", version, blocks, files.
  EXPECT_EQ(std::string(img.begin(), img.begin() + 4), "TOSF");
  EXPECT_EQ(get32(img, super_off(offsetof(tos_fs_super, version))), TOS_FS_VERSION);
  EXPECT_EQ(get32(img, super_off(offsetof(tos_fs_super, blocks))), 64u * 1024 / TOS_FS_BLOCK);
  EXPECT_EQ(get32(img, super_off(offsetof(tos_fs_super, files))), 2u);

  auto entries = fst::list(img, "sample.fs");
  ASSERT_EQ(entries.size(), 2u);
  EXPECT_EQ(entries[0].name, "hello");
  EXPECT_EQ(entries[0].size, 3000u);
  EXPECT_EQ(entries[0].perm, kRwx);
  EXPECT_EQ(entries[0].first_block, TOS_FS_HEADER_BLOCKS);  // right after the header
  EXPECT_EQ(entries[1].name, "rc");
  EXPECT_EQ(entries[1].perm, kRw);
  EXPECT_EQ(entries[1].first_block, TOS_FS_HEADER_BLOCKS + 3);  // 3000 bytes take 3 blocks
  // Contents at their blocks, contiguous; the rest of the store is zero.
  auto at = [&](const fst::Entry& e) { return img.begin() + size_t(e.first_block) * TOS_FS_BLOCK; };
  EXPECT_TRUE(std::equal(at(entries[0]), at(entries[0]) + 3000, pattern(3000, 3).begin()));
  EXPECT_TRUE(std::equal(at(entries[1]), at(entries[1]) + 20, pattern(20, 9).begin()));
  EXPECT_TRUE(std::all_of(at(entries[1]) + 20, img.end(), [](uint8_t c) { return c == 0; }));
}

TEST(Filestore, FromHostFilesAndTheLimits) {
  // A real firmware image through the FileSpec path.
  std::string demo = std::string(TESTBED_FIRMWARE_DIR) + "/demo.elf";
  auto img = fst::build_image(std::vector<fst::FileSpec>{{demo, "demo", kRwx}});
  EXPECT_EQ(img.size(), size_t(fst::kDefaultSizeKb) * 1024);
  auto e = fst::list(img, "demo.fs");
  ASSERT_EQ(e.size(), 1u);
  EXPECT_EQ(e[0].size, fs::file_size(demo));
  // The most the format allows: 64 files, a file of TOS_MAX_FS_FILE_BYTES, a 27-character name.
  std::vector<fst::FileData> many;
  for (unsigned i = 0; i < TOS_MAX_FS_FILES; ++i) many.push_back(file("f" + std::to_string(i), i * 10));
  EXPECT_EQ(refusal(fst::build_image(many, 128)), "");
  std::string longest(TOS_FS_NAME_LEN - 1, 'n');
  auto big = fst::build_image({file(longest, TOS_MAX_FS_FILE_BYTES), file("empty", 0)}, 1024);
  EXPECT_EQ(refusal(big), "");
  EXPECT_EQ(fst::list(big, "big.fs")[0].name, longest);
  EXPECT_THROW(fst::build_image(std::vector<fst::FileSpec>{{"/no/such/file", "x", kRw}}), fst::FilestoreError);
}

TEST(Filestore, NamesAndPermissions) {
  EXPECT_EQ(fst::default_name("build/firmware/hello.elf"), "hello");
  EXPECT_EQ(fst::default_name("notes.txt"), "notes.txt");
  EXPECT_EQ(fst::default_name("dir/.elf"), ".elf");
  EXPECT_EQ(fst::default_perm({0x7F, 'E', 'L', 'F', 1}), kRwx);
  EXPECT_EQ(fst::default_perm({'#', ' ', 'r', 'c'}), kRw);
  EXPECT_EQ(fst::parse_perm("r-x"), TOS_FS_PERM_READ | TOS_FS_PERM_EXEC);
  EXPECT_EQ(fst::parse_perm("rw-"), kRw);
  EXPECT_EQ(fst::parse_perm("4"), TOS_FS_PERM_READ);
  EXPECT_EQ(fst::perm_string(kRwx), "rwx");
  EXPECT_EQ(fst::perm_string(TOS_FS_PERM_READ), "r--");
  EXPECT_THROW(fst::parse_perm("xwr"), fst::FilestoreError);
  EXPECT_THROW(fst::parse_perm("8"), fst::FilestoreError);
}

// Each problem of an image, with its message (the image's name first).
TEST(Filestore, CheckRefusesEachProblemNamingTheImage) {
  struct Case {
    const char* what;
    std::function<void(std::vector<uint8_t>&)> spoil;
    uint32_t ram;
    const char* message;
  };
  const size_t e0 = entry_off(0), e1 = entry_off(1);
  const size_t size_f = offsetof(tos_fs_entry, size), first_f = offsetof(tos_fs_entry, first_block);
  const uint32_t ram = TB_RAM_DEFAULT_BYTES;
  std::vector<Case> cases = {
      {"magic", [](auto& b) { put32(b, super_off(offsetof(tos_fs_super, magic)), 0x12345678); }, ram,
       "sample.fs: bad magic 0x12345678"},
      {"version", [](auto& b) { put32(b, super_off(offsetof(tos_fs_super, version)), TOS_FS_VERSION + 1); }, ram,
       "sample.fs: filestore version 2, expected 1"},
      {"too short", [](auto& b) { b.resize(100); }, ram, "sample.fs: too short for a TOS filestore (100 bytes"},
      {"blocks vs size", [](auto& b) { put32(b, super_off(offsetof(tos_fs_super, blocks)), 63); }, ram,
       "sample.fs: the superblock gives 63 blocks (64512 bytes) but the image has 65536 bytes"},
      {"past the RAM", [](auto&) {}, TOS_FS_BASE + 32 * 1024,
       "sample.fs: 64 blocks (64 KB) run past the RAM above TOS_FS_BASE 0x100000: the board has 1056 KB of RAM, "
       "leaving 32 KB"},
      {"no RAM above the base", [](auto&) {}, TOS_FS_BASE / 2, "leaving 0 KB"},
      {"files", [](auto& b) { put32(b, super_off(offsetof(tos_fs_super, files)), TOS_MAX_FS_FILES + 1); }, ram,
       "sample.fs: the superblock gives 65 files; the directory holds at most 64"},
      {"empty name", [](auto& b) { put_name(b, 1, ""); }, ram, "sample.fs: directory entry 1: the name is empty"},
      {"not NUL-terminated", [](auto& b) { put_name(b, 0, std::string(TOS_FS_NAME_LEN, 'a')); }, ram,
       "sample.fs: directory entry 0: the name is not NUL-terminated (28 bytes without a NUL"},
      {"not NUL-padded", [=](auto& b) { b[e0 + offsetof(tos_fs_entry, name) + 10] = 'z'; }, ram,
       "sample.fs: directory entry 0 (\"hello\"): the name is not NUL-padded"},
      {"duplicated", [](auto& b) { put_name(b, 1, "hello"); }, ram,
       "sample.fs: directory entry 1 (\"hello\"): the name is already used by entry 0"},
      {"slash", [](auto& b) { put_name(b, 1, "bin/rc"); }, ram,
       "sample.fs: directory entry 1: the name \"bin/rc\" contains '/'"},
      {"space", [](auto& b) { put_name(b, 1, "r c"); }, ram,
       "sample.fs: directory entry 1: the name \"r c\" contains a space"},
      {"control character", [](auto& b) { put_name(b, 1, "r\tc"); }, ram,
       "sample.fs: directory entry 1: the name contains the byte 0x9"},
      {"file too large", [=](auto& b) { put32(b, e1 + size_f, TOS_MAX_FS_FILE_BYTES + 1); }, ram,
       "sample.fs: directory entry 1 (\"rc\"): 524289 bytes, larger than a file may be (524288 bytes)"},
      {"past the end", [=](auto& b) { put32(b, e1 + first_f, 64); }, ram,
       "sample.fs: directory entry 1 (\"rc\"): blocks 64..64 run past the store's end (64 blocks)"},
      {"into the header", [=](auto& b) { put32(b, e0 + first_f, TOS_FS_HEADER_BLOCKS - 1); }, ram,
       "sample.fs: directory entry 0 (\"hello\"): starts at block 3, inside the header (blocks 0..3)"},
      {"overlap", [=](auto& b) { put32(b, e1 + first_f, TOS_FS_HEADER_BLOCKS + 2); }, ram,
       "sample.fs: files \"hello\" (blocks 4..6) and \"rc\" (blocks 6..6) overlap"},
      {"permission bits", [=](auto& b) { put32(b, e1 + offsetof(tos_fs_entry, perm), 0x10 | kRw); }, ram,
       "sample.fs: directory entry 1 (\"rc\"): unknown permission bits 0x10"},
      {"reserved", [=](auto& b) { put32(b, e0 + offsetof(tos_fs_entry, reserved), 0xBAD); }, ram,
       "sample.fs: directory entry 0 (\"hello\"): the reserved field is 0xBAD, not 0"},
  };
  for (auto& c : cases) {
    std::vector<uint8_t> img = sample();
    c.spoil(img);
    std::string msg = refusal(img, c.ram);
    EXPECT_NE(msg.find(c.message), std::string::npos) << c.what << ": got \"" << msg << "\"";
  }
  // A zero-length file takes no blocks: it may sit at the store's end and overlaps nothing.
  std::vector<uint8_t> img = sample();
  put32(img, e1 + size_f, 0);
  put32(img, e1 + first_f, TOS_FS_HEADER_BLOCKS + 1);
  EXPECT_EQ(refusal(img), "");
  put32(img, e1 + first_f, 64);
  EXPECT_EQ(refusal(img), "");
  EXPECT_NE(refusal(img, 0).find("leaving 0 KB"), std::string::npos);
}

TEST(Filestore, BuildRefusesWhatTheFormatCannotHold) {
  struct Case {
    std::vector<fst::FileData> files;
    uint32_t size_kb;
    const char* message;
  };
  std::vector<fst::FileData> too_many;
  for (unsigned i = 0; i <= TOS_MAX_FS_FILES; ++i) too_many.push_back(file("f" + std::to_string(i), 1));
  fst::FileData odd = file("odd", 1);
  odd.perm = 0x20;
  std::vector<Case> cases = {
      {{file("a", 5000)}, 8, "the files do not fit: they need 9 blocks (9 KB with the header) but the store has 8 (8 KB)"},
      {{file("a", 1), file("b", 1)}, 5, "the files do not fit: they need 6 blocks"},
      {{file("big", TOS_MAX_FS_FILE_BYTES + 1)}, 1024, "big.host: 524289 bytes, larger than a file may be"},
      {too_many, 1024, "65 files: the directory holds at most 64"},
      {{file("same", 1), file("same", 2)}, 64, "same.host: the name \"same\" is taken by same.host"},
      {{file(std::string(TOS_FS_NAME_LEN, 'n'), 1)}, 64, "is too long (28 characters, at most 27)"},
      {{file("", 1)}, 64, ".host: the name is empty"},
      {{file("a/b", 1)}, 64, "contains '/'"},
      {{file("a b", 1)}, 64, "contains a space"},
      {{odd}, 64, "odd.host: unknown permission bits 0x20"},
      {{file("a", 1)}, 4, "store size 4 KB is below the smallest store"},
      {{file("a", 1)}, (TB_RAM_MAX_BYTES - TOS_FS_BASE) / 1024 + 1, "does not fit in any board's RAM above TOS_FS_BASE"},
  };
  for (auto& c : cases) {
    std::string msg = build_refusal(c.files, c.size_kb);
    EXPECT_NE(msg.find(c.message), std::string::npos) << c.message << ": got \"" << msg << "\"";
  }
}

// The store joins the boot image as one segment at TOS_FS_BASE; an ELF segment in its way is
// refused naming both files.
TEST(Filestore, SegmentBesideTheImageAndOverlapRefused) {
  std::vector<uint8_t> store = sample();
  testbed::ElfImage elf;
  elf.path = "kernel.elf";
  elf.segments.push_back({0, 0, 0x2000, 7, {1, 2, 3}});
  fst::add_segment(elf, store, "sample.fs");
  ASSERT_EQ(elf.segments.size(), 2u);
  EXPECT_EQ(elf.segments[1].paddr, uint32_t(TOS_FS_BASE));
  EXPECT_EQ(elf.segments[1].memsz, store.size());
  EXPECT_EQ(elf.segments[1].data, store);

  testbed::ElfImage big;
  big.path = "big.elf";
  big.segments.push_back({TOS_FS_BASE - 0x1000, TOS_FS_BASE - 0x1000, 0x1004, 7, {}});
  try {
    fst::add_segment(big, store, "sample.fs");
    FAIL() << "overlap accepted";
  } catch (const fst::FilestoreError& e) {
    EXPECT_NE(std::string(e.what()).find("sample.fs: the filestore at [0x100000, 0x110000) overlaps big.elf's segment "
                                         "[0xFF000, 0x100004)"),
              std::string::npos)
        << e.what();
  }
}

// ---------------------------------------------------------------------------------------------
// tos-mkfs

TEST(FilestoreMkfs, BuildListCheckAndExitCodes) {
  const std::string mkfs = TOS_MKFS, d = out_dir();
  std::string rc = write("mkfs_rc.txt", {'*', ' ', 'h', 'e', 'l', 'l', 'o', '\n'});
  std::string img = d + "/mkfs.fs";
  std::string fw = TESTBED_FIRMWARE_DIR;
  Result r = run(mkfs + " -o " + img + " --size 256 --perm hello=r-x " + fw + "/demo.elf " + fw +
              "/hello.elf rc=" + rc);
  ASSERT_EQ(r.rc, 0) << r.out;
  auto entries = fst::list(fst::read_file(img), img);
  ASSERT_EQ(entries.size(), 3u);
  EXPECT_EQ(entries[0].name, "demo");
  EXPECT_EQ(entries[0].perm, kRwx);  // an ELF file
  EXPECT_EQ(entries[1].name, "hello");
  EXPECT_EQ(entries[1].perm, TOS_FS_PERM_READ | TOS_FS_PERM_EXEC);  // --perm
  EXPECT_EQ(entries[2].name, TOS_FS_BOOT_SCRIPT);
  EXPECT_EQ(entries[2].perm, kRw);  // not an ELF file
  EXPECT_EQ(fst::read_file(img).size(), 256u * 1024);

  r = run(mkfs + " --list " + img);
  EXPECT_EQ(r.rc, 0) << r.out;
  EXPECT_NE(r.out.find("3 file(s) in 256 blocks"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("hello"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("r-x"), std::string::npos) << r.out;
  r = run(mkfs + " --check " + img + " --ram-kb 2048");
  EXPECT_EQ(r.rc, 0) << r.out;
  EXPECT_NE(r.out.find(": ok, 3 file(s)"), std::string::npos) << r.out;

  // Bad input: exit status 2 and one line naming the file and the problem.
  struct Bad {
    std::string args, message;
  };
  std::vector<uint8_t> corrupt = fst::read_file(img);
  corrupt[0] = 'X';
  std::string bad = write("mkfs_corrupt.fs", corrupt);
  std::vector<Bad> bads = {
      {"--check " + img + " --ram-kb 1100", img + ": 256 blocks (256 KB) run past the RAM above TOS_FS_BASE"},
      {"--check " + bad, bad + ": bad magic"},
      {"--list " + bad, bad + ": bad magic"},
      {"--list " + rc, rc + ": too short for a TOS filestore"},
      {"-o " + d + "/x.fs " + d + "/no_such_file", d + "/no_such_file: cannot open"},
      {"-o " + d + "/x.fs --size 5 " + fw + "/demo.elf", "the files do not fit"},
      {"-o " + d + "/x.fs a=" + rc + " a=" + rc, rc + ": the name \"a\" is taken by " + rc},
      {"-o " + d + "/x.fs --perm nope=rwx " + rc, "--perm nope=rwx: no file is stored as \"nope\""},
      {"-o " + d + "/x.fs --perm rc=rwz rc=" + rc, "--perm rc=rwz: permissions \"rwz\""},
      {"", "give one of -o OUT.fs FILE..., --list IMAGE, --check IMAGE"},
      {"--list " + img + " --check " + img, "give one of"},
      {"--list " + img + " " + rc, "--size, --perm and files go with -o OUT.fs"},
      {"--frobnicate", "The following argument was not expected: --frobnicate"},
  };
  for (auto& b : bads) {
    r = run(mkfs + " " + b.args);
    EXPECT_EQ(r.rc, 2) << b.args << "\n" << r.out;
    EXPECT_NE(r.out.find("tos-mkfs: " + b.message), std::string::npos) << b.args << "\n" << r.out;
    EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 1) << b.args << "\n" << r.out;
  }
  r = run(mkfs + " --help");
  EXPECT_EQ(r.rc, 0);
  EXPECT_NE(r.out.find("tos-mkfs --check IMAGE [--ram-kb N]"), std::string::npos) << r.out;
}

// The image of tos_filestore(NAME test-filestore FILES demo hello.elf RC ...) in tests/tos.cmake.
TEST(FilestoreMkfs, CMakeFunctionBuildsTheImage) {
  std::string img = std::string(TESTBED_FIRMWARE_DIR) + "/test-filestore.fs";
  auto bytes = fst::read_file(img);
  EXPECT_EQ(bytes.size(), 128u * 1024);  // SIZE_KB 128
  auto entries = fst::list(bytes, img);
  ASSERT_EQ(entries.size(), 3u);
  EXPECT_EQ(entries[0].name, "demo");
  EXPECT_EQ(entries[0].perm, kRwx);
  // tos-mkfs stores an ELF without its debug sections (sw/elf/elf_strip.h): the file as stored
  auto demo = testbed::strip_debug(fst::read_file(std::string(TESTBED_FIRMWARE_DIR) + "/demo.elf"));
  EXPECT_EQ(entries[0].size, demo.size());
  EXPECT_TRUE(std::equal(demo.begin(), demo.end(), bytes.begin() + size_t(entries[0].first_block) * TOS_FS_BLOCK));
  EXPECT_EQ(entries[1].name, "hello");
  EXPECT_EQ(entries[2].name, TOS_FS_BOOT_SCRIPT);
  EXPECT_EQ(entries[2].perm, kRw);
  auto rc = fst::read_file(TEST_RC_FILE);
  EXPECT_EQ(entries[2].size, rc.size());
  EXPECT_TRUE(std::equal(rc.begin(), rc.end(), bytes.begin() + size_t(entries[2].first_block) * TOS_FS_BLOCK));
}

// ---------------------------------------------------------------------------------------------
// The simulators

namespace {

testbed::Config testbed_config(const std::vector<std::string>& sets) {
  testbed::Config cfg = testbed::Config::from_file(TESTBED_DEFAULT_CONFIG);
  for (auto& s : sets) cfg.apply_override(s);
  return cfg;
}

std::string spec_refusal(const testbed::Config& cfg) {
  try {
    testbed::MachineSpec::from_config(cfg, TESTBED_FIRMWARE_DIR);
  } catch (const testbed::ConfigError& e) {
    return e.what();
  }
  return "";
}

bool ram_holds(testbed::Board& b, const std::vector<uint8_t>& store) {
  const uint8_t* ram = b.ram().data() + TOS_FS_BASE;
  return std::equal(store.begin(), store.end(), ram);
}

}  // namespace

// `testbed --set board.filestore=...` as the executable reads it: every board's RAM holds the
// store at TOS_FS_BASE, the ELF image below it; per-board entries choose their own.
TEST(FilestoreTestbed, SettingLoadsTheStoreIntoEveryBoard) {
  std::vector<uint8_t> store = sample();
  std::string path = write("machine.fs", store);
  auto spec = testbed::MachineSpec::from_config(
      testbed_config({"board.filestore=" + path, "run.out_dir=\"" + out_dir() + "/machine-out\""}), TESTBED_FIRMWARE_DIR);
  ASSERT_EQ(spec.boards.size(), 6u);
  for (auto& b : spec.boards) EXPECT_EQ(b.filestore, path);
  testbed::Machine m("fs_machine", spec);
  auto elf = testbed::load_elf(spec.boards[0].image);  // the default configuration's image
  for (size_t i = 0; i < m.board_count(); ++i) {
    EXPECT_TRUE(ram_holds(m.board(i), store)) << m.board(i).basename();
    auto& s = elf.segments[0];
    EXPECT_TRUE(std::equal(s.data.begin(), s.data.end(), m.board(i).ram().data() + s.paddr));
  }

  // [[boards]] entries: the default from [board], an entry's own, and "" for none; a name in the
  // firmware folder is found there, as image names are.
  fs::copy_file(path, std::string(TESTBED_FIRMWARE_DIR) + "/test-filestore-copy.fs",
                fs::copy_options::overwrite_existing);
  auto cfg = testbed::Config::from_string(
      "[run]\nconsole = \"none\"\n[board]\nimage = \"demo.elf\"\nfilestore = \"" + path +
          "\"\n[[boards]]\nslot = 0\n[[boards]]\nslot = 1\nfilestore = \"test-filestore-copy.fs\"\n"
          "[[boards]]\nslot = 2\nfilestore = \"\"\n",
      "boards.toml");
  auto per = testbed::MachineSpec::from_config(cfg, TESTBED_FIRMWARE_DIR);
  EXPECT_EQ(per.boards[0].filestore, path);
  EXPECT_EQ(per.boards[1].filestore, std::string(TESTBED_FIRMWARE_DIR) + "/test-filestore-copy.fs");
  EXPECT_EQ(per.boards[2].filestore, "");
  fs::remove(std::string(TESTBED_FIRMWARE_DIR) + "/test-filestore-copy.fs");
}

TEST(FilestoreTestbed, BadStoresAreConfigurationErrors) {
  std::vector<uint8_t> corrupt = sample();
  put_name(corrupt, 1, "a b");
  std::string bad = write("spec_corrupt.fs", corrupt);
  std::string good = write("spec_good.fs", sample());
  std::string msg = spec_refusal(testbed_config({"board.filestore=" + bad}));
  EXPECT_NE(msg.find("board.filestore: " + bad + ": directory entry 1: the name \"a b\" contains a space"),
            std::string::npos)
      << msg;
  msg = spec_refusal(testbed_config({"board.filestore=no_such.fs"}));
  EXPECT_NE(msg.find("board.filestore = \"no_such.fs\": no such file"), std::string::npos) << msg;
  // Checked against each board's own RAM: 64 KB above TOS_FS_BASE do not fit in 1056 KB... but do
  // in 1088.
  msg = spec_refusal(testbed_config({"board.filestore=" + good, "board.ram_kb=1056"}));
  EXPECT_NE(msg.find("run past the RAM above TOS_FS_BASE"), std::string::npos) << msg;
  EXPECT_EQ(spec_refusal(testbed_config({"board.filestore=" + good, "board.ram_kb=1088"})), "");
  auto cfg = testbed::Config::from_string("[run]\nconsole = \"none\"\n[board]\nimage = \"demo.elf\"\n[[boards]]\nslot = 0\n[[boards]]\nslot = 1\n"
                                          "filestore = \"" + bad + "\"\n", "boards.toml");
  msg = spec_refusal(cfg);
  EXPECT_NE(msg.find("boards.toml: boards.1.filestore: " + bad + ": directory entry 1"), std::string::npos) << msg;
}

// The executables: a store loads and the run goes on; a corrupt one stops it with exit status 2
// and a message naming the file.
TEST(FilestoreTestbed, ExecutableLoadsAGoodStoreAndRefusesACorruptOne) {
  std::string good = write("exe_good.fs", sample());
  std::vector<uint8_t> corrupt = sample();
  put32(corrupt, super_off(offsetof(tos_fs_super, magic)), 0);
  std::string bad = write("exe_corrupt.fs", corrupt);
  std::string tb = std::string(TESTBED) + " --console none --out " + out_dir() + "/exe-out";

  Result r = run(tb + " --stop-ms 0.2 --set board.filestore=" + good);
  EXPECT_EQ(r.rc, 0) << r.out;
  EXPECT_NE(r.out.find("filestore " + good), std::string::npos) << r.out;

  r = run(tb + " --set board.filestore=" + bad);
  EXPECT_EQ(r.rc, 2) << r.out;
  EXPECT_NE(r.out.find("testbed: configuration error: "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("board.filestore: " + bad + ": bad magic 0x0"), std::string::npos) << r.out;

  std::string board = std::string(TESTBED_BOARD) + " --console none ";
  std::string elf = std::string(TESTBED_FIRMWARE_DIR) + "/board-test.elf";
  r = run(board + "--filestore " + good + " " + elf);
  EXPECT_EQ(r.rc, 0) << r.out;  // board-test passes with the store in RAM above it
  r = run(board + "--filestore " + bad + " " + elf);
  EXPECT_EQ(r.rc, 2) << r.out;
  EXPECT_NE(r.out.find("testbed-board: error: " + bad + ": bad magic"), std::string::npos) << r.out;
  r = run(board + "--set board.filestore=" + good + " --ram-mb 1 " + elf);
  EXPECT_EQ(r.rc, 2) << r.out;
  EXPECT_NE(r.out.find(good + ": 64 blocks (64 KB) run past the RAM above TOS_FS_BASE"), std::string::npos) << r.out;
}

// testbed-board's path, at the board: the store and the ELF through Board::load_image.
TEST(FilestoreTestbed, BoardLoadsTheStoreThroughItsLoader) {
  std::vector<uint8_t> store = sample();
  testbed::BoardConfig c;
  testbed::Board b("fs_board", c);
  auto elf = testbed::load_elf(std::string(TESTBED_FIRMWARE_DIR) + "/board-test.elf");
  fst::add_segment(elf, store, "sample.fs");
  b.load_image(elf);
  EXPECT_TRUE(ram_holds(b, store));
}
