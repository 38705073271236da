#pragma once

// How long to think, given the GUI's "level" command: a fixed time per move
// or a share of the remaining game time. Pure arithmetic, so the engine
// program and tests agree on it.

#include <chrono>

#include "hub/commands.h"

namespace draughts::hub {

struct TimeBudget {
  // What the search aims to use, and the cap it must never pass; zero when
  // the level sets no time limit.
  std::chrono::milliseconds target{0};
  std::chrono::milliseconds hard{0};

  bool limited() const { return hard.count() > 0; }
  friend bool operator==(const TimeBudget&, const TimeBudget&) = default;
};

// Moves assumed left in the game when the GUI gives a clock but no
// "moves=" count (sudden death, or time plus increment).
inline constexpr int kAssumedMovesLeft = 30;
// Never plan to think less than this: an answer takes some time to write.
inline constexpr std::chrono::milliseconds kMinThinkTime{10};

// move-time=S: target and cap S. time=T [inc=I] [moves=N]: target
// T/N + I (N = kAssumedMovesLeft when absent), cap three times that but at
// most half the remaining time plus the increment. With both forms the
// smaller budget wins. Always at least kMinThinkTime when limited.
TimeBudget BudgetFor(const LevelCommand& level);

}  // namespace draughts::hub
