// The project's mutation driver: runs a fuzz target (LLVMFuzzerTestOneInput) without libFuzzer,
// for CTest's short runs and any build with GCC. Replays every corpus file, then mutates them
// (bit flips, interesting bytes, inserted, erased and duplicated ranges, splices of two inputs,
// dictionary tokens) for a number of runs or seconds. Deterministic for a given seed. Blind to
// coverage, so it finds less than libFuzzer (scripts/fuzz.sh) does in the same time; it shares
// the targets, the corpus and the sanitizers.
//   fuzz_<target> CORPUS_DIR|FILE... [--runs N] [--seconds S] [--seed K]
// If the target crashes (a signal, or a sanitizer's report), the input that did it is written to
// fuzz-crash-<target>.bin in the working directory.
#include "fuzz_targets.h"

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <random>
#include <string>
#include <vector>

#include <fcntl.h>
#include <unistd.h>

#include "tool_args.h"

#ifndef FUZZ_TARGET_NAME
#error "FUZZ_TARGET_NAME: the target's name, for messages and the crash file"
#endif

namespace {

using Bytes = std::vector<uint8_t>;
const char* const kTool = "fuzz_" FUZZ_TARGET_NAME;

void usage(std::ostream& os) {
  os << "usage: " << kTool << " CORPUS_DIR|FILE... [--runs N] [--seconds S] [--seed K]\n"
     << "Runs the " FUZZ_TARGET_NAME " fuzz target on every corpus file, then on mutations of them\n"
     << "until N runs (default 10000) or S seconds, whichever comes first. Exit 0 when no input\n"
     << "crashed the target; a crash leaves its input in ./fuzz-crash-" FUZZ_TARGET_NAME ".bin.\n";
}

// The input in flight, written out by the crash paths only (async-signal-safe calls).
const char* const crash_path = "fuzz-crash-" FUZZ_TARGET_NAME ".bin";
const uint8_t* current = nullptr;
size_t current_size = 0;

void dump_current() {
  int fd = open(crash_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd < 0) return;
  for (size_t off = 0; off < current_size;) {
    ssize_t n = write(fd, current + off, current_size - off);
    if (n <= 0) break;
    off += size_t(n);
  }
  close(fd);
}

// A crash is reported with where its input is, and the status is 1 (as a sanitizer's report).
void on_crash(int sig) {
  dump_current();
  static const char m[] = "fuzz_" FUZZ_TARGET_NAME ": the target crashed (signal ";
  char num[4] = {char('0' + sig / 10 % 10), char('0' + sig % 10), ')', '\n'};
  (void)!write(2, m, sizeof m - 1);
  (void)!write(2, num, sizeof num);
  static const char m2[] = "fuzz_" FUZZ_TARGET_NAME ": its input is in fuzz-crash-" FUZZ_TARGET_NAME ".bin\n";
  (void)!write(2, m2, sizeof m2 - 1);
  _exit(1);
}

// A sanitizer's report ends the process without a signal: it calls this first.
void on_sanitizer_death() {
  dump_current();
  static const char m[] = "fuzz_" FUZZ_TARGET_NAME ": its input is in fuzz-crash-" FUZZ_TARGET_NAME ".bin\n";
  (void)!write(2, m, sizeof m - 1);
}

void run_one(const Bytes& in) {
  current = in.data();
  current_size = in.size();
  LLVMFuzzerTestOneInput(in.data(), in.size());
}

Bytes mutate(const std::vector<Bytes>& corpus, const std::vector<std::string>& dict, std::mt19937_64& rng) {
  auto pick = [&](size_t n) { return n ? size_t(rng() % n) : 0; };
  Bytes b = corpus[pick(corpus.size())];
  int steps = 1 + int(rng() % 4);
  for (int s = 0; s < steps; ++s) {
    static const uint8_t interesting[] = {0x00, 0xFF, 0x7F, 0x80, 0x01, 0xFE, 0x20, 0x0A};
    switch (rng() % 8) {
      case 0:  // flip a bit
        if (!b.empty()) b[pick(b.size())] ^= uint8_t(1u << (rng() % 8));
        break;
      case 1:  // an interesting byte
        if (!b.empty()) b[pick(b.size())] = interesting[rng() % sizeof interesting];
        break;
      case 2:  // a random byte inserted
        b.insert(b.begin() + long(pick(b.size() + 1)), uint8_t(rng()));
        break;
      case 3: {  // a range erased
        if (b.empty()) break;
        size_t at = pick(b.size()), n = 1 + pick(std::min<size_t>(b.size() - at, 64));
        b.erase(b.begin() + long(at), b.begin() + long(at + n));
        break;
      }
      case 4: {  // a range duplicated
        if (b.empty() || b.size() > (1u << 20)) break;
        size_t at = pick(b.size()), n = 1 + pick(std::min<size_t>(b.size() - at, 64));
        Bytes r(b.begin() + long(at), b.begin() + long(at + n));
        b.insert(b.begin() + long(pick(b.size() + 1)), r.begin(), r.end());
        break;
      }
      case 5: {  // spliced with another input
        const Bytes& o = corpus[pick(corpus.size())];
        size_t cut = pick(b.size() + 1), from = pick(o.size() + 1);
        b.resize(cut);
        b.insert(b.end(), o.begin() + long(from), o.end());
        break;
      }
      case 6:  // a dictionary token
        if (!dict.empty()) {
          const std::string& w = dict[pick(dict.size())];
          b.insert(b.begin() + long(pick(b.size() + 1)), w.begin(), w.end());
        }
        break;
      case 7:  // a 32-bit word set to an edge value (lengths, offsets, counts)
        if (b.size() >= 4) {
          static const uint32_t edges[] = {0, 1, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF, 0xFFFF, 0x10000};
          size_t at = pick(b.size() - 3) & ~size_t(3);
          uint32_t v = edges[rng() % (sizeof edges / sizeof edges[0])];
          for (int k = 0; k < 4; ++k) b[at + size_t(k)] = uint8_t(v >> (24 - 8 * k));
        }
        break;
    }
  }
  return b;
}

}  // namespace

