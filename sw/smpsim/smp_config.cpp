// Parser of the seed's configuration file (section 2.2). Every value is checked where it is read;
// a bad one is refused with "FILE:LINE: parameter: what is wrong".
#include "smp_config.h"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>

namespace smpsim {

std::vector<int64_t> Range::values() const {
  std::vector<int64_t> v;
  for (int64_t x = lo; x <= hi; x += step) v.push_back(x);
  return v;
}

const char* wakeup_name(Wakeup w) {
  switch (w) {
    case Wakeup::Tail: return "tail";
    case Wakeup::Head: return "head";
    case Wakeup::Preempt: return "preempt";
    case Wakeup::Smart: return "smart";
    case Wakeup::Aip: return "aip";
    case Wakeup::Silly: return "silly";
  }
  return "?";
}

const char* sched_name(Sched s) { return s == Sched::Linux ? "linux" : "rr"; }

std::string CurveSpec::x_param() const {
  if (nosync.ranged()) return "nosync";
  for (auto& j : jobs)
    if (j.instances.ranged()) return "instance_num";
  return "none";
}

double sigma_from_density(double density_percent, double z) {
  // y with Pr(Z <= y) = (1+p)/2, found by bisection on the standard normal CDF: no table needed
  // and the same bits on every host.
  const double target = (1.0 + density_percent / 100.0) / 2.0;
  double lo = 0.0, hi = 40.0;
  for (int i = 0; i < 200; ++i) {
    double mid = (lo + hi) / 2;
    double cdf = 0.5 * std::erfc(-mid / std::sqrt(2.0));
    (cdf < target ? lo : hi) = mid;
  }
  return z / ((lo + hi) / 2);
}

namespace {

struct LineCtx {
  const std::string& file;
  int line;
  [[noreturn]] void fail(const std::string& key, const std::string& what) const {
    std::ostringstream m;
    m << file << ":" << line << ": " << (key.empty() ? "" : key + ": ") << what;
    throw ConfigError(m.str());
  }
};

bool parse_int(const std::string& s, int64_t& v) {
  if (s.empty()) return false;
  auto r = std::from_chars(s.data(), s.data() + s.size(), v);
  return r.ec == std::errc() && r.ptr == s.data() + s.size();
}

bool parse_double(const std::string& s, double& v) {
  if (s.empty()) return false;
  auto r = std::from_chars(s.data(), s.data() + s.size(), v);
  return r.ec == std::errc() && r.ptr == s.data() + s.size() && std::isfinite(v);
}

int64_t need_int(const LineCtx& c, const std::string& key, const std::string& s, int64_t min, int64_t max) {
  int64_t v;
  if (!parse_int(s, v)) c.fail(key, "'" + s + "' is not an integer");
  if (v < min || v > max)
    c.fail(key, "'" + s + "' out of range [" + std::to_string(min) + ", " + std::to_string(max) + "]");
  return v;
}

// A "percent"-marked parameter of Table 2.1: cycles, or N% of the quantum.
double cycles_or_percent(const LineCtx& c, const std::string& key, const std::string& s, int64_t q) {
  double v;
  if (!s.empty() && s.back() == '%') {
    if (!parse_double(s.substr(0, s.size() - 1), v) || v < 0) c.fail(key, "'" + s + "' is not a percentage >= 0");
    return v * double(q) / 100.0;
  }
  if (!parse_double(s, v) || v < 0) c.fail(key, "'" + s + "' is not a number of cycles >= 0");
  return v;
}

int64_t whole_cycles(const LineCtx& c, const std::string& key, const std::string& s, int64_t q, int64_t max) {
  double v = cycles_or_percent(c, key, s, q);
  if (v > double(max)) c.fail(key, "'" + s + "' is more than " + std::to_string(max) + " cycles");
  return std::llround(v);
}

Range need_range(const LineCtx& c, const std::string& key, const std::string& s, int64_t min, int64_t max) {
  Range r;
  auto dash = s.find('-', 1);
  if (dash == std::string::npos) {
    r.lo = r.hi = need_int(c, key, s, min, max);
    return r;
  }
  std::string lo = s.substr(0, dash), rest = s.substr(dash + 1), step = "1";
  auto colon = rest.find(':');
  if (colon != std::string::npos) {
    step = rest.substr(colon + 1);
    rest = rest.substr(0, colon);
  }
  r.lo = need_int(c, key, lo, min, max);
  r.hi = need_int(c, key, rest, min, max);
  r.step = need_int(c, key, step, 1, max > 0 ? max : 1);
  if (r.hi < r.lo) c.fail(key, "range '" + s + "' ends before it starts");
  return r;
}

// Splits "a=b c=\"d e\"" into (key, value) pairs; '#' starts a comment.
std::vector<std::pair<std::string, std::string>> tokens(const LineCtx& c, const std::string& line) {
  std::vector<std::pair<std::string, std::string>> out;
  size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && std::isspace(static_cast<unsigned char>(line[i]))) ++i;
    if (i >= line.size() || line[i] == '#') break;
    size_t start = i;
    while (i < line.size() && line[i] != '=' && !std::isspace(static_cast<unsigned char>(line[i]))) ++i;
    std::string key = line.substr(start, i - start);
    if (i >= line.size() || line[i] != '=') c.fail("", "token '" + key + "' is not Parameter=Value");
    ++i;
    std::string value;
    if (i < line.size() && line[i] == '"') {
      size_t close = line.find('"', i + 1);
      if (close == std::string::npos) c.fail(key, "unterminated quoted value");
      value = line.substr(i + 1, close - i - 1);
      i = close + 1;
    } else {
      size_t vs = i;
      while (i < line.size() && !std::isspace(static_cast<unsigned char>(line[i]))) ++i;
      value = line.substr(vs, i - vs);
    }
    if (key.empty()) c.fail("", "a token has no parameter name");
    for (auto& kv : out)
      if (kv.first == key) c.fail(key, "given twice");
    out.emplace_back(key, value);
  }
  return out;
}

