// --version for every tool in build/bin: the project's version and the git commit it was built
// from (generated at build time by cmake/version.cmake), e.g. "testbed 0.1 (git 9d6c995e1f20)".
//
//   int main(int argc, char** argv) {
//     if (testbed::version_requested(argc, argv, "m68k-dis")) return 0;   // printed it
//
// Linking this also keeps SystemC's copyright banner off for --help, -h and --version:
// libsystemc prints it before sc_main runs, unless SYSTEMC_DISABLE_COPYRIGHT_MESSAGE is set,
// so a constructor here (which glibc calls with argc/argv before main) sets it for those.
#pragma once
#include <string>

namespace testbed {

// "TOOL VERSION (git COMMIT)".
std::string version_line(const std::string& tool);

// True (after printing version_line on stdout) when an argument is --version.
bool version_requested(int argc, char** argv, const std::string& tool);

}  // namespace testbed
