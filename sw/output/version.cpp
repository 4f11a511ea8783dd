#include "version.h"

#include <cstdlib>
#include <cstring>
#include <iostream>

#include "testbed_version_info.h"

namespace testbed {

std::string version_line(const std::string& tool) {
  return tool + " " TESTBED_VERSION " (git " TESTBED_GIT_COMMIT ")";
}

bool version_requested(int argc, char** argv, const std::string& tool) {
  for (int i = 1; i < argc; ++i)
    if (std::strcmp(argv[i], "--version") == 0) {
      std::cout << version_line(tool) << "\n";
      return true;
    }
  return false;
}

namespace {

// Runs before libsystemc's sc_elab_and_sim prints its banner (glibc passes main's arguments to
// constructors in .init_array). Asking for help or the version should print only that.
__attribute__((constructor)) void quiet_banner_for_help(int argc, char** argv, char**) {
  for (int i = 1; i < argc && argv && argv[i]; ++i)
    if (!std::strcmp(argv[i], "--help") || !std::strcmp(argv[i], "-h") || !std::strcmp(argv[i], "--version")) {
      setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
      return;
    }
}

}  // namespace
}  // namespace testbed
