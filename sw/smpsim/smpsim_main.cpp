// smpsim: seed 004's SMP simulator as a command (Tsafrir 2001, chapter 2). Reads a configuration
// file in the seed's format and prints, for every curve and every value of its ranged parameter,
// the SSR, the elapsed time and the load, one tab-separated row each.
#include "smp_config.h"
#include "smp_simulator.h"

#include <CLI/CLI.hpp>

#include <atomic>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <thread>
#include <vector>

int main(int argc, char** argv) {
  CLI::App app{
      "smpsim: seed 004's event-driven SMP simulator (round-robin, global ready queue, barriers with\n"
      "two-phase waiting). CONFIG is the seed's configuration file (section 2.2, Table 2.1):\n"
      "  curve line: p=32 q=100 in=3% out=3% nosync=0-200 [rand_ord=1] [job_configs=N]\n"
      "              [sched=rr|linux] [wakeup=tail|head|preempt (rr) | smart|aip|silly (linux)]\n"
      "              [seed=N] [label=NAME] [reach=CYCLES]\n"
      "              linux only: [proc_change_penalty=75%] [mm_bonus=5%] [preemption_threshold=5%]\n"
      "                          [nosync_nice=0] [wake_order=fifo|lifo]\n"
      "  job line:   sync=11 barrier=50 spin=6%|CYCLES|block|CS|CS+|2CS+|inf cmput=1%\n"
      "              [rand_cmput_sigma=SIGMA|DENSITY/INTERVAL[%]] [instance_num=N|X-Y[:J]]\n"
      "              [nice=-20..19] (sched=linux)\n"
      "  global:     title=... (ignored by the simulation)\n"
      "One parameter of a curve may be a range X-Y[:J] (nosync or instance_num): the curve's x axis.",
      "smpsim"};
  app.footer("Output columns: label x threads sync_threads spin ssr spins successes blocks switches elapsed completed epochs\n"
             "woken_many woken_to_prev woken_prev_idle_lost (sched=linux: threads woken several at once, those sent to\n"
             "their previous processor, those whose previous processor was idle but went to another or to none).\n"
             "Exit status: 0 ok, 2 bad input (the file, line and parameter are named), 3 a run hit --max-cycles.");
  std::string config, out_path, trace_path, jobs_path;
  int64_t seed = -1, max_cycles = int64_t(1) << 42, trace_until = 0;
  int trace_job = -1;
  unsigned parallel = 1;
  app.add_option("config", config, "configuration file")->required();
  app.add_option("-o,--output", out_path, "write the table here instead of stdout");
  app.add_option("--seed", seed, "override every curve's seed")->check(CLI::NonNegativeNumber);
  app.add_option("--max-cycles", max_cycles, "stop a run that has not finished by this cycle")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  app.add_option("--trace-job", trace_job, "write job J's thread states (ready/running/blocked) over time")
      ->check(CLI::NonNegativeNumber);
  app.add_option("--trace-until", trace_until, "last cycle of the trace")->check(CLI::NonNegativeNumber);
  app.add_option("--trace-out", trace_path, "file for the trace (first curve, first point)");
  app.add_option("--jobs-out", jobs_path, "write one row per job instance: label x job sync mu sigma spins successes");
  app.add_option("-j,--parallel", parallel, "simulate this many runs at once (the output is the same, in the same order)")
      ->capture_default_str()
      ->check(CLI::PositiveNumber);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::cerr << "smpsim: " << e.what() << " (smpsim --help)\n";
    return 2;
  }
  smpsim::Config cfg;
  try {
    cfg = smpsim::read_config(config);
  } catch (const smpsim::ConfigError& e) {
    std::cerr << "smpsim: " << e.what() << "\n";
    return 2;
  }
  if ((trace_job >= 0) != !trace_path.empty()) {
    std::cerr << "smpsim: --trace-job and --trace-out go together\n";
    return 2;
  }
  std::ofstream file;
  if (!out_path.empty()) {
    file.open(out_path);
    if (!file) {
      std::cerr << "smpsim: " << out_path << ": cannot write\n";
      return 2;
    }
  }
  std::ostream& os = out_path.empty() ? std::cout : file;
  std::ofstream jobs_file;
  if (!jobs_path.empty()) {
    jobs_file.open(jobs_path);
    if (!jobs_file) {
      std::cerr << "smpsim: " << jobs_path << ": cannot write\n";
      return 2;
    }
    jobs_file << "label\tx\tjob\tsync\tmu\tsigma\tspins\tsuccesses\n";
  }
  os << "label\tx\tthreads\tsync_threads\tspin\tssr\tspins\tsuccesses\tblocks\tswitches\telapsed\tcompleted\tepochs\twoken_many\twoken_to_prev\twoken_prev_idle_lost\n";
  // Every run of the file, in output order; each run is independent of the others (its own
  // machine and random stream), so they may be simulated in any order and at once.
  struct Run {
    const smpsim::CurveSpec* curve;
    smpsim::CurvePoint pt;
    smpsim::RunResult r;
  };
  std::vector<Run> runs;
  for (auto& curve : cfg.curves)
    for (auto& pt : smpsim::expand_curve(curve)) {
      pt.spec.max_cycles = max_cycles;
      if (seed >= 0) pt.spec.seed = uint64_t(seed);
      if (trace_job >= 0 && runs.empty()) {  // the first curve's first point
        pt.spec.trace_job = trace_job;
        pt.spec.trace_until = trace_until;
      }
      runs.push_back({&curve, std::move(pt), {}});
    }
  std::atomic<size_t> next{0};
  auto work = [&] {
    for (size_t i; (i = next.fetch_add(1)) < runs.size();) runs[i].r = smpsim::simulate(runs[i].pt.spec);
  };
  std::vector<std::thread> pool;
  for (unsigned k = 1; k < parallel && k < runs.size(); ++k) pool.emplace_back(work);
  work();
  for (auto& t : pool) t.join();
  bool all_done = true;
  if (trace_job >= 0 && !runs.empty()) {
    std::ofstream tf(trace_path);
    if (!tf) {
      std::cerr << "smpsim: " << trace_path << ": cannot write\n";
      return 2;
    }
    tf << "time\tready\trunning\tblocked\n";
    for (auto& p : runs.front().r.trace) tf << p.time << "\t" << p.ready << "\t" << p.running << "\t" << p.blocked << "\n";
  }
  for (auto& run : runs) {
    const smpsim::CurveSpec& curve = *run.curve;
    const smpsim::CurvePoint& pt = run.pt;
    const smpsim::RunResult& r = run.r;
    char ssr[32];
    if (r.spins) std::snprintf(ssr, sizeof ssr, "%.4f", r.ssr());
    else std::snprintf(ssr, sizeof ssr, "nan");
    const int64_t spin = curve.jobs.front().spin;
    os << curve.label << "\t" << pt.x << "\t" << r.threads << "\t" << r.sync_threads << "\t"
       << (spin >= smpsim::kSpinForever ? std::string("inf") : std::to_string(spin)) << "\t" << ssr << "\t" << r.spins << "\t" << r.successes << "\t" << r.blocks
       << "\t" << r.switches << "\t" << r.elapsed << "\t" << (r.completed ? 1 : 0) << "\t" << r.epochs << "\t" << r.woken_many << "\t"
       << r.woken_to_prev << "\t" << r.woken_prev_idle_lost << "\n";
    all_done &= r.completed;
    if (jobs_file.is_open())
      for (size_t j = 0; j < pt.spec.jobs.size(); ++j)
        jobs_file << curve.label << "\t" << pt.x << "\t" << j << "\t" << pt.spec.jobs[j].size << "\t"
                  << pt.spec.jobs[j].mu << "\t" << pt.spec.jobs[j].sigma << "\t" << r.job_spins[j] << "\t"
                  << r.job_successes[j] << "\n";
  }
  os.flush();
  if (!all_done) {
    std::cerr << "smpsim: a run did not finish by cycle " << max_cycles << " (completed=0 rows)\n";
    return 3;
  }
  return 0;
}