const std::set<std::string> kGlobalKeys = {"title", "xlabel", "ylabel", "legend"};
const std::set<std::string> kCurveKeys = {"p", "q", "in", "out", "nosync", "rand_ord", "job_configs",
                                          "wakeup", "seed", "label", "reach", "sched", "proc_change_penalty",
                                          "mm_bonus", "preemption_threshold", "nosync_nice", "stop", "wake_order"};
const std::set<std::string> kJobKeys = {"sync", "barrier", "spin", "cmput", "rand_cmput_sigma", "instance_num",
                                        "nice"};
// Settings that only Linux's scheduler reads (chapter 6): refused under sched=rr rather than ignored.
const std::set<std::string> kLinuxCurveKeys = {"proc_change_penalty", "mm_bonus", "preemption_threshold",
                                               "nosync_nice", "wake_order"};

constexpr int64_t kMaxThreads = 100000;
constexpr int64_t kMaxCycles = int64_t(1) << 40;

void parse_curve(const LineCtx& c, const std::vector<std::pair<std::string, std::string>>& kv, CurveSpec& cv,
                 int64_t& job_configs) {
  std::map<std::string, std::string> m;
  for (auto& [k, v] : kv) {
    if (!kCurveKeys.count(k)) c.fail(k, "not a curve-line parameter (curve line: p q in out nosync rand_ord job_configs wakeup seed label reach sched "
                 "proc_change_penalty mm_bonus preemption_threshold nosync_nice wake_order stop)");
    m[k] = v;
  }
  for (const char* k : {"p", "q", "in", "out", "nosync"})
    if (!m.count(k)) c.fail(k, "mandatory on a curve line");
  cv.line = c.line;
  cv.p = need_int(c, "p", m["p"], 1, 4096);
  cv.q = need_int(c, "q", m["q"], 1, kMaxCycles);
  cv.in = whole_cycles(c, "in", m["in"], cv.q, kMaxCycles);
  cv.out = whole_cycles(c, "out", m["out"], cv.q, kMaxCycles);
  cv.nosync = need_range(c, "nosync", m["nosync"], 0, kMaxThreads);
  if (m.count("rand_ord")) cv.rand_ord = need_int(c, "rand_ord", m["rand_ord"], INT32_MIN, INT32_MAX) != 0;
  job_configs = m.count("job_configs") ? need_int(c, "job_configs", m["job_configs"], 1, 1000) : -1;
  if (m.count("sched")) {
    const std::string& v = m["sched"];
    if (v == "rr") cv.sched = Sched::RR;
    else if (v == "linux") cv.sched = Sched::Linux;
    else c.fail("sched", "'" + v + "' is not rr (SCHED_RR, chapters 2-5) or linux (SCHED_OTHER, chapter 6)");
  }
  const bool is_linux = cv.sched == Sched::Linux;
  cv.wakeup = is_linux ? Wakeup::Smart : Wakeup::Tail;  // 7.3: "For starters, we will use the SMART wakeup scheme"
  if (m.count("wakeup")) {
    const std::string& w = m["wakeup"];
    static const std::map<std::string, Wakeup> rr = {{"tail", Wakeup::Tail}, {"head", Wakeup::Head},
                                                     {"preempt", Wakeup::Preempt}};
    static const std::map<std::string, Wakeup> lx = {{"smart", Wakeup::Smart}, {"aip", Wakeup::Aip},
                                                     {"silly", Wakeup::Silly}};
    const auto& mine = is_linux ? lx : rr;
    const auto& other = is_linux ? rr : lx;
    if (mine.count(w)) cv.wakeup = mine.at(w);
    else if (other.count(w))
      c.fail("wakeup", "'" + w + "' is a wake-up of sched=" + (is_linux ? "rr" : "linux") + ", this curve has sched=" +
                           sched_name(cv.sched) + (is_linux ? " (smart, aip or silly)" : " (tail, head or preempt)"));
    else c.fail("wakeup", "'" + w + "' is not " + (is_linux ? "smart, aip or silly" : "tail, head or preempt"));
  }
  for (const auto& k : kLinuxCurveKeys)
    if (m.count(k) && !is_linux) c.fail(k, "only with sched=linux (a parameter of Linux's scheduler, 6.6.2)");
  // 6.6.2's parameters, cycles or N% of the quantum; defaults are Linux 2.2's shares of its quantum.
  auto param = [&](const char* key, const char* dflt) {
    return whole_cycles(c, key, m.count(key) ? m[key] : std::string(dflt), cv.q, kMaxCycles);
  };
  if (is_linux) {
    cv.proc_change_penalty = param("proc_change_penalty", "75%");
    cv.mm_bonus = param("mm_bonus", "5%");
    cv.preemption_threshold = param("preemption_threshold", "5%");
    if (m.count("nosync_nice")) cv.nosync_nice = int(need_int(c, "nosync_nice", m["nosync_nice"], -20, 19));
    if (m.count("wake_order")) {
      const std::string& v = m["wake_order"];
      if (v == "lifo") cv.wake_lifo = true;
      else if (v != "fifo")
        c.fail("wake_order", "'" + v + "' is not fifo (the order the threads blocked in) or lifo (the reverse)");
    }
  }
  if (m.count("stop")) {
    const std::string& v = m["stop"];
    if (v == "first") cv.stop_first = true;
    else if (v != "last") c.fail("stop", "'" + v + "' is not first (5.1.4: at the first thread's exit) or last");
  }
  if (m.count("reach")) cv.reach = need_int(c, "reach", m["reach"], 0, kMaxCycles);
  if (m.count("seed")) cv.seed = uint64_t(need_int(c, "seed", m["seed"], 0, INT64_MAX));
  cv.label = m.count("label") ? m["label"] : "";
}

