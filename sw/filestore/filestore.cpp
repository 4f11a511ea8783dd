#include "filestore.h"

#include "host_file.h"

#include <elf.h>

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <map>
#include <sstream>

namespace testbed::filestore {
namespace {

// Where each field lies in the store, from the format's own structs (the static_asserts of
// fs_format.h pin their layout, which is the 68010's: every field is 4-byte aligned).
constexpr size_t kSuperOff = offsetof(tos_fs_header, super);
constexpr size_t kEntryOff = offsetof(tos_fs_header, entry);
constexpr size_t kEntrySize = sizeof(tos_fs_entry);
constexpr size_t kHeaderBytes = size_t(TOS_FS_HEADER_BLOCKS) * TOS_FS_BLOCK;
constexpr size_t kMaxNameChars = TOS_FS_NAME_LEN - 1;

size_t entry_at(size_t i) { return kEntryOff + i * kEntrySize; }

uint32_t get32(const std::vector<uint8_t>& b, size_t off) {
  return uint32_t(b[off]) << 24 | uint32_t(b[off + 1]) << 16 | uint32_t(b[off + 2]) << 8 | b[off + 3];
}

void put32(std::vector<uint8_t>& b, size_t off, uint32_t v) {
  b[off] = uint8_t(v >> 24);
  b[off + 1] = uint8_t(v >> 16);
  b[off + 2] = uint8_t(v >> 8);
  b[off + 3] = uint8_t(v);
}

std::string hex(uint64_t v) {
  std::ostringstream s;
  s << "0x" << std::hex << std::uppercase << v;
  return s.str();
}

uint64_t blocks_for(uint64_t bytes) { return (bytes + TOS_FS_BLOCK - 1) / TOS_FS_BLOCK; }

std::string quoted(const std::string& s) { return "\"" + s + "\""; }

constexpr uint32_t kPermBits = TOS_FS_PERM_READ | TOS_FS_PERM_WRITE | TOS_FS_PERM_EXEC;

// The store the largest board can hold above TOS_FS_BASE.
constexpr uint64_t kMaxStoreBytes = uint64_t(TB_RAM_MAX_BYTES) - TOS_FS_BASE;

}  // namespace

std::vector<uint8_t> read_file(const std::string& path) {
  try {
    return read_host_file(path);
  } catch (const HostFileError& e) {
    throw FilestoreError(e.what());
  }
}

std::string name_problem(const std::string& name) {
  if (name.empty()) return "the name is empty";
  if (name.size() > kMaxNameChars)
    return "the name " + quoted(name) + " is too long (" + std::to_string(name.size()) + " characters, at most " +
           std::to_string(kMaxNameChars) + ")";
  for (unsigned char c : name) {
    if (c == '/') return "the name " + quoted(name) + " contains '/' (the store is one directory)";
    if (c == ' ') return "the name " + quoted(name) + " contains a space";
    if (c < 0x21 || c > 0x7E)
      return "the name contains the byte " + hex(c) + " (names are printable ASCII, no spaces)";
  }
  return "";
}

std::string default_name(const std::string& path) {
  std::string base = path;
  while (base.size() > 1 && base.back() == '/') base.pop_back();
  size_t slash = base.find_last_of('/');
  if (slash != std::string::npos) base = base.substr(slash + 1);
  const std::string elf = ".elf";
  if (base.size() > elf.size() && base.compare(base.size() - elf.size(), elf.size(), elf) == 0)
    base.resize(base.size() - elf.size());
  return base;
}

uint32_t default_perm(const std::vector<uint8_t>& data) {
  static const uint8_t magic[4] = {0x7F, 'E', 'L', 'F'};
  bool elf = data.size() >= 4 && std::equal(magic, magic + 4, data.begin());
  return TOS_FS_PERM_READ | TOS_FS_PERM_WRITE | (elf ? TOS_FS_PERM_EXEC : 0u);
}

std::string perm_string(uint32_t perm) {
  std::string s;
  s += perm & TOS_FS_PERM_READ ? 'r' : '-';
  s += perm & TOS_FS_PERM_WRITE ? 'w' : '-';
  s += perm & TOS_FS_PERM_EXEC ? 'x' : '-';
  if (perm & ~kPermBits) s += "+" + hex(perm & ~kPermBits);
  return s;
}

uint32_t parse_perm(const std::string& text) {
  if (text.size() == 1 && text[0] >= '0' && text[0] <= '7') return uint32_t(text[0] - '0');
  const char letters[3] = {'r', 'w', 'x'};
  const uint32_t bits[3] = {TOS_FS_PERM_READ, TOS_FS_PERM_WRITE, TOS_FS_PERM_EXEC};
  uint32_t perm = 0;
  bool ok = text.size() == 3;
  for (size_t i = 0; ok && i < 3; ++i) {
    if (text[i] == letters[i]) perm |= bits[i];
    else if (text[i] != '-') ok = false;
  }
  if (!ok) throw FilestoreError("permissions " + quoted(text) + ": use rwx, r-x, rw-, r-- ... or one octal digit");
  return perm;
}

std::vector<uint8_t> build_image(const std::vector<FileSpec>& files, uint32_t size_kb) {
  std::vector<FileData> data;
  data.reserve(files.size());
  for (auto& f : files) data.push_back({f.name, f.perm, read_file(f.path), f.path});
  return build_image(data, size_kb);
}

std::vector<uint8_t> build_image(const std::vector<FileData>& files, uint32_t size_kb) {
  uint64_t bytes = uint64_t(size_kb) * 1024;
  if (bytes % TOS_FS_BLOCK)
    throw FilestoreError("store size " + std::to_string(size_kb) + " KB is not a whole number of " +
                         std::to_string(TOS_FS_BLOCK) + "-byte blocks");
  uint64_t blocks = bytes / TOS_FS_BLOCK;
  if (blocks < TOS_FS_MIN_BLOCKS)
    throw FilestoreError("store size " + std::to_string(size_kb) + " KB is below the smallest store (" +
                         std::to_string(TOS_FS_MIN_BLOCKS) + " blocks: the header and one block of data)");
  if (bytes > kMaxStoreBytes)
    throw FilestoreError("store size " + std::to_string(size_kb) + " KB does not fit in any board's RAM above TOS_FS_BASE " +
                         hex(TOS_FS_BASE) + " (at most " + std::to_string(kMaxStoreBytes / 1024) + " KB)");
  if (files.size() > TOS_MAX_FS_FILES)
    throw FilestoreError(std::to_string(files.size()) + " files: the directory holds at most " +
                         std::to_string(TOS_MAX_FS_FILES));

  std::map<std::string, std::string> seen;  // name -> origin
  uint64_t next = TOS_FS_HEADER_BLOCKS;
  std::vector<uint32_t> first(files.size());
  for (size_t i = 0; i < files.size(); ++i) {
    const FileData& f = files[i];
    std::string problem = name_problem(f.name);
    if (!problem.empty()) throw FilestoreError(f.origin + ": " + problem);
    auto [it, fresh] = seen.emplace(f.name, f.origin);
    if (!fresh) throw FilestoreError(f.origin + ": the name " + quoted(f.name) + " is taken by " + it->second);
    if (f.data.size() > TOS_MAX_FS_FILE_BYTES)
      throw FilestoreError(f.origin + ": " + std::to_string(f.data.size()) + " bytes, larger than a file may be (" +
                           std::to_string(TOS_MAX_FS_FILE_BYTES) + " bytes)");
    if (f.perm & ~kPermBits) throw FilestoreError(f.origin + ": unknown permission bits " + hex(f.perm & ~kPermBits));
    first[i] = uint32_t(next);
    next += blocks_for(f.data.size());
  }
  if (next > blocks)
    throw FilestoreError("the files do not fit: they need " + std::to_string(next) + " blocks (" +
                         std::to_string(next * TOS_FS_BLOCK / 1024) + " KB with the header) but the store has " +
                         std::to_string(blocks) + " (" + std::to_string(size_kb) + " KB): give a larger size");

  std::vector<uint8_t> img(bytes, 0);
  put32(img, kSuperOff + offsetof(tos_fs_super, magic), TOS_FS_MAGIC);
  put32(img, kSuperOff + offsetof(tos_fs_super, version), TOS_FS_VERSION);
  put32(img, kSuperOff + offsetof(tos_fs_super, blocks), uint32_t(blocks));
  put32(img, kSuperOff + offsetof(tos_fs_super, files), uint32_t(files.size()));
  for (size_t i = 0; i < files.size(); ++i) {
    const FileData& f = files[i];
    size_t e = entry_at(i);
    std::copy(f.name.begin(), f.name.end(), img.begin() + e + offsetof(tos_fs_entry, name));
    put32(img, e + offsetof(tos_fs_entry, size), uint32_t(f.data.size()));
    put32(img, e + offsetof(tos_fs_entry, first_block), first[i]);
    put32(img, e + offsetof(tos_fs_entry, perm), f.perm);
    put32(img, e + offsetof(tos_fs_entry, reserved), 0);
    std::copy(f.data.begin(), f.data.end(), img.begin() + size_t(first[i]) * TOS_FS_BLOCK);
  }
  check_image(img, "the image built", TB_RAM_MAX_BYTES);  // the writer agrees with the reader
  return img;
}

void check_image(const std::vector<uint8_t>& b, const std::string& origin, uint32_t ram_bytes) {
  auto fail = [&](const std::string& problem) { throw FilestoreError(origin + ": " + problem); };
  if (b.size() < kHeaderBytes)
    fail("too short for a TOS filestore (" + std::to_string(b.size()) + " bytes; the header alone is " +
         std::to_string(kHeaderBytes) + ")");
  uint32_t magic = get32(b, kSuperOff + offsetof(tos_fs_super, magic));
  if (magic != TOS_FS_MAGIC)
    fail("bad magic " + hex(magic) + " (a TOS filestore starts with " + hex(TOS_FS_MAGIC) + " \"TOSF\")");
  uint32_t version = get32(b, kSuperOff + offsetof(tos_fs_super, version));
  if (version != TOS_FS_VERSION)
    fail("filestore version " + std::to_string(version) + ", expected " + std::to_string(TOS_FS_VERSION));
  uint64_t blocks = get32(b, kSuperOff + offsetof(tos_fs_super, blocks));
  uint32_t files = get32(b, kSuperOff + offsetof(tos_fs_super, files));
  if (blocks < TOS_FS_MIN_BLOCKS)
    fail("the superblock gives " + std::to_string(blocks) + " blocks, fewer than the smallest store (" +
         std::to_string(TOS_FS_MIN_BLOCKS) + ")");
  if (blocks * TOS_FS_BLOCK != b.size())
    fail("the superblock gives " + std::to_string(blocks) + " blocks (" + std::to_string(blocks * TOS_FS_BLOCK) +
         " bytes) but the image has " + std::to_string(b.size()) + " bytes");
  uint64_t room = ram_bytes > TOS_FS_BASE ? uint64_t(ram_bytes) - TOS_FS_BASE : 0;
  if (blocks * TOS_FS_BLOCK > room)
    fail(std::to_string(blocks) + " blocks (" + std::to_string(blocks * TOS_FS_BLOCK / 1024) +
         " KB) run past the RAM above TOS_FS_BASE " + hex(TOS_FS_BASE) + ": the board has " +
         std::to_string(ram_bytes / 1024) + " KB of RAM, leaving " + std::to_string(room / 1024) + " KB");
  if (files > TOS_MAX_FS_FILES)
    fail("the superblock gives " + std::to_string(files) + " files; the directory holds at most " +
         std::to_string(TOS_MAX_FS_FILES));

  struct Extent {
    uint64_t first, end;
    std::string name;
  };
  std::vector<Extent> extents;
  std::map<std::string, uint32_t> names;
  for (uint32_t i = 0; i < files; ++i) {
    size_t e = entry_at(i);
    const char* raw = reinterpret_cast<const char*>(b.data() + e + offsetof(tos_fs_entry, name));
    size_t len = strnlen(raw, TOS_FS_NAME_LEN);
    std::string name(raw, len);
    std::string what = "directory entry " + std::to_string(i);
    if (len == TOS_FS_NAME_LEN)
      fail(what + ": the name is not NUL-terminated (" + std::to_string(TOS_FS_NAME_LEN) +
           " bytes without a NUL; names are at most " + std::to_string(kMaxNameChars) + " characters)");
    std::string problem = name_problem(name);
    if (!problem.empty()) fail(what + ": " + problem);
    what += " (" + quoted(name) + ")";
    if (std::any_of(raw + len, raw + TOS_FS_NAME_LEN, [](char c) { return c != 0; }))
      fail(what + ": the name is not NUL-padded (bytes after its end are not 0)");
    auto [it, fresh] = names.emplace(name, i);
    if (!fresh) fail(what + ": the name is already used by entry " + std::to_string(it->second));
    uint32_t size = get32(b, e + offsetof(tos_fs_entry, size));
    uint32_t first = get32(b, e + offsetof(tos_fs_entry, first_block));
    uint32_t perm = get32(b, e + offsetof(tos_fs_entry, perm));
    uint32_t reserved = get32(b, e + offsetof(tos_fs_entry, reserved));
    if (size > TOS_MAX_FS_FILE_BYTES)
      fail(what + ": " + std::to_string(size) + " bytes, larger than a file may be (" +
           std::to_string(TOS_MAX_FS_FILE_BYTES) + " bytes)");
    if (perm & ~kPermBits) fail(what + ": unknown permission bits " + hex(perm & ~kPermBits) + " (perm " + hex(perm) + ")");
    if (reserved != 0) fail(what + ": the reserved field is " + hex(reserved) + ", not 0");
    if (first < TOS_FS_HEADER_BLOCKS)
      fail(what + ": starts at block " + std::to_string(first) + ", inside the header (blocks 0.." +
           std::to_string(TOS_FS_HEADER_BLOCKS - 1) + ")");
    uint64_t end = uint64_t(first) + blocks_for(size);
    if (end > blocks)
      fail(what + ": blocks " + std::to_string(first) + ".." + std::to_string(end - 1) + " run past the store's end (" +
           std::to_string(blocks) + " blocks)");
    if (size) extents.push_back({first, end, name});
  }
  std::sort(extents.begin(), extents.end(), [](auto& x, auto& y) { return x.first < y.first; });
  for (size_t i = 1; i < extents.size(); ++i) {
    auto& p = extents[i - 1];
    auto& q = extents[i];
    if (p.end > q.first)
      fail("files " + quoted(p.name) + " (blocks " + std::to_string(p.first) + ".." + std::to_string(p.end - 1) +
           ") and " + quoted(q.name) + " (blocks " + std::to_string(q.first) + ".." + std::to_string(q.end - 1) +
           ") overlap");
  }
}

std::vector<Entry> list(const std::vector<uint8_t>& b, const std::string& origin) {
  check_image(b, origin, TB_RAM_MAX_BYTES);
  std::vector<Entry> out;
  uint32_t files = get32(b, kSuperOff + offsetof(tos_fs_super, files));
  for (uint32_t i = 0; i < files; ++i) {
    size_t e = entry_at(i);
    const char* raw = reinterpret_cast<const char*>(b.data() + e + offsetof(tos_fs_entry, name));
    out.push_back({std::string(raw, strnlen(raw, TOS_FS_NAME_LEN)), get32(b, e + offsetof(tos_fs_entry, size)),
                   get32(b, e + offsetof(tos_fs_entry, perm)), get32(b, e + offsetof(tos_fs_entry, first_block))});
  }
  return out;
}

void add_segment(ElfImage& image, const std::vector<uint8_t>& store, const std::string& origin) {
  uint64_t base = TOS_FS_BASE, end = base + store.size();
  for (auto& s : image.segments) {
    uint64_t s_end = uint64_t(s.paddr) + s.memsz;
    if (s.paddr < end && base < s_end)
      throw FilestoreError(origin + ": the filestore at [" + hex(base) + ", " + hex(end) + ") overlaps " + image.path +
                           "'s segment [" + hex(s.paddr) + ", " + hex(s_end) +
                           "): link the image below TOS_FS_BASE or load no filestore");
  }
  ElfSegment seg;
  seg.paddr = seg.vaddr = TOS_FS_BASE;
  seg.memsz = uint32_t(store.size());
  seg.flags = PF_R | PF_W;  // data, not code
  seg.data = store;
  image.segments.push_back(std::move(seg));
  std::sort(image.segments.begin(), image.segments.end(), [](auto& x, auto& y) { return x.paddr < y.paddr; });
}

}  // namespace testbed::filestore
