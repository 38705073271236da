#include "loadgen/move_ledger.h"

#include "gtest/gtest.h"

namespace draughts::loadgen {
namespace {

const absl::Time kSent = absl::FromUnixSeconds(1000);

TEST(MoveLedgerTest, AnAnsweredMoveIsOwedUntilItsEventComesOnce) {
  MoveLedger ledger;
  ledger.Sent(1, "32-28", kSent);
  EXPECT_EQ(ledger.Missing(), 0);  // not answered yet: nothing owed
  ledger.Acknowledged(1);
  EXPECT_EQ(ledger.Missing(), 1);
  MoveLedger::Observation first = ledger.Observe(1, "32-28");
  EXPECT_EQ(first.seen, MoveLedger::Seen::kFirst);
  EXPECT_EQ(first.sent_at, kSent);
  EXPECT_EQ(ledger.Missing(), 0);
  EXPECT_EQ(ledger.Observe(1, "32-28").seen, MoveLedger::Seen::kDuplicate);
}

TEST(MoveLedgerTest, AnEventAtAnotherPlyOrWithAnotherMoveIsUnexpected) {
  MoveLedger ledger;
  ledger.Sent(1, "32-28", kSent);
  ledger.Acknowledged(1);
  EXPECT_EQ(ledger.Observe(2, "32-28").seen, MoveLedger::Seen::kUnexpected);
  EXPECT_EQ(ledger.Observe(1, "33-28").seen, MoveLedger::Seen::kUnexpected);
  EXPECT_EQ(ledger.Missing(), 1);
}

TEST(MoveLedgerTest, AFailedMoveIsNotOwed) {
  MoveLedger ledger;
  ledger.Sent(3, "18-23", kSent);
  ledger.Failed(3);
  EXPECT_EQ(ledger.Missing(), 0);
  EXPECT_EQ(ledger.acknowledged(), 0);
  EXPECT_EQ(ledger.Observe(3, "18-23").seen, MoveLedger::Seen::kUnexpected);
}

}  // namespace
}  // namespace draughts::loadgen
