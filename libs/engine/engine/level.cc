#include "engine/level.h"

#include <cctype>

#include "engine/search_types.h"

namespace draughts::engine {

std::string_view LevelName(Level level) {
  switch (level) {
    case Level::kEasy:
      return "easy";
    case Level::kMedium:
      return "medium";
    case Level::kHard:
      return "hard";
  }
  return "unknown";
}

std::optional<Level> ParseLevel(std::string_view name) {
  for (Level level : {Level::kEasy, Level::kMedium, Level::kHard}) {
    const std::string_view expected = LevelName(level);
    if (name.size() != expected.size()) continue;
    bool same = true;
    for (std::size_t i = 0; i < name.size(); ++i) {
      same = same && std::tolower(static_cast<unsigned char>(name[i])) == expected[i];
    }
    if (same) return level;
  }
  return std::nullopt;
}

LevelParams ParamsFor(Level level, const rules::Variant& variant) {
  using std::chrono::milliseconds;
  const bool small_board =
      variant.board == rules::BoardSize::k8x8 || variant.board == rules::BoardSize::kFull8x8;
  const bool large_board = variant.board == rules::BoardSize::k12x12;
  LevelParams p;
  switch (level) {
    case Level::kEasy:
      // Sees a capture coming (quiescence) but not much more, misjudges by
      // up to half a man, and one move in five is a random one. Must answer
      // within 50 ms.
      p.max_depth = small_board ? 3 : 2;
      p.target_time = milliseconds(20);
      p.move_time = milliseconds(40);
      p.eval_noise_cp = 50;
      p.random_move_probability = 0.22;
      break;
    case Level::kMedium:
      // A few plies plus quiescence: rarely leaves a piece hanging, misses
      // deeper shots. Must answer within 200 ms.
      p.max_depth = large_board ? 5 : 6;
      p.target_time = milliseconds(100);
      p.move_time = milliseconds(170);
      p.eval_noise_cp = 10;
      p.random_move_probability = 0.0;
      break;
    case Level::kHard:
      // Full strength: thinks about 1.5 s (an iteration in progress is cut
      // at the target), never more than 2.5 s (the product limit is 3 s),
      // forced moves and won or lost positions included, for an even pace
      // of about 1.5 s a move.
      p.keep_pace = true;
      p.max_depth = kMaxSearchDepth;
      p.target_time = milliseconds(1500);
      p.move_time = milliseconds(2500);
      p.eval_noise_cp = 0;
      p.random_move_probability = 0.0;
      break;
  }
  return p;
}

}  // namespace draughts::engine
