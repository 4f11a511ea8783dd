// The configuration parser of sw/smpsim refuses every bad value with the file, the line and the
// parameter, instead of simulating something else.
#include "smp_config.h"

#include <gtest/gtest.h>

using namespace smpsim;

namespace {

std::string error_of(const std::string& text) {
  try {
    parse_config(text, "cfg");
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "(accepted)";
}

const std::string kCurve = "p=2 q=100 in=3 out=3 nosync=0\n";
const std::string kJob = "sync=2 barrier=1 spin=1 cmput=1\n";

}  // namespace

TEST(SmpsimConfigErrors, BadMachineValuesNameTheLineAndParameter) {
  EXPECT_EQ(error_of("p=0 q=100 in=3 out=3 nosync=0\n" + kJob), "cfg:1: p: '0' out of range [1, 4096]");
  EXPECT_EQ(error_of("p=2 in=3 out=3 nosync=0\n" + kJob), "cfg:1: q: mandatory on a curve line");
  EXPECT_EQ(error_of("p=2 q=100 in=-3% out=3 nosync=0\n" + kJob), "cfg:1: in: '-3%' is not a percentage >= 0");
  EXPECT_EQ(error_of("p=2 q=1e2 in=3 out=3 nosync=0\n" + kJob), "cfg:1: q: '1e2' is not an integer");
  EXPECT_EQ(error_of("p=2 q=100 in=3 out=3 nosync=10-5\n" + kJob), "cfg:1: nosync: range '10-5' ends before it starts");
  EXPECT_EQ(error_of("p=2 q=100 in=3 out=3 nosync=0 wakeup=sideways\n" + kJob),
            "cfg:1: wakeup: 'sideways' is not tail, head or preempt");
  EXPECT_EQ(error_of("p=2 q=100 in=3 out=3 nosync=0 p=3\n" + kJob), "cfg:1: p: given twice");
}

TEST(SmpsimConfigErrors, BadJobValuesNameTheLineAndParameter) {
  EXPECT_EQ(error_of(kCurve + "sync=2 barrier=1 spin=abc cmput=1\n"), "cfg:2: spin: 'abc' is not a number of cycles >= 0");
  EXPECT_EQ(error_of(kCurve + "sync=2 barrier=0 spin=1 cmput=1\n"), "cfg:2: barrier: '0' out of range [1, 1099511627776]");
  EXPECT_EQ(error_of(kCurve + "sync=2 barrier=1 spin=1 cmput=1 foo=1\n"),
            "cfg:2: foo: not a synchronizing-job-line parameter (sync barrier spin cmput rand_cmput_sigma instance_num nice)");
  EXPECT_EQ(error_of(kCurve + "sync=2 barrier=1 spin=1 cmput=10 rand_cmput_sigma=100/15%\n"),
            "cfg:2: rand_cmput_sigma: DENSITY '100' is not in (0,100)");
  EXPECT_EQ(error_of(kCurve + "sync=2 barrier=1 spin=1 cmput=10 rand_cmput_sigma=90/100%\n"),
            "cfg:2: rand_cmput_sigma: INTERVAL '100%' is not in (0,100)%");
  EXPECT_NE(error_of(kCurve + "sync=2 barrier=1 spin=1 cmput=10 rand_cmput_sigma=90/20\n")
                .find("cfg:2: rand_cmput_sigma: the interval [mu-INTERVAL, mu+INTERVAL] must start above 0"),
            std::string::npos);
  EXPECT_EQ(error_of(kCurve + "sync=2 barrier=1 spin=1 cmput=10 rand_cmput_sigma=-1\n"),
            "cfg:2: rand_cmput_sigma: '-1' is not a positive sigma (direct format) nor DENSITY/INTERVAL");
  EXPECT_EQ(error_of(kCurve + "sync=2 barrier=1 spin=1\n"), "cfg:2: cmput: mandatory on a synchronizing-job line");
}

// sched=linux (chapter 6): each setting has one reader, is range-checked, and a setting of the
// other scheduler is refused rather than ignored.
TEST(SmpsimConfigErrors, SchedulerSettingsAreCheckedAgainstTheScheduler) {
  const std::string lx = "p=2 q=100 in=3 out=3 nosync=0 sched=linux";
  EXPECT_EQ(error_of("p=2 q=100 in=3 out=3 nosync=0 sched=other\n" + kJob),
            "cfg:1: sched: 'other' is not rr (SCHED_RR, chapters 2-5) or linux (SCHED_OTHER, chapter 6)");
  EXPECT_EQ(error_of(lx + " wakeup=tail\n" + kJob),
            "cfg:1: wakeup: 'tail' is a wake-up of sched=rr, this curve has sched=linux (smart, aip or silly)");
  EXPECT_EQ(error_of("p=2 q=100 in=3 out=3 nosync=0 wakeup=smart\n" + kJob),
            "cfg:1: wakeup: 'smart' is a wake-up of sched=linux, this curve has sched=rr (tail, head or preempt)");
  EXPECT_EQ(error_of(lx + " wakeup=clever\n" + kJob), "cfg:1: wakeup: 'clever' is not smart, aip or silly");
  EXPECT_EQ(error_of("p=2 q=100 in=3 out=3 nosync=0 proc_change_penalty=15\n" + kJob),
            "cfg:1: proc_change_penalty: only with sched=linux (a parameter of Linux's scheduler, 6.6.2)");
  EXPECT_EQ(error_of(lx + " mm_bonus=-1\n" + kJob), "cfg:1: mm_bonus: '-1' is not a number of cycles >= 0");
  EXPECT_EQ(error_of(lx + " preemption_threshold=x%\n" + kJob),
            "cfg:1: preemption_threshold: 'x%' is not a percentage >= 0");
  EXPECT_EQ(error_of(lx + " nosync_nice=20\n" + kJob), "cfg:1: nosync_nice: '20' out of range [-20, 19]");
  EXPECT_EQ(error_of(lx + " wake_order=random\n" + kJob),
            "cfg:1: wake_order: 'random' is not fifo (the order the threads blocked in) or lifo (the reverse)");
  EXPECT_EQ(error_of("p=2 q=100 in=3 out=3 nosync=0 wake_order=lifo\n" + kJob),
            "cfg:1: wake_order: only with sched=linux (a parameter of Linux's scheduler, 6.6.2)");
  EXPECT_EQ(error_of(lx + "\nsync=2 barrier=1 spin=1 cmput=1 nice=-21\n"), "cfg:2: nice: '-21' out of range [-20, 19]");
  EXPECT_EQ(error_of(kCurve + "sync=2 barrier=1 spin=1 cmput=1 nice=5\n"),
            "cfg:2: nice: only with sched=linux on the curve line (NICE_TO_TICKS, 6.4.4)");
  // Defaults: Linux 2.2's shares of the quantum (6.6.2), in cycles of this curve's q; SMART (7.3).
  Config c = parse_config("p=2 q=200 in=3 out=3 nosync=0 sched=linux\n" + kJob, "cfg");
  const CurveSpec& cv = c.curves.at(0);
  EXPECT_EQ(cv.sched, Sched::Linux);
  EXPECT_EQ(cv.wakeup, Wakeup::Smart);
  EXPECT_EQ(cv.proc_change_penalty, 150);
  EXPECT_EQ(cv.mm_bonus, 10);
  EXPECT_EQ(cv.preemption_threshold, 10);
  EXPECT_FALSE(cv.wake_lifo);  // the order the threads blocked in
  Config d = parse_config(lx + " wakeup=silly proc_change_penalty=300% mm_bonus=0 nosync_nice=-5\n"
                               "sync=2 barrier=1 spin=1 cmput=1 nice=19\n", "cfg");
  EXPECT_EQ(d.curves.at(0).wakeup, Wakeup::Silly);
  EXPECT_EQ(d.curves.at(0).proc_change_penalty, 300);
  EXPECT_EQ(d.curves.at(0).mm_bonus, 0);
  EXPECT_EQ(d.curves.at(0).nosync_nice, -5);
  EXPECT_TRUE(parse_config(lx + " wake_order=lifo\n" + kJob, "cfg").curves.at(0).wake_lifo);
  EXPECT_EQ(d.curves.at(0).jobs.at(0).nice, 19);
}

TEST(SmpsimConfigErrors, BadStructureIsRefused) {
  EXPECT_EQ(error_of(""), "cfg: no curve line (p=... q=... in=... out=... nosync=...)");
  EXPECT_EQ(error_of(kJob + kCurve), "cfg:1: sync: a synchronizing-job line before any curve line");
  EXPECT_EQ(error_of(kCurve), "cfg:1: curve line without synchronizing-job lines (sync=...)");
  EXPECT_EQ(error_of("p=2 q=100 in=3 out=3 nosync=0 job_configs=2\n" + kJob),
            "cfg:1: job_configs: says 2 job lines, 1 follow");
  EXPECT_EQ(error_of("p=2 q=100 in=3 out=3 nosync=0-5\nsync=2 barrier=1 spin=1 cmput=1 instance_num=1-3\n"),
            "cfg:1: more than one ranged parameter (nosync, instance_num) on one curve");
  EXPECT_EQ(error_of("title=x\nstray\n" + kCurve + kJob), "cfg:2: token 'stray' is not Parameter=Value");
  EXPECT_EQ(error_of("colour=red\n" + kCurve + kJob),
            "cfg:1: colour: unknown parameter (a global line takes title xlabel ylabel legend)");
  EXPECT_EQ(error_of("p=2 q=100 in=3 out=3 nosync=0 sync=2\n"),
            "cfg:1: a line is a curve line (p=) or a job line (sync=), not both");
  EXPECT_EQ(error_of("title=\"unterminated\n" + kCurve + kJob), "cfg:1: title: unterminated quoted value");
}

TEST(SmpsimConfigErrors, GoodFilesParseWithCommentsAndRanges) {
  Config c = parse_config("# Figure 3.1\ntitle=\"Figure 3.1\"\np=32 q=100 in=3% out=3% nosync=0-200:10 label=a  # x axis\n"
                          "sync=11 barrier=50 spin=6% cmput=1%\n",
                          "cfg");
  ASSERT_EQ(c.curves.size(), 1u);
  EXPECT_EQ(c.globals["title"], "Figure 3.1");
  EXPECT_EQ(c.curves[0].in, 3);
  EXPECT_EQ(c.curves[0].nosync.values().size(), 21u);
  EXPECT_EQ(c.curves[0].x_param(), "nosync");
}
