// Entry point of test binaries whose tests each elaborate a SystemC model of their own. SystemC
// elaborates once per process ("insert module failed: simulation running" for the second test),
// so when a binary is run by hand with every test selected, each test runs in a child process
// of its own and the parent sums up. ctest runs one test per process (gtest_discover_tests), and
// an explicit --gtest_filter or --gtest_list_tests runs as gtest always does.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <string>
#include <vector>

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  if (::testing::GTEST_FLAG(list_tests) || ::testing::GTEST_FLAG(filter) != "*") return RUN_ALL_TESTS();
  std::vector<std::string> names;
  const auto* ut = ::testing::UnitTest::GetInstance();
  for (int i = 0; i < ut->total_test_suite_count(); ++i) {
    const auto* suite = ut->GetTestSuite(i);
    for (int j = 0; j < suite->total_test_count(); ++j) {
      const std::string name = suite->GetTestInfo(j)->name();
      if (name.rfind("DISABLED_", 0) != 0) names.push_back(std::string(suite->name()) + "." + name);
    }
  }
  if (names.size() <= 1) return RUN_ALL_TESTS();
  std::vector<std::string> failed;
  for (const auto& name : names) {
    std::fflush(nullptr);
    const pid_t pid = fork();
    if (pid < 0) {
      std::perror("fork");
      return 1;
    }
    if (pid == 0) {
      ::testing::GTEST_FLAG(filter) = name;
      // Called through a plain pointer: a direct call to the noreturn _exit is preceded, under
      // ASan, by __asan_handle_no_return, which on a main stack SystemC has switched away from
      // warns that it cannot clean it (harmless here, the process ends), and the sanitized tree
      // fails a test on that warning (tests/CMakeLists.txt).
      void (*volatile leave)(int) = _exit;
      const int rc = RUN_ALL_TESTS();
      leave(rc);
    }
    int status = 0;
    if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) failed.push_back(name);
  }
  std::printf("\n%zu of %zu tests passed, each in a process of its own\n", names.size() - failed.size(), names.size());
  for (const auto& name : failed) std::printf("FAILED: %s\n", name.c_str());
  return failed.empty() ? 0 : 1;
}