extern "C" void __sanitizer_set_death_callback(void (*)(void)) __attribute__((weak));

int main(int argc, char** argv) {
  namespace fs = std::filesystem;
  namespace ta = testbed::tool_args;
  std::vector<std::string> inputs;
  uint64_t runs = 10000, seconds = 0, seed = 1;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) ta::refuse(kTool, a + ": a value is missing");
      return argv[++i];
    };
    if (a == "--help" || a == "-h") {
      usage(std::cout);
      return 0;
    } else if (a == "--runs") {
      runs = ta::whole(kTool, "--runs", value(), 0, uint64_t(1) << 40);
    } else if (a == "--seconds") {
      seconds = ta::whole(kTool, "--seconds", value(), 1, 86400 * 7);
    } else if (a == "--seed") {
      seed = ta::whole(kTool, "--seed", value(), 0, UINT64_MAX);
    } else if (!a.empty() && a[0] == '-') {
      ta::refuse(kTool, "unknown option " + a);
    } else {
      inputs.push_back(a);
    }
  }
  if (inputs.empty()) ta::refuse(kTool, "no corpus given");
  if (seconds) runs = UINT64_MAX;  // --seconds alone bounds the run

  std::vector<Bytes> corpus;
  uint64_t corpus_bytes = 0;
  auto add = [&](const fs::path& p) {
    std::ifstream f(p, std::ios::binary);
    if (!f) ta::refuse(kTool, "cannot read " + p.string());
    Bytes b((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    corpus_bytes += b.size();
    corpus.push_back(std::move(b));
  };
  for (auto& in : inputs) {
    std::error_code ec;
    if (fs::is_directory(in, ec)) {
      std::vector<fs::path> files;
      for (auto& e : fs::directory_iterator(in))
        if (e.is_regular_file()) files.push_back(e.path());
      std::sort(files.begin(), files.end());  // the same order everywhere: determinism
      for (auto& f : files) add(f);
    } else if (fs::is_regular_file(in, ec)) {
      add(in);
    } else {
      ta::refuse(kTool, in + ": no such corpus file or folder");
    }
  }
  if (corpus.empty()) ta::refuse(kTool, "the corpus is empty");

  for (int sig : {SIGABRT, SIGSEGV, SIGBUS, SIGFPE, SIGILL}) std::signal(sig, on_crash);
  if (__sanitizer_set_death_callback) __sanitizer_set_death_callback(on_sanitizer_death);
  std::vector<std::string> dict;
  if (fuzz_dictionary)
    for (const char* const* w = fuzz_dictionary(); *w; ++w) dict.emplace_back(*w);
  auto t0 = std::chrono::steady_clock::now();
  uint64_t done = 0;
  for (auto& c : corpus) {
    run_one(c);
    ++done;
  }
  std::mt19937_64 rng(seed);
  for (uint64_t n = 0; n < runs; ++n) {
    if (seconds && (n & 63) == 0 &&
        std::chrono::steady_clock::now() - t0 >= std::chrono::seconds(seconds))
      break;
    run_one(mutate(corpus, dict, rng));
    ++done;
  }
  double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::cout << kTool << ": " << done << " runs (" << corpus.size() << " corpus files, " << corpus_bytes
            << " bytes, seed " << seed << ") in " << s << " s, " << uint64_t(double(done) / std::max(s, 1e-9))
            << " runs/s: no crash\n";
  return 0;
}
