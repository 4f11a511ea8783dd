#include "snapshot_file.h"

#include "host_file.h"
#include "version.h"

#include <elf.h>
#include <link.h>
#include <zlib.h>

#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <map>
#include <sstream>

namespace testbed::snapshot {

namespace {

const char kMagic[] = "testbed snapshot\n";
constexpr size_t kMagicLen = sizeof kMagic - 1;

void put32(std::vector<uint8_t>& b, uint32_t v) { b.insert(b.end(), (uint8_t*)&v, (uint8_t*)&v + 4); }
void put64(std::vector<uint8_t>& b, uint64_t v) { b.insert(b.end(), (uint8_t*)&v, (uint8_t*)&v + 8); }

// The GNU build-id note of the main program, or "" (dl_iterate_phdr's first object is it).
std::string build_id() {
  std::string id;
  dl_iterate_phdr(
      [](dl_phdr_info* info, size_t, void* out) -> int {
        for (int i = 0; i < info->dlpi_phnum; ++i) {
          const ElfW(Phdr)& ph = info->dlpi_phdr[i];
          if (ph.p_type != PT_NOTE) continue;
          const uint8_t* p = reinterpret_cast<const uint8_t*>(info->dlpi_addr + ph.p_vaddr);
          const uint8_t* end = p + ph.p_memsz;
          while (p + sizeof(ElfW(Nhdr)) <= end) {
            const ElfW(Nhdr)* n = reinterpret_cast<const ElfW(Nhdr)*>(p);
            const uint8_t* name = p + sizeof *n;
            const uint8_t* desc = name + ((n->n_namesz + 3) & ~3u);
            if (n->n_type == NT_GNU_BUILD_ID && n->n_namesz == 4 && !std::memcmp(name, "GNU", 4)) {
              std::string& s = *static_cast<std::string*>(out);
              char hx[3];
              for (uint32_t k = 0; k < n->n_descsz; ++k) {
                std::snprintf(hx, sizeof hx, "%02x", desc[k]);
                s += hx;
              }
              return 1;
            }
            p = desc + ((n->n_descsz + 3) & ~3u);
          }
        }
        return 1;  // only the main program
      },
      &id);
  return id;
}

std::map<std::string, std::string> parse_header(const std::string& text) {
  std::map<std::string, std::string> m;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    size_t c = line.find(": ");
    if (c != std::string::npos) m[line.substr(0, c)] = line.substr(c + 2);
  }
  return m;
}

}  // namespace

std::string this_build(const std::string& tool) {
  std::string id = build_id();
  if (id.empty()) id = "none, executable " + Digest().add_file("/proc/self/exe").hex();
  return version_line(tool) + ", build-id " + id;
}

Header header_for(const std::string& tool, const std::string& machine) {
  Header h;
  h.build = this_build(tool);
  h.tool = tool;
  h.machine = machine;
  return h;
}

Digest& Digest::add(const void* data, size_t n) {
  const uint8_t* p = static_cast<const uint8_t*>(data);
  for (size_t i = 0; i < n; ++i) h_ = (h_ ^ p[i]) * 0x100000001b3ull;
  return *this;
}

Digest& Digest::add_file(const std::string& path) {
  std::vector<uint8_t> bytes;
  try {
    bytes = read_host_file(path, "it for the snapshot's machine digest");
  } catch (const HostFileError& e) {
    throw Error(e.what());
  }
  return add(bytes.data(), bytes.size());
}

std::string Digest::hex() const {
  char b[17];
  std::snprintf(b, sizeof b, "%016" PRIx64, h_);
  return b;
}