void parse_job(const LineCtx& c, const std::vector<std::pair<std::string, std::string>>& kv, const CurveSpec& cv,
               JobSpec& j) {
  std::map<std::string, std::string> m;
  for (auto& [k, v] : kv) {
    if (!kJobKeys.count(k)) c.fail(k, "not a synchronizing-job-line parameter (sync barrier spin cmput rand_cmput_sigma instance_num nice)");
    m[k] = v;
  }
  for (const char* k : {"sync", "barrier", "spin", "cmput"})
    if (!m.count(k)) c.fail(k, "mandatory on a synchronizing-job line");
  j.line = c.line;
  j.size = need_int(c, "sync", m["sync"], 1, kMaxThreads);
  j.barriers = need_int(c, "barrier", m["barrier"], 1, kMaxCycles);
  const std::string& s = m["spin"];
  j.spin_text = s;
  const int64_t cs = cv.in + cv.out;
  if (s == "block" || s == "none") j.spin = 0;
  else if (s == "inf" || s == "infinite") j.spin = kSpinForever;
  else if (s == "CS") j.spin = cs;
  else if (s == "CS+") j.spin = cs + 1;  // the seed's CS+ in a simulator: CS+1 (7.6)
  else if (s == "2CS+") j.spin = 2 * cs + 1;
  else j.spin = whole_cycles(c, "spin", s, cv.q, kMaxCycles);
  j.mu = cycles_or_percent(c, "cmput", m["cmput"], cv.q);
  if (j.mu > double(kMaxCycles)) c.fail("cmput", "'" + m["cmput"] + "' is too large");
  if (m.count("rand_cmput_sigma")) {
    const std::string& v = m["rand_cmput_sigma"];
    auto slash = v.find('/');
    if (slash == std::string::npos) {
      if (!parse_double(v, j.sigma) || j.sigma <= 0)
        c.fail("rand_cmput_sigma", "'" + v + "' is not a positive sigma (direct format) nor DENSITY/INTERVAL");
    } else {
      double density, z;
      std::string ds = v.substr(0, slash), zs = v.substr(slash + 1);
      if (!parse_double(ds, density) || density <= 0 || density >= 100)
        c.fail("rand_cmput_sigma", "DENSITY '" + ds + "' is not in (0,100)");
      bool pct = !zs.empty() && zs.back() == '%';
      if (pct) zs.pop_back();
      if (!parse_double(zs, z) || z <= 0) c.fail("rand_cmput_sigma", "INTERVAL '" + v.substr(slash + 1) + "' is not positive");
      if (pct) {
        if (z >= 100) c.fail("rand_cmput_sigma", "INTERVAL '" + v.substr(slash + 1) + "' is not in (0,100)%");
        z = z * j.mu / 100.0;
      }
      if (j.mu - z <= 0)
        c.fail("rand_cmput_sigma", "the interval [mu-INTERVAL, mu+INTERVAL] must start above 0 (mu " +
                                       std::to_string(j.mu) + " cycles)");
      j.sigma = sigma_from_density(density, z);
    }
  }
  if (m.count("instance_num")) j.instances = need_range(c, "instance_num", m["instance_num"], 1, kMaxThreads);
  if (m.count("nice")) {
    if (cv.sched != Sched::Linux) c.fail("nice", "only with sched=linux on the curve line (NICE_TO_TICKS, 6.4.4)");
    j.nice = int(need_int(c, "nice", m["nice"], -20, 19));
  }
}

