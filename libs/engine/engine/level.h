#pragma once

// The three bot strengths are parameters of one engine, not three engines:
// how deep and how long it may think, and how much it errs on purpose.

#include <chrono>
#include <cstdint>
#include <optional>
#include <string_view>

#include "rules/variant.h"

namespace draughts::engine {

enum class Level : std::uint8_t { kEasy, kMedium, kHard };

// "easy", "medium", "hard".
std::string_view LevelName(Level level);
// Case-insensitive inverse of LevelName; nullopt for anything else.
std::optional<Level> ParseLevel(std::string_view name);

struct LevelParams {
  int max_depth = 0;
  std::int64_t max_nodes = 0;  // 0 = no limit
  // The time the level aims to think and the hard cap it never exceeds
  // (SearchLimits::target_time and move_time).
  std::chrono::milliseconds target_time{0};
  std::chrono::milliseconds move_time{0};
  // Each root move's score gets a uniform random offset in
  // [-eval_noise_cp, +eval_noise_cp] before the best one is chosen, so the
  // bot varies its play and misjudges close positions.
  int eval_noise_cp = 0;
  // Chance of playing a uniformly random legal move instead of searching.
  double random_move_probability = 0.0;
  // SearchLimits::keep_pace.
  bool keep_pace = false;
};

LevelParams ParamsFor(Level level, const rules::Variant& variant);

}  // namespace draughts::engine
