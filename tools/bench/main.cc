// bench: engine benchmarks (see docs/BENCHMARKS.md).
//
//   bench [--variant ID] [--depth N] [--tt MB]   fixed-depth node signature and nps
//   bench --time [MS] [--variant ID]            depth reached in MS (default 1500)
//   bench --levels [--plies N] [--variant ID]   answer times of Easy/Medium/Hard
//   --eval classic: the hand-set evaluation only, where learned weights exist

#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "bench_modes.h"
#include "rules/variant.h"

namespace {

void Usage() {
  std::fprintf(stderr,
               "usage: bench [--variant ID] [--depth N] [--tt MB]\n"
               "       bench --time [MS] [--variant ID] [--tt MB]\n"
               "       bench --levels [--plies N] [--variant ID]\n"
               "       any mode: [--eval classic|pattern]\n");
}

// A positive integer, or -1.
int ParsePositive(std::string_view text) {
  if (text.empty() || text.size() > 9) return -1;
  int value = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return -1;
    value = value * 10 + (c - '0');
  }
  return value > 0 ? value : -1;
}

}  // namespace

int main(int argc, char** argv) {
  using draughts::bench::BenchOptions;
  BenchOptions options;
  enum class Mode { kFixedDepth, kTimed, kLevels } mode = Mode::kFixedDepth;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    const bool has_value = i + 1 < argc && argv[i + 1][0] != '-';
    auto number = [&](int& out) {
      if (!has_value || (out = ParsePositive(argv[++i])) < 0) {
        std::fprintf(stderr, "bench: %s needs a positive number\n", std::string(arg).c_str());
        return false;
      }
      return true;
    };
    if (arg == "--time") {
      mode = Mode::kTimed;
      if (has_value && !number(options.time_ms)) return 2;
    } else if (arg == "--levels") {
      mode = Mode::kLevels;
    } else if (arg == "--plies") {
      if (!number(options.plies)) return 2;
    } else if (arg == "--depth") {
      if (!number(options.depth)) return 2;
    } else if (arg == "--tt") {
      int mb = 0;
      if (!number(mb)) return 2;
      options.tt_megabytes = static_cast<std::size_t>(mb);
    } else if (arg == "--eval" && has_value) {
      const std::string_view eval = argv[++i];
      if (eval != "classic" && eval != "pattern") {
        std::fprintf(stderr, "bench: --eval is classic or pattern\n");
        return 2;
      }
      options.classic_eval = eval == "classic";
    } else if (arg == "--variant" && has_value) {
      options.variant = argv[++i];
      auto variant = draughts::rules::FindVariant(options.variant);
      if (!variant.ok()) {
        std::fprintf(stderr, "bench: %s\n", variant.error().ToString().c_str());
        return 2;
      }
    } else {
      Usage();
      return 2;
    }
  }
  switch (mode) {
    case Mode::kTimed:
      return draughts::bench::RunTimed(options);
    case Mode::kLevels:
      return draughts::bench::RunLevels(options);
    case Mode::kFixedDepth:
      break;
  }
  return draughts::bench::RunFixedDepth(options);
}