void finish_curve(const std::string& file, CurveSpec& cv, int64_t job_configs) {
  LineCtx c{file, cv.line};
  if (cv.jobs.empty()) c.fail("", "curve line without synchronizing-job lines (sync=...)");
  if (job_configs >= 0 && job_configs != int64_t(cv.jobs.size()))
    c.fail("job_configs", "says " + std::to_string(job_configs) + " job lines, " + std::to_string(cv.jobs.size()) +
                              " follow");
  int ranged = cv.nosync.ranged();
  for (auto& j : cv.jobs) ranged += j.instances.ranged();
  if (ranged > 1) c.fail("", "more than one ranged parameter (nosync, instance_num) on one curve");
}

}  // namespace

Config parse_config(const std::string& text, const std::string& name) {
  Config cfg;
  std::istringstream in(text);
  std::string line;
  int n = 0;
  int64_t job_configs = -1;
  bool have_curve = false;
  while (std::getline(in, line)) {
    ++n;
    LineCtx c{name, n};
    auto kv = tokens(c, line);
    if (kv.empty()) continue;
    bool is_curve = false, is_job = false;
    for (auto& p : kv) {
      is_curve |= p.first == "p";
      is_job |= p.first == "sync";
    }
    if (is_curve && is_job) c.fail("", "a line is a curve line (p=) or a job line (sync=), not both");
    if (is_curve) {
      if (have_curve) finish_curve(name, cfg.curves.back(), job_configs);
      cfg.curves.emplace_back();
      parse_curve(c, kv, cfg.curves.back(), job_configs);
      if (cfg.curves.back().label.empty()) cfg.curves.back().label = "curve" + std::to_string(cfg.curves.size());
      have_curve = true;
    } else if (is_job) {
      if (!have_curve) c.fail("sync", "a synchronizing-job line before any curve line");
      cfg.curves.back().jobs.emplace_back();
      parse_job(c, kv, cfg.curves.back(), cfg.curves.back().jobs.back());
    } else {
      for (auto& [k, v] : kv) {
        if (!kGlobalKeys.count(k)) c.fail(k, "unknown parameter (a global line takes title xlabel ylabel legend)");
        cfg.globals[k] = v;
      }
    }
  }
  if (!have_curve) throw ConfigError(name + ": no curve line (p=... q=... in=... out=... nosync=...)");
  finish_curve(name, cfg.curves.back(), job_configs);
  return cfg;
}

Config read_config(const std::string& path) {
  std::ifstream f(path);
  if (!f) throw ConfigError(path + ": cannot open");
  std::stringstream ss;
  ss << f.rdbuf();
  return parse_config(ss.str(), path);
}

}  // namespace smpsim
