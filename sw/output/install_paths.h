// Where a tool finds its data. In the build tree, the paths compiled in (the source's
// sim/configs, build/firmware); installed (`cmake --install`, cmake/install.cmake), the copies
// beside it: <prefix>/bin/<tool> reads <prefix>/share/testbed/<rel>. So an SDK works after the
// clone and its build are gone.
#pragma once
#include <filesystem>
#include <string>
#include <system_error>

namespace testbed {

inline std::string installed_or(const std::string& build_path, const std::string& rel) {
  std::error_code ec;
  std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    std::filesystem::path p = exe.parent_path().parent_path() / "share" / "testbed" / rel;
    if (std::filesystem::exists(p, ec)) return p.string();
  }
  return build_path;
}

}  // namespace testbed
