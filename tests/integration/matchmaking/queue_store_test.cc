// The quick-pair queue script on real Redis with an injected clock: the
// window widens with the wait exactly as PairingWindow says, pairs are
// made once, and a pair nobody seated is claimed again after its lease.
#include <gtest/gtest.h>

#include "absl/strings/str_cat.h"
#include "matchmaking/redis_table_store.h"
#include "matchmaking/table_rules.h"
#include "platform/redis_pool.h"
#include "platform/secret_tokens.h"
#include "platform/testing/test_env.h"

namespace draughts::matchmaking {
namespace {

using Outcome = RedisTableStore::JoinOutcome;

class QueueStoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    absl::StatusOr<std::string> address = platform::testing::RequiredTestEnv("DRAUGHTS_TEST_REDIS");
    ASSERT_TRUE(address.ok()) << address.status();
    absl::StatusOr<platform::RedisOptions> options = platform::ParseRedisAddress(*address);
    ASSERT_TRUE(options.ok());
    pool_ = std::make_unique<platform::RedisPool>(*options, 2);
    std::string random = platform::RandomUrlSafeString(6);
    for (char& c : random) c = (c == '-' || c == '_') ? 'x' : c;
    store_ = std::make_unique<RedisTableStore>(
        pool_.get(), RedisTableStoreOptions{.prefix = absl::StrCat("mmq-", random, ":")});
  }

  v1::Seat Player(const std::string& id) {
    v1::Seat seat;
    seat.set_kind(v1::SEAT_KIND_PERSON);
    seat.set_player_id(id);
    seat.set_display_name(id);
    return seat;
  }

  Outcome Join(const std::string& id, int rating, absl::Time at) {
    absl::StatusOr<Outcome> outcome =
        store_->JoinQueue("q", at, id, rating, absl::StrCat("ticket-", id), Player(id), 100);
    EXPECT_TRUE(outcome.ok()) << outcome.status();
    return outcome.ok() ? *outcome : Outcome();
  }

  std::vector<std::string> Sweep(absl::Time at) {
    absl::StatusOr<std::vector<std::string>> pairs = store_->SweepQueue("q", at, params_);
    EXPECT_TRUE(pairs.ok()) << pairs.status();
    return pairs.ok() ? *pairs : std::vector<std::string>();
  }

