// tos-mkfs: build, list or check a TOS filestore image (the format of
// firmware/tos/include/tos/fs_format.h), as xv6's mkfs builds fs.img.
//
//   tos-mkfs -o OUT.fs [--size KB] [--perm NAME=rwx]... FILE... [NAME=FILE]...
//   tos-mkfs --list IMAGE
//   tos-mkfs --check IMAGE [--ram-kb N]
//
// A FILE is stored under its basename without a trailing ".elf"; NAME=FILE names it (an
// argument is NAME=FILE when it has a '=' with no '/' before it). ELF files get rwx, others
// rw-, unless --perm says otherwise. An ELF file is stored without its .debug* sections (gdb
// reads them from the file on the host; sw/elf/elf_strip.h). Exit status 0, or 2 with one line naming the file and
// the problem.
#include <CLI/CLI.hpp>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>
#include <set>

#include "elf_strip.h"
#include "filestore.h"
#include "host_file.h"
#include "version.h"

namespace fst = testbed::filestore;

namespace {

// Splits "NAME=VALUE" (no '/' in NAME); false when `arg` is not of that form.
bool split_assignment(const std::string& arg, std::string& name, std::string& value) {
  size_t eq = arg.find('=');
  if (eq == std::string::npos || arg.find('/') < eq) return false;
  name = arg.substr(0, eq);
  value = arg.substr(eq + 1);
  return true;
}

// Writes only when the contents change, so a build that reruns tos-mkfs with the same inputs
// leaves the image's timestamp (and everything built from it) alone.
void write_if_changed(const std::string& path, const std::vector<uint8_t>& bytes) {
  {
    // Only an existing regular file of the same size is compared (a device such as /dev/full
    // would read forever).
    std::error_code ec;
    bool same_size = std::filesystem::is_regular_file(path, ec) && std::filesystem::file_size(path, ec) == bytes.size();
    if (same_size) {
      try {
        if (testbed::read_host_file(path) == bytes) return;
      } catch (const testbed::HostFileError&) {
        // unreadable: written anew below, which says what is wrong if that fails too
      }
    }
  }
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  if (!f) throw fst::FilestoreError(path + ": cannot create: " + std::strerror(errno));
  f.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
  f.close();
  if (!f) throw fst::FilestoreError(path + ": write error: " + std::strerror(errno ? errno : EIO));
}

int build(const std::string& out, uint32_t size_kb, const std::vector<std::string>& perms,
          const std::vector<std::string>& args) {
  std::vector<fst::FileData> files;
  for (auto& a : args) {
    std::string name, path = a;
    if (!split_assignment(a, name, path)) name = fst::default_name(a);
    fst::FileData f;
    f.data = fst::read_file(path);
    f.name = name;
    f.perm = fst::default_perm(f.data);
    // Programs are built with -g for gdb on the host; the board gets them without DWARF.
    if (f.perm & TOS_FS_PERM_EXEC) f.data = testbed::strip_debug(f.data);
    f.origin = path;
    files.push_back(std::move(f));
  }
  std::set<std::string> permed;
  for (auto& p : perms) {
    std::string name, text;
    if (!split_assignment(p, name, text)) throw fst::FilestoreError("--perm " + p + ": use --perm NAME=rwx");
    if (!permed.insert(name).second) throw fst::FilestoreError("--perm " + p + ": " + name + " is given twice");
    auto it = std::find_if(files.begin(), files.end(), [&](auto& f) { return f.name == name; });
    if (it == files.end()) throw fst::FilestoreError("--perm " + p + ": no file is stored as \"" + name + "\"");
    try {
      it->perm = fst::parse_perm(text);
    } catch (const fst::FilestoreError& e) {
      throw fst::FilestoreError("--perm " + p + ": " + e.what());
    }
  }
  std::vector<uint8_t> img = fst::build_image(files, size_kb);
  write_if_changed(out, img);
  uint64_t used = TOS_FS_HEADER_BLOCKS;
  for (auto& f : files) used += (f.data.size() + TOS_FS_BLOCK - 1) / TOS_FS_BLOCK;
  std::cout << out << ": " << files.size() << " file(s), " << used << " of " << img.size() / TOS_FS_BLOCK
            << " blocks used\n";
  return 0;
}

int list(const std::string& path) {
  std::vector<uint8_t> img = fst::read_file(path);
  std::vector<fst::Entry> entries = fst::list(img, path);
  std::cout << path << ": " << entries.size() << " file(s) in " << img.size() / TOS_FS_BLOCK << " blocks of "
            << TOS_FS_BLOCK << " bytes\n";
  std::cout << std::left << std::setw(TOS_FS_NAME_LEN) << "name" << std::right << std::setw(8) << "size"
            << "  perm" << std::setw(7) << "block" << "\n";
  for (auto& e : entries)
    std::cout << std::left << std::setw(TOS_FS_NAME_LEN) << e.name << std::right << std::setw(8) << e.size << "  "
              << fst::perm_string(e.perm) << " " << std::setw(6) << e.first_block << "\n";
  return 0;
}

int check(const std::string& path, uint32_t ram_kb) {
  std::vector<uint8_t> img = fst::read_file(path);
  fst::check_image(img, path, ram_kb * 1024);
  std::cout << path << ": ok, " << fst::list(img, path).size() << " file(s), " << img.size() / TOS_FS_BLOCK
            << " blocks, fits a board with " << ram_kb << " KB of RAM\n";
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "tos-mkfs: build, list or check a TOS filestore image (firmware/tos/include/tos/fs_format.h)\n"
      "  tos-mkfs -o OUT.fs [--size KB] [--perm NAME=rwx]... FILE... [NAME=FILE]...\n"
      "  tos-mkfs --list IMAGE\n"
      "  tos-mkfs --check IMAGE [--ram-kb N]\n"
      "A FILE is stored as its basename without .elf; ELF files get rwx, others rw-.\n"
      "ELF files are stored without their .debug* sections (gdb reads those from the file on the host).",
      "tos-mkfs"};
  app.set_version_flag("--version", testbed::version_line("tos-mkfs"), "print the version and git commit, then exit");
  app.footer("Exit status: 0 ok, 2 bad input (one line naming the file and the problem).");
  std::string out, list_path, check_path;
  uint32_t size_kb = fst::kDefaultSizeKb;
  uint32_t ram_kb = TB_RAM_DEFAULT_BYTES / 1024;
  std::vector<std::string> perms, files;
  auto* o_out = app.add_option("-o,--output", out, "write the image to OUT.fs");
  auto* o_size = app.add_option("--size", size_kb, "size of the store in KB (files that do not fit are refused)")
                     ->capture_default_str();
  auto* o_perm = app.add_option("--perm", perms, "NAME=rwx: permissions of a stored file (default: rwx for ELF "
                                                 "files, rw- for others; also one octal digit)")
                     ->allow_extra_args(false);
  auto* o_list = app.add_option("--list", list_path, "print the directory of IMAGE");
  auto* o_check = app.add_option("--check", check_path, "check IMAGE as the simulator does before loading it");
  auto* o_ram = app.add_option("--ram-kb", ram_kb, "with --check: the board's RAM in KB")
                    ->capture_default_str()
                    ->check(CLI::Range(1u, unsigned(TB_RAM_MAX_BYTES / 1024)));
  app.add_option("files", files, "FILE (stored as its basename without .elf) or NAME=FILE");

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::cerr << "tos-mkfs: " << e.what() << " (tos-mkfs --help)\n";
    return 2;
  }

  try {
    int modes = (o_out->count() > 0) + (o_list->count() > 0) + (o_check->count() > 0);
    if (modes != 1) throw fst::FilestoreError("give one of -o OUT.fs FILE..., --list IMAGE, --check IMAGE (tos-mkfs --help)");
    if (o_out->count()) {
      if (o_ram->count()) throw fst::FilestoreError("--ram-kb goes with --check");
      return build(out, size_kb, perms, files);
    }
    if (o_size->count() || o_perm->count() || !files.empty())
      throw fst::FilestoreError("--size, --perm and files go with -o OUT.fs");
    if (o_list->count()) {
      if (o_ram->count()) throw fst::FilestoreError("--ram-kb goes with --check");
      return list(list_path);
    }
    return check(check_path, ram_kb);
  } catch (const std::exception& e) {
    std::cerr << "tos-mkfs: " << e.what() << "\n";
    return 2;
  }
}
