// Host outputs and inputs under time travel (sw/output/replayed_output.h): a process forked at an
// earlier instant (a checkpoint of sim/gdb/history.h) and run again writes none of the bytes the
// live process has written since, and every poll of a live input the live process made gets the
// same answer in it. Real forks, as the history makes them.
#include "replayed_output.h"

#include <gtest/gtest.h>

#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstring>
#include <vector>

namespace {

void* shared(size_t n) {
  void* m = mmap(nullptr, n, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  EXPECT_NE(m, MAP_FAILED);
  std::memset(m, 0, n);
  return m;
}

// Runs `child` in a fork that waits until the parent has run `parent`; the child's exit status.
template <class P, class C>
int fork_after(P parent, C child) {
  int go[2];
  EXPECT_EQ(pipe(go), 0);
  pid_t pid = fork();
  if (pid == 0) {
    char c;
    if (read(go[0], &c, 1) != 1) _exit(100);
    _exit(child());
  }
  parent();
  EXPECT_EQ(write(go[1], "g", 1), 1);
  int st = 0;
  waitpid(pid, &st, 0);
  close(go[0]);
  close(go[1]);
  return WIFEXITED(st) ? WEXITSTATUS(st) : 200;
}

TEST(ReplayedIo, AStretchRunAgainWritesOnlyPastWhatTheLiveRunWrote) {
  using testbed::output::Replayed;
  testbed::output::Replayed out;  // before the session: its count moves with it
  EXPECT_EQ(out.skip(10), 0u);
  Replayed::share_marks(static_cast<uint64_t*>(shared(Replayed::kSlots * sizeof(uint64_t))));
  int rc = fork_after([&] { EXPECT_EQ(out.skip(5), 0u); },  // the live run writes bytes 10..15
                      [&] {
                        // the checkpoint's run again, from byte 10: 3 written already, then 2 of 4
                        if (out.skip(3) != 3) return 1;
                        if (out.skip(4) != 2) return 2;
                        if (out.skip(2) != 0) return 3;
                        return 0;
                      });
  EXPECT_EQ(rc, 0);
  // The run again wrote up to byte 19: the live one's next bytes up to there are not written twice.
  EXPECT_EQ(out.skip(1), 1u);
  EXPECT_EQ(out.skip(5), 3u);
}

TEST(ReplayedIo, EveryPollTheLiveRunMadeGetsItsAnswerAgain) {
  using testbed::output::ReplayedInput;
  ReplayedInput typed;
  ReplayedInput::share_logs(shared(ReplayedInput::shared_size()));
  int answer = 0;
  ASSERT_FALSE(typed.replay(answer)) << "nothing polled yet: the source is asked";
  const std::vector<int> live = {ReplayedInput::kNothing, 'l', ReplayedInput::kNothing, 's', '\n'};
  int rc = fork_after(
      [&] {
        for (int a : live) {
          int x;
          ASSERT_FALSE(typed.replay(x));
          typed.record(a);
        }
      },
      [&] {
        for (size_t i = 0; i < live.size(); ++i) {
          int x = 0;
          if (!typed.replay(x)) return 10 + int(i);  // answered before: from the log
          if (x != live[i]) return 20 + int(i);
        }
        int x;
        return typed.replay(x) ? 30 : 0;  // past the live run: the source is asked
      });
  EXPECT_EQ(rc, 0);
}

}  // namespace
