#include "hub/time_budget.h"

#include <algorithm>

namespace draughts::hub {
namespace {

std::chrono::milliseconds Millis(double seconds) {
  return std::chrono::milliseconds(static_cast<long long>(seconds * 1000.0));
}

TimeBudget AtLeastMinimum(TimeBudget budget) {
  budget.target = std::max(budget.target, kMinThinkTime);
  budget.hard = std::max(budget.hard, budget.target);
  return budget;
}

}  // namespace

TimeBudget BudgetFor(const LevelCommand& level) {
  std::optional<TimeBudget> budget;
  if (level.move_time) {
    const auto t = Millis(*level.move_time);
    budget = AtLeastMinimum({t, t});
  }
  if (level.time) {
    const double inc = level.increment.value_or(0.0);
    const int moves_left = level.moves && *level.moves > 0 ? *level.moves : kAssumedMovesLeft;
    const double target = *level.time / moves_left + inc;
    const double hard = std::min(3.0 * target, *level.time / 2.0 + inc);
    TimeBudget clock = AtLeastMinimum({Millis(std::min(target, hard)), Millis(hard)});
    if (!budget || clock.hard < budget->hard) budget = clock;
  }
  return budget.value_or(TimeBudget{});
}

}  // namespace draughts::hub
