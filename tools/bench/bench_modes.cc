#include "bench_modes.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <random>
#include <string>
#include <vector>

#include "bench_positions.h"
#include "engine/engine.h"
#include "rules/fen.h"
#include "rules/game.h"
#include "rules/move_notation.h"
#include "rules/variant.h"

namespace draughts::bench {
namespace {

using Clock = std::chrono::steady_clock;

// Depth of the reference search that judges the levels' moves.
constexpr int kReferenceDepth = 8;

// Process CPU time: on a machine shared with other work, wall-clock nodes
// per second say more about the load than about the engine.
double CpuSeconds() {
  return static_cast<double>(std::clock()) / CLOCKS_PER_SEC;
}

bool Selected(const BenchOptions& options, std::string_view variant) {
  return options.variant.empty() || options.variant == variant;
}

double Seconds(Clock::duration d) {
  return std::chrono::duration<double>(d).count();
}

double Nps(std::int64_t nodes, double seconds) {
  return seconds > 0 ? static_cast<double>(nodes) / seconds : 0.0;
}

std::string Str(std::string_view s) {
  return std::string(s);
}

}  // namespace

int RunFixedDepth(const BenchOptions& options) {
  std::printf("%-14s %-11s %5s %12s %9s %11s %11s  %-10s %6s\n", "variant", "position", "depth",
              "nodes", "ms", "nps", "cpu nps", "best", "score");
  std::int64_t total_nodes = 0;
  double total_seconds = 0;
  double total_cpu = 0;
  int searched = 0;
  for (const BenchPosition& bp : BenchPositions()) {
    if (!Selected(options, bp.variant)) continue;
    auto variant = rules::FindVariant(bp.variant);
    if (!variant.ok()) {
      std::fprintf(stderr, "bench: %s\n", variant.error().ToString().c_str());
      return 1;
    }
    auto position = bp.fen == kStartFen
                        ? rules::Result<rules::Position>(rules::Position::Initial(*variant))
                        : rules::ParseFen(*variant, bp.fen);
    if (!position.ok()) {
      std::fprintf(stderr, "bench: %s %s: %s\n", Str(bp.variant).c_str(), Str(bp.label).c_str(),
                   position.error().ToString().c_str());
      return 1;
    }
    // A fresh engine per position: the count must not depend on the order.
    engine::Engine engine(options.tt_megabytes);
    engine.SetClassicEvaluation(options.classic_eval);
    const int depth = options.depth > 0 ? options.depth : bp.depth;
    const auto start = Clock::now();
    const double cpu_start = CpuSeconds();
    auto result = engine.Search(*variant, *position, engine::GameHistory{}, {.max_depth = depth});
    const double seconds = Seconds(Clock::now() - start);
    const double cpu = CpuSeconds() - cpu_start;
    if (!result.ok()) {
      std::fprintf(stderr, "bench: %s %s: %s\n", Str(bp.variant).c_str(), Str(bp.label).c_str(),
                   result.error().ToString().c_str());
      return 1;
    }
    total_nodes += result->info.nodes;
    total_seconds += seconds;
    total_cpu += cpu;
    ++searched;
    std::printf(
        "%-14s %-11s %5d %12lld %9.0f %11.0f %11.0f  %-10s %6d\n", Str(bp.variant).c_str(),
        Str(bp.label).c_str(), result->info.depth, static_cast<long long>(result->info.nodes),
        seconds * 1000, Nps(result->info.nodes, seconds), Nps(result->info.nodes, cpu),
        rules::FormatMove(*variant, *position, result->best).c_str(), result->info.score_cp);
  }
  if (searched == 0) {
    std::fprintf(stderr, "bench: no position for rule set '%s'\n", Str(options.variant).c_str());
    return 1;
  }
  std::printf(
      "\ntotal: %d positions, %lld nodes, %.2f s, %.0f nps, %.0f nps of CPU time (%.0f%% CPU)\n",
      searched, static_cast<long long>(total_nodes), total_seconds, Nps(total_nodes, total_seconds),
      Nps(total_nodes, total_cpu), 100 * total_cpu / std::max(total_seconds, 1e-9));
  std::printf("signature: %lld\n", static_cast<long long>(total_nodes));
  return 0;
}

int RunTimed(const BenchOptions& options) {
  std::printf("%-14s %7s %5s %8s %12s %9s %11s %11s %5s  %-8s\n", "variant", "budget", "depth",
              "seldepth", "nodes", "ms", "nps", "cpu nps", "cpu%", "best");
  for (const rules::Variant& variant : rules::AllVariants()) {
    if (!Selected(options, variant.id)) continue;
    engine::Engine engine(options.tt_megabytes);
    engine.SetClassicEvaluation(options.classic_eval);
    const rules::GameRecord record(variant);
    const auto start = Clock::now();
    const double cpu_start = CpuSeconds();
    auto result = engine.Search(record, {.move_time = std::chrono::milliseconds(options.time_ms)});
    const double seconds = Seconds(Clock::now() - start);
    const double cpu = CpuSeconds() - cpu_start;
    if (!result.ok()) {
      std::fprintf(stderr, "bench: %s\n", result.error().ToString().c_str());
      return 1;
    }
    std::printf("%-14s %5d ms %5d %8d %12lld %9.0f %11.0f %11.0f %4.0f%%  %-8s\n",
                Str(variant.id).c_str(), options.time_ms, result->info.depth, result->info.seldepth,
                static_cast<long long>(result->info.nodes), seconds * 1000,
                Nps(result->info.nodes, seconds), Nps(result->info.nodes, cpu),
                100 * cpu / std::max(seconds, 1e-9),
                rules::FormatMove(variant, record.position(), result->best).c_str());
  }
  return 0;
}

namespace {

// How much worse the played move is than the best one, by a fixed-depth
// search of both (clamped so a missed mate counts as a large loss, not an
// astronomic one).
int MoveLoss(engine::Engine& reference, const rules::GameRecord& before,
             const rules::GameRecord& after) {
  constexpr int kClamp = 2000;
  auto best = reference.Search(before, {.max_depth = kReferenceDepth});
  if (!best.ok()) return 0;
  int played = 0;
  if (after.is_over()) {
    const auto winner = after.outcome().winner();
    played = !winner ? 0 : *winner == before.position().side_to_move() ? kClamp : -kClamp;
  } else {
    auto reply = reference.Search(after, {.max_depth = kReferenceDepth - 1});
    if (!reply.ok()) return 0;
    played = -reply->info.score_cp;
  }
  return std::clamp(best->info.score_cp, -kClamp, kClamp) - std::clamp(played, -kClamp, kClamp);
}

}  // namespace

int RunLevels(const BenchOptions& options) {
  std::printf("%-14s %-7s %6s %7s %9s %9s %9s %9s %9s\n", "variant", "level", "moves", "forced",
              "avg ms", "avg* ms", "max ms", "avg depth", "blunders");
  std::printf(
      "(avg* leaves out forced moves, which are answered at once; a blunder is a move that a\n"
      " depth-%d search scores at least a man worse than the best move)\n",
      kReferenceDepth);
  for (const rules::Variant& variant : rules::AllVariants()) {
    if (!Selected(options, variant.id)) continue;
    for (engine::Level level :
         {engine::Level::kEasy, engine::Level::kMedium, engine::Level::kHard}) {
      engine::Engine engine(options.tt_megabytes);
      engine::Engine reference(options.tt_megabytes);
      std::mt19937_64 rng(42);
      rules::GameRecord record(variant);
      int moves = 0;
      int forced = 0;
      int blunders = 0;
      double total_ms = 0;
      double thinking_ms = 0;
      double max_ms = 0;
      long depth_sum = 0;
      for (int ply = 0; ply < options.plies; ++ply) {
        if (record.is_over()) record = rules::GameRecord(variant);  // next game
        const bool is_forced = record.legal_moves().size() == 1;
        const auto start = Clock::now();
        auto result = engine.Play(level, record, rng);
        const double ms = Seconds(Clock::now() - start) * 1000;
        if (!result.ok()) {
          std::fprintf(stderr, "bench: %s\n", result.error().ToString().c_str());
          return 1;
        }
        ++moves;
        total_ms += ms;
        max_ms = std::max(max_ms, ms);
        depth_sum += result->info.depth;
        if (is_forced) {
          ++forced;
        } else {
          thinking_ms += ms;
        }
        auto next = record.Play(result->best);
        if (!next.ok()) {
          std::fprintf(stderr, "bench: illegal move from the engine: %s\n",
                       next.error().ToString().c_str());
          return 1;
        }
        if (!is_forced && MoveLoss(reference, record, *next) >= 100) ++blunders;
        record = *next;
      }
      const int thinking = moves - forced;
      std::printf("%-14s %-7s %6d %7d %9.1f %9.1f %9.1f %9.1f %8.0f%%\n", Str(variant.id).c_str(),
                  Str(engine::LevelName(level)).c_str(), moves, forced,
                  moves ? total_ms / moves : 0.0, thinking ? thinking_ms / thinking : 0.0, max_ms,
                  moves ? static_cast<double>(depth_sum) / moves : 0.0,
                  thinking ? 100.0 * blunders / thinking : 0.0);
    }
  }
  return 0;
}

}  // namespace draughts::bench
