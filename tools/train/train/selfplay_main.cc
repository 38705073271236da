// selfplay: writes training positions from engine self-play.
//
//   selfplay --variant=international --games=2000 --out=FILE
//            [--nodes=3000] [--random-plies=2..8] [--sample-rate=0.5]
//            [--seed=1] [--eval=classic|pattern] [--minutes=25]
//
// Appends "<result> <score> <fen>" lines (train/training_data.h) to FILE and
// prints games, positions, positions/s. Stops after --games or --minutes,
// whichever comes first. One thread; run it under nice (docs/EVALUATION.md).

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <string>
#include <string_view>

#include "engine/engine.h"
#include "rules/variant.h"
#include "train/selfplay.h"

namespace {

using namespace draughts;

int Usage(std::string_view why) {
  std::cerr << "selfplay: " << why << "\n"
            << "usage: selfplay --variant=ID --games=N --out=FILE [--nodes=N]\n"
               "                [--random-plies=MIN..MAX] [--sample-rate=P] [--seed=N]\n"
               "                [--eval=classic|pattern] [--minutes=M]\n";
  return 2;
}

bool ReadInt(std::string_view text, long long lo, long long hi, long long& out) {
  char* end = nullptr;
  const std::string s(text);
  const long long v = std::strtoll(s.c_str(), &end, 10);
  if (s.empty() || *end != '\0' || v < lo || v > hi) return false;
  out = v;
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  std::string variant_id = "international";
  std::string out_path;
  long long games = 0, nodes = 3000, seed = 1, minutes = 25;
  double sample_rate = 0.5;
  train::SelfPlayOptions options;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    const auto eq = arg.find('=');
    if (eq == std::string_view::npos) return Usage("bad argument '" + std::string(arg) + "'");
    const std::string_view flag = arg.substr(0, eq);
    const std::string_view value = arg.substr(eq + 1);
    long long lo = 0, hi = 0;
    if (flag == "--variant") {
      variant_id = value;
    } else if (flag == "--out") {
      out_path = value;
    } else if (flag == "--games") {
      if (!ReadInt(value, 1, 100000000, games)) return Usage("bad --games");
    } else if (flag == "--nodes") {
      if (!ReadInt(value, 1, 100000000, nodes)) return Usage("bad --nodes");
    } else if (flag == "--seed") {
      if (!ReadInt(value, 0, 1LL << 62, seed)) return Usage("bad --seed");
    } else if (flag == "--minutes") {
      if (!ReadInt(value, 1, 10000, minutes)) return Usage("bad --minutes");
    } else if (flag == "--sample-rate") {
      sample_rate = std::strtod(std::string(value).c_str(), nullptr);
      if (!(sample_rate > 0 && sample_rate <= 1)) return Usage("bad --sample-rate");
    } else if (flag == "--random-plies") {
      const auto dots = value.find("..");
      if (dots == std::string_view::npos || !ReadInt(value.substr(0, dots), 0, 100, lo) ||
          !ReadInt(value.substr(dots + 2), lo, 100, hi)) {
        return Usage("bad --random-plies (MIN..MAX)");
      }
      options.min_random_plies = static_cast<int>(lo);
      options.max_random_plies = static_cast<int>(hi);
    } else if (flag == "--eval") {
      if (value != "classic" && value != "pattern") return Usage("--eval is classic or pattern");
      options.classic_eval = value == "classic";
    } else {
      return Usage("unknown flag '" + std::string(flag) + "'");
    }
  }
  if (games == 0 || out_path.empty()) return Usage("--games and --out are required");
  auto variant = rules::FindVariant(variant_id);
  if (!variant.ok()) return Usage(variant.error().message);
  options.nodes_per_move = nodes;
  options.sample_rate = sample_rate;

  std::ofstream out(out_path, std::ios::app);
  if (!out) return Usage("cannot open " + out_path);
  engine::Engine engine(4);
  const auto start = std::chrono::steady_clock::now();
  const auto deadline = start + std::chrono::minutes(minutes);
  long long positions = 0, played = 0, wins = 0, draws = 0, plies = 0;
  for (long long g = 0; g < games && std::chrono::steady_clock::now() < deadline; ++g) {
    const auto game = train::PlaySelfPlayGame(*variant, options, engine,
                                              static_cast<std::uint64_t>(seed) * 1000003 + g);
    for (const auto& s : game.samples) out << train::FormatSample(s) << '\n';
    positions += static_cast<long long>(game.samples.size());
    ++played;
    plies += game.plies;
    wins += game.result == 1.0;
    draws += game.result == 0.5;
    if (played % 100 == 0) {
      const double secs =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      std::fprintf(stderr, "selfplay: %lld games, %lld positions, %.0f s\n", played, positions,
                   secs);
    }
  }
  out.flush();
  const double secs =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf(
      "selfplay %s: %lld games (white won %lld, drawn %lld, black won %lld), %.1f plies/game, "
      "%lld positions in %.0f s (%.0f positions/s)\n",
      std::string(variant->id).c_str(), played, wins, draws, played - wins - draws,
      played ? static_cast<double>(plies) / static_cast<double>(played) : 0.0, positions, secs,
      secs > 0 ? static_cast<double>(positions) / secs : 0.0);
  return out ? 0 : 1;
}
