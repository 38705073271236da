#include "hub/time_budget.h"

#include <gtest/gtest.h>

namespace draughts::hub {
namespace {

using std::chrono::milliseconds;

TEST(TimeBudgetTest, NoTimeLimitsMeansUnlimited) {
  EXPECT_FALSE(BudgetFor(LevelCommand{}).limited());
  EXPECT_FALSE(BudgetFor(LevelCommand{.depth = 5}).limited());
  EXPECT_FALSE(BudgetFor(LevelCommand{.infinite = true}).limited());
}

TEST(TimeBudgetTest, MoveTimeIsTargetAndCap) {
  EXPECT_EQ(BudgetFor(LevelCommand{.move_time = 1.5}),
            (TimeBudget{milliseconds(1500), milliseconds(1500)}));
  // Zero still leaves time to answer.
  EXPECT_EQ(BudgetFor(LevelCommand{.move_time = 0}), (TimeBudget{kMinThinkTime, kMinThinkTime}));
}

TEST(TimeBudgetTest, ClockSharesTheRemainingTime) {
  // x/y control: 9 moves in 90 s -> 10 s each, cap 30 s.
  EXPECT_EQ(BudgetFor(LevelCommand{.moves = 9, .time = 90}),
            (TimeBudget{milliseconds(10000), milliseconds(30000)}));
  // Sudden death assumes kAssumedMovesLeft moves.
  EXPECT_EQ(BudgetFor(LevelCommand{.time = 60}).target, milliseconds(60000 / kAssumedMovesLeft));
  // Fischer: the increment is added.
  EXPECT_EQ(BudgetFor(LevelCommand{.time = 60, .increment = 1}).target,
            milliseconds(60000 / kAssumedMovesLeft + 1000));
  // Never more than half of what is left (plus the increment).
  EXPECT_EQ(BudgetFor(LevelCommand{.moves = 1, .time = 4}),
            (TimeBudget{milliseconds(2000), milliseconds(2000)}));
}

TEST(TimeBudgetTest, SmallerOfBothFormsWins) {
  EXPECT_EQ(BudgetFor(LevelCommand{.move_time = 0.5, .moves = 9, .time = 90}).hard,
            milliseconds(500));
  EXPECT_EQ(BudgetFor(LevelCommand{.move_time = 50, .moves = 9, .time = 90}).hard,
            milliseconds(30000));
}

}  // namespace
}  // namespace draughts::hub
