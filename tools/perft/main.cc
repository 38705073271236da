// perft --variant=ID --depth=N [--fen=FEN] [--divide] [--hash-mb=N]
//
// Counts move paths from a position. The last line on stdout is the count
// alone; --divide first prints "<move> <count>" for each legal move. Timing
// and speed go to stderr so scripts can compare stdout exactly.

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>

#include "rules/fen.h"
#include "rules/move_notation.h"
#include "rules/movegen.h"
#include "rules/perft.h"
#include "rules/position.h"
#include "rules/variant.h"

namespace {

using namespace draughts::rules;

struct Flags {
  std::string variant = "international";
  int depth = -1;
  std::string fen;
  bool divide = false;
  long hash_mb = 0;
};

int Usage(const std::string& problem) {
  std::fprintf(stderr,
               "perft: %s\nusage: perft --variant=ID --depth=N [--fen=FEN] [--divide] "
               "[--hash-mb=N]\n",
               problem.c_str());
  return 2;
}

bool ParseInt(std::string_view text, long max, long& out) {
  if (text.empty() || text.size() > 9) return false;
  long v = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return false;
    v = v * 10 + (c - '0');
  }
  if (v > max) return false;
  out = v;
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  Flags flags;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    auto value = [&](std::string_view name, std::string_view& out) {
      if (arg.substr(0, name.size()) != name) return false;
      out = arg.substr(name.size());
      return true;
    };
    std::string_view v;
    long n = 0;
    if (value("--variant=", v)) {
      flags.variant = std::string(v);
    } else if (value("--depth=", v)) {
      if (!ParseInt(v, 64, n)) return Usage("--depth must be an integer 0..64");
      flags.depth = static_cast<int>(n);
    } else if (value("--fen=", v)) {
      flags.fen = std::string(v);
    } else if (value("--hash-mb=", v)) {
      if (!ParseInt(v, 1 << 16, n)) return Usage("--hash-mb must be an integer 0..65536");
      flags.hash_mb = n;
    } else if (arg == "--divide") {
      flags.divide = true;
    } else {
      return Usage("unknown argument '" + std::string(arg) + "'");
    }
  }
  if (flags.depth < 0) return Usage("--depth is required");
  auto variant = FindVariant(flags.variant);
  if (!variant.ok()) return Usage(variant.error().ToString());

  Position position = Position::Initial(*variant);
  if (!flags.fen.empty()) {
    auto setup = ParseFen(flags.fen);
    if (!setup.ok()) return Usage("bad --fen: " + setup.error().ToString());
    auto parsed = Position::FromSetup(*variant, *setup);
    if (!parsed.ok()) return Usage("bad --fen: " + parsed.error().ToString());
    position = *parsed;
  }

  PerftOptions options;
  options.hash_bytes = static_cast<std::size_t>(flags.hash_mb) << 20;
  const auto start = std::chrono::steady_clock::now();
  std::uint64_t total = 0;
  if (flags.divide && flags.depth >= 1) {
    const MoveList moves = LegalMoves(*variant, position);
    for (const PerftDivideEntry& e : PerftDivide(*variant, position, flags.depth, options)) {
      std::printf("%s %llu\n", FormatMove(moves, e.move).c_str(),
                  static_cast<unsigned long long>(e.count));
      total += e.count;
    }
  } else {
    total = Perft(*variant, position, flags.depth, options);
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("%llu\n", static_cast<unsigned long long>(total));
  std::fprintf(stderr, "perft: variant=%s depth=%d hash=%ldMB time=%.3fs speed=%.1f Mnodes/s\n",
               flags.variant.c_str(), flags.depth, flags.hash_mb, seconds,
               seconds > 0 ? static_cast<double>(total) / seconds / 1e6 : 0.0);
  return 0;
}