void write(const std::string& path, const Header& h, const std::vector<uint8_t>& state) {
  std::ostringstream text;
  text << "format: " << h.format << "\nbuild: " << h.build << "\ntool: " << h.tool << "\nmachine: " << h.machine
       << "\ntime_ps: " << h.time_ps << "\ntime: " << double(h.time_ps) / 1e9 << " ms\n";
  std::string t = text.str();
  std::vector<uint8_t> b(kMagic, kMagic + kMagicLen);
  put32(b, h.format);
  put32(b, uint32_t(t.size()));
  b.insert(b.end(), t.begin(), t.end());
  uLongf packed = compressBound(uLong(state.size()));
  std::vector<uint8_t> z(packed);
  if (compress2(z.data(), &packed, state.data(), uLong(state.size()), Z_BEST_SPEED) != Z_OK)
    throw Error(path + ": the state could not be compressed (zlib)");
  put64(b, packed);
  b.insert(b.end(), z.begin(), z.begin() + long(packed));
  put64(b, state.size());
  put32(b, uint32_t(crc32(0, b.data(), uInt(b.size()))));
  std::string tmp = path + ".part";  // a reader never sees half a snapshot
  std::FILE* f = std::fopen(tmp.c_str(), "wb");
  if (!f) throw Error(path + ": cannot write the snapshot: " + std::strerror(errno));
  bool ok = std::fwrite(b.data(), 1, b.size(), f) == b.size();
  ok = std::fclose(f) == 0 && ok;
  if (!ok || std::rename(tmp.c_str(), path.c_str())) {
    std::remove(tmp.c_str());
    throw Error(path + ": cannot write the snapshot: " + std::strerror(errno));
  }
}

std::vector<uint8_t> read(const std::string& path, const Header& expect, Header* got) {
  std::vector<uint8_t> b;
  try {
    b = read_host_file(path, "the snapshot");
  } catch (const HostFileError& e) {
    throw Error(e.what());
  }
  if (b.size() < kMagicLen || std::memcmp(b.data(), kMagic, kMagicLen))
    throw Error(path + ": not a snapshot (no \"testbed snapshot\" header)");
  if (b.size() < kMagicLen + 8 + 8 + 8 + 4) throw Error(path + ": the snapshot is cut short (" + std::to_string(b.size()) + " bytes)");
  uint32_t crc;
  std::memcpy(&crc, b.data() + b.size() - 4, 4);
  if (crc != uint32_t(crc32(0, b.data(), uInt(b.size() - 4))))
    throw Error(path + ": the snapshot is corrupted (its CRC-32 does not match its bytes)");
  size_t pos = kMagicLen;
  auto take = [&](void* out, size_t n) {
    if (n > b.size() - 4 - pos) throw Error(path + ": the snapshot is cut short");
    std::memcpy(out, b.data() + pos, n);
    pos += n;
  };
  Header h;
  take(&h.format, 4);
  if (got) *got = h;
  if (h.format != expect.format)
    throw Error(path + ": snapshot format " + std::to_string(h.format) + ", this build reads format " +
                std::to_string(expect.format));
  uint32_t tn;
  take(&tn, 4);
  std::string text(tn, '\0');
  take(text.data(), tn);
  auto kv = parse_header(text);
  h.build = kv["build"];
  h.tool = kv["tool"];
  h.machine = kv["machine"];
  h.time_ps = std::strtoull(kv["time_ps"].c_str(), nullptr, 10);
  if (got) *got = h;
  if (h.tool != expect.tool) throw Error(path + ": a snapshot of " + h.tool + ", not of " + expect.tool);
  if (h.build != expect.build)
    throw Error(path + ": the snapshot was written by another build (" + h.build + "); this is " + expect.build +
                ": a snapshot is restored by the build that wrote it");
  if (h.machine != expect.machine)
    throw Error(path + ": the snapshot is of another machine (digest " + h.machine + ", this one's " + expect.machine +
                "): give the configuration, image and filestore it was taken with");
  uint64_t zn, n;
  take(&zn, 8);
  if (zn > b.size() - 4 - pos) throw Error(path + ": the snapshot is cut short");
  const uint8_t* z = b.data() + pos;
  pos += size_t(zn);
  take(&n, 8);
  std::vector<uint8_t> state(static_cast<size_t>(n));
  uLongf out = uLongf(n);
  if (uncompress(state.data(), &out, z, uLong(zn)) != Z_OK || out != n)
    throw Error(path + ": the snapshot's state does not decompress to its stated " + std::to_string(n) + " bytes");
  return state;
}

}  // namespace testbed::snapshot
