// The host side of TOS's filestore: build an image of the store (what the kernel finds at
// TOS_FS_BASE in a board's RAM), check one, list its directory, and make it a segment the
// board's one loader (Board::load_image) places beside the kernel's ELF.
//
// The format is defined once, in firmware/tos/include/tos/fs_format.h (with the limits of the
// generated <testbed/tos.h>): a run of TOS_FS_BLOCK-byte blocks, the superblock and directory
// in the first TOS_FS_HEADER_BLOCKS, each file one contiguous run of blocks, big-endian.
//
//   auto img = testbed::filestore::build_image({{"build/firmware/hello.elf", "hello", 7}}, 1024);
//   testbed::filestore::check_image(img, "hello.fs", ram_bytes);   // throws FilestoreError
//   for (auto& e : testbed::filestore::list(img, "hello.fs")) ...
//   testbed::filestore::add_segment(elf, img, "hello.fs");   board.load_image(elf);
#pragma once
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include <testbed/memory_map.h>
#include <tos/fs_format.h>

#include "elf_loader.h"

namespace testbed::filestore {

// Every refusal: the message names the image (or input file) and the problem.
class FilestoreError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// tos-mkfs's default store size (a choice of the tool, not of the format).
constexpr uint32_t kDefaultSizeKb = 1024;

// A file to put in the store, from the host.
struct FileSpec {
  std::string path;  // host file
  std::string name;  // name in the store
  uint32_t perm = TOS_FS_PERM_READ | TOS_FS_PERM_WRITE;  // TOS_FS_PERM_* bits
};

// The same with its contents already read; `origin` names it in messages.
struct FileData {
  std::string name;
  uint32_t perm = TOS_FS_PERM_READ | TOS_FS_PERM_WRITE;
  std::vector<uint8_t> data;
  std::string origin;
};

// One directory entry of an image.
struct Entry {
  std::string name;
  uint32_t size = 0;
  uint32_t perm = 0;
  uint32_t first_block = 0;
};

// A whole file's bytes; throws FilestoreError "PATH: cannot open: ..." .
std::vector<uint8_t> read_file(const std::string& path);

// Builds a store of size_kb KB (a whole number of blocks): the header, then each file in the
// order given, starting on a block boundary, contiguous. Throws FilestoreError naming the file
// and the problem: a bad or duplicated name, a file too large, unknown permission bits, more
// files than the directory holds, files that do not fit in size_kb, a size that is not a
// whole number of blocks or larger than the RAM above TOS_FS_BASE on the largest board.
std::vector<uint8_t> build_image(const std::vector<FileSpec>& files, uint32_t size_kb = kDefaultSizeKb);
std::vector<uint8_t> build_image(const std::vector<FileData>& files, uint32_t size_kb = kDefaultSizeKb);

// Validates an image to be loaded at TOS_FS_BASE on a board with ram_bytes of RAM. Throws
// FilestoreError "<origin>: <problem>": wrong magic or version, a size that does not match the
// superblock's block count, more blocks than the RAM above TOS_FS_BASE, more files than the
// directory holds, an entry's name empty / too long (not NUL-terminated) / not NUL-padded /
// duplicated / with '/', spaces or other non-printing characters, a file larger than
// TOS_MAX_FS_FILE_BYTES, starting in the header blocks or running past the store's end, two
// files overlapping, unknown permission bits, a nonzero reserved field.
void check_image(const std::vector<uint8_t>& image, const std::string& origin,
                 uint32_t ram_bytes = TB_RAM_DEFAULT_BYTES);

// The directory of a valid image (checked as by check_image, without a RAM limit).
std::vector<Entry> list(const std::vector<uint8_t>& image, const std::string& origin);

// "" when `name` may be a file's name in the store, else why not ("is too long ...").
std::string name_problem(const std::string& name);

// The store name of a host file: its basename without a trailing ".elf".
std::string default_name(const std::string& path);
// TOS_FS_PERM_READ|WRITE|EXEC for an ELF file (by its magic), READ|WRITE for anything else.
uint32_t default_perm(const std::vector<uint8_t>& data);
// "rwx", "r-x", "rw-", ... and back; parse_perm also takes one octal digit ("5"). Throws
// FilestoreError on anything else.
std::string perm_string(uint32_t perm);
uint32_t parse_perm(const std::string& text);

// Adds the store to a boot image as one more segment at TOS_FS_BASE, so the board's one loader
// (Board::load_image) places it. Throws FilestoreError naming both files when the store would
// overlap one of the image's segments.
void add_segment(ElfImage& image, const std::vector<uint8_t>& store, const std::string& origin);

}  // namespace testbed::filestore