  std::unique_ptr<platform::RedisPool> pool_;
  std::unique_ptr<RedisTableStore> store_;
  RedisTableStore::SweepParams params_{.base = 100,
                                       .widen_by = 50,
                                       .widen_every = absl::Seconds(10),
                                       .max = 400,
                                       .lease = absl::Seconds(5)};
  const absl::Time t0_ = absl::FromUnixSeconds(1'800'000'000);
};

TEST_F(QueueStoreTest, CloseRatingsPairAtOnceWithTheLongestWaiting) {
  ASSERT_EQ(Join("old", 1450, t0_).kind, Outcome::Kind::kQueued);
  ASSERT_EQ(Join("far", 1700, t0_).kind, Outcome::Kind::kQueued);
  ASSERT_EQ(Join("young", 1560, t0_ + absl::Seconds(1)).kind, Outcome::Kind::kQueued)
      << "110 from old, 140 from far";
  Outcome paired = Join("new", 1530, t0_ + absl::Seconds(2));
  ASSERT_EQ(paired.kind, Outcome::Kind::kPaired) << "old and young are both within 100";
  EXPECT_EQ(paired.table_id, "ticket-old") << "the longest waiting hosts";
  EXPECT_EQ(paired.pending, "ticket-old|ticket-new|0");
}

TEST_F(QueueStoreTest, WindowWidensWithTheWait) {
  ASSERT_EQ(Join("a", 1500, t0_).kind, Outcome::Kind::kQueued);
  ASSERT_EQ(Join("b", 1730, t0_).kind, Outcome::Kind::kQueued) << "230 apart";
  const PairingWindow window{
      .base = 100, .widen_by = 50, .widen_every = absl::Seconds(10), .max = 400};
  // 230 needs a window of 250: three widenings, 30 s of waiting.
  for (absl::Duration waited : {absl::Seconds(0), absl::Seconds(10), absl::Seconds(29)}) {
    ASSERT_LT(window.After(waited), 230);
    EXPECT_TRUE(Sweep(t0_ + waited).empty()) << "paired after " << waited;
  }
  ASSERT_GE(window.After(absl::Seconds(30)), 230);
  std::vector<std::string> pairs = Sweep(t0_ + absl::Seconds(30));
  ASSERT_EQ(pairs.size(), 1u);
  EXPECT_EQ(pairs[0], "ticket-a|ticket-b|1");
  EXPECT_TRUE(Sweep(t0_ + absl::Seconds(31)).empty()) << "paired once";
  // Not seated within the lease: claimed again, by any replica.
  std::vector<std::string> again = Sweep(t0_ + absl::Seconds(36));
  ASSERT_EQ(again.size(), 1u);
  EXPECT_EQ(again[0], pairs[0]);
  ASSERT_TRUE(store_->FinishPair("q", pairs[0], {"ticket-b", "ticket-a"}).ok());
  EXPECT_TRUE(Sweep(t0_ + absl::Seconds(60)).empty());
}

TEST_F(QueueStoreTest, EachWindowMustCoverTheDifference) {
  ASSERT_EQ(Join("veteran", 1500, t0_).kind, Outcome::Kind::kQueued);
  // The veteran's window is 400 after a minute; the newcomer's is 100.
  const absl::Time later = t0_ + absl::Minutes(1);
  EXPECT_EQ(Join("newcomer", 1800, later).kind, Outcome::Kind::kQueued);
  EXPECT_TRUE(Sweep(later).empty());
  EXPECT_TRUE(Sweep(later + absl::Seconds(30)).empty()) << "newcomer's window is 250";
  EXPECT_EQ(Sweep(later + absl::Seconds(40)).size(), 1u) << "now 300 on both sides";
}

TEST_F(QueueStoreTest, RetriesAndLeaving) {
  ASSERT_EQ(Join("host", 1500, t0_).kind, Outcome::Kind::kQueued);
  Outcome again = Join("host", 1500, t0_ + absl::Seconds(1));
  EXPECT_EQ(again.kind, Outcome::Kind::kWaiting) << "already waiting";
  EXPECT_EQ(again.table_id, "ticket-host");
  Outcome paired = Join("guest", 1550, t0_ + absl::Seconds(2));
  ASSERT_EQ(paired.kind, Outcome::Kind::kPaired);
  EXPECT_EQ(paired.table_id, "ticket-host");
  // A retry of the same request (same ticket) learns the same pair.
  Outcome retried = Join("guest", 1550, t0_ + absl::Seconds(3));
  EXPECT_EQ(retried.kind, Outcome::Kind::kPaired);
  EXPECT_EQ(retried.table_id, "ticket-host");
  absl::StatusOr<v1::Seat> seat = store_->TicketSeat("q", "ticket-guest");
  ASSERT_TRUE(seat.ok());
  EXPECT_EQ(seat->player_id(), "guest");

  ASSERT_EQ(Join("quitter", 2000, t0_).kind, Outcome::Kind::kQueued);
  absl::StatusOr<bool> left = store_->LeaveQueue("q", "quitter", "ticket-quitter");
  ASSERT_TRUE(left.ok());
  EXPECT_TRUE(*left);
  EXPECT_EQ(Join("near-quitter", 2010, t0_ + absl::Seconds(1)).kind, Outcome::Kind::kQueued)
      << "the quitter is gone";
}

// A join registers its queue for the sweepers in the same round trip, and
// still works after Redis forgot the script (restart, failover).
TEST_F(QueueStoreTest, JoinRegistersTheQueueAndSurvivesAForgottenScript) {
  ASSERT_EQ(Join("first", 1500, t0_).kind, Outcome::Kind::kQueued);
  {
    absl::StatusOr<platform::RedisPool::Lease> redis = pool_->Borrow();
    ASSERT_TRUE(redis.ok()) << redis.status();
    ASSERT_TRUE((*redis)->Command({"SCRIPT", "FLUSH"}).ok());
  }
  Outcome paired = Join("second", 1510, t0_ + absl::Seconds(1));
  EXPECT_EQ(paired.kind, Outcome::Kind::kPaired) << "the script was loaded again";
  EXPECT_EQ(paired.table_id, "ticket-first");
  absl::StatusOr<std::vector<std::string>> queues = store_->Queues();
  ASSERT_TRUE(queues.ok()) << queues.status();
  EXPECT_EQ(*queues, std::vector<std::string>{"q"});
}

}  // namespace
}  // namespace draughts::matchmaking
