// The consumer loop over an in-memory consumer group and archive: acks only
// what the archive holds, re-reads its own pending entries first, retries
// through a store outage, and takes over a stopped consumer's entries.
#include "rating/results_consumer.h"

#include <gtest/gtest.h>

#include <memory>

#include "fake_archive_store.h"
#include "fake_result_source.h"
#include "metrics_test_util.h"
#include "test_records.h"

namespace draughts::rating::testing {
namespace {

using platform::testing::MetricValue;

class ResultsConsumerTest : public ::testing::Test {
 protected:
  ResultsConsumerTest() {
    options_.batch_size = 4;
    options_.claim_idle = absl::Minutes(1);
    options_.claim_every = absl::Seconds(30);
  }

  std::unique_ptr<ResultsConsumer> Consumer(FakeResultSource* source) {
    return std::make_unique<ResultsConsumer>(source, &archiver_, &metrics_, options_,
                                             [this] { return now_; });
  }
  std::string AddGame(const std::string& game_id) {
    return stream_.Add(PlayedRecord(game_id, "international", 12).SerializeAsString(), game_id);
  }
  // Steps until a step reads nothing new and nothing is left to do (at most
  // `steps`); every step must succeed.
  void Drain(ResultsConsumer& consumer, int steps = 10) {
    for (int i = 0; i < steps; ++i) ASSERT_TRUE(consumer.Step().ok());
  }

  absl::Time now_ = absl::FromUnixSeconds(1767300000);
  FakeStream stream_{&now_};
  FakeArchiveStore store_;
  std::shared_ptr<prometheus::Registry> registry_ = std::make_shared<prometheus::Registry>();
  ArchiveMetrics metrics_{*registry_};
  Archiver archiver_{&store_, &metrics_, [this] { return now_; }};
  ResultsConsumerOptions options_;
};

TEST_F(ResultsConsumerTest, ArchivesNewEntriesAndAcknowledgesThem) {
  FakeResultSource source(&stream_, "a");
  auto consumer = Consumer(&source);
  ASSERT_TRUE(consumer->Step().ok());  // creates the group
  for (int i = 0; i < 6; ++i) AddGame("g" + std::to_string(i));
  Drain(*consumer);
  EXPECT_EQ(store_.size(), 6u);
  EXPECT_TRUE(stream_.Pending().empty());
  EXPECT_EQ(stream_.Undelivered(), 0);
  EXPECT_EQ(MetricValue(*registry_, "draughts_archive_games_total"), 6);
}

TEST_F(ResultsConsumerTest, AMalformedEntryIsAcknowledgedAndDoesNotBlockTheNext) {
  FakeResultSource source(&stream_, "a");
  auto consumer = Consumer(&source);
  ASSERT_TRUE(consumer->Step().ok());
  stream_.Add(std::string("garbage"), "g-bad");
  AddGame("g-good");
  Drain(*consumer);
  EXPECT_TRUE(stream_.Pending().empty());
  EXPECT_EQ(store_.size(), 1u);
  EXPECT_TRUE(store_.Find("g-good")->has_value());
  EXPECT_EQ(MetricValue(*registry_, "draughts_archive_malformed_total", {{"reason", "unparsable"}}),
            1);
}

TEST_F(ResultsConsumerTest, AStoreOutageKeepsEntriesPendingUntilTheyAreArchivedOnce) {
  FakeResultSource source(&stream_, "a");
  auto consumer = Consumer(&source);
  ASSERT_TRUE(consumer->Step().ok());
  const std::string first = AddGame("g1");
  const std::string second = AddGame("g2");
  store_.FailWith(absl::UnavailableError("PostgreSQL down"));
  for (int i = 0; i < 5; ++i) {
    const absl::Status status = consumer->Step();
    if (!status.ok()) {
      EXPECT_EQ(status.code(), absl::StatusCode::kUnavailable) << status;
    }
  }
  EXPECT_EQ(store_.size(), 0u);
  EXPECT_EQ(stream_.Pending("a"), (std::vector<std::string>{first, second}));

  store_.FailWith(absl::OkStatus());
  Drain(*consumer);
  EXPECT_EQ(store_.size(), 2u);
  EXPECT_TRUE(stream_.Pending().empty());
  EXPECT_EQ(MetricValue(*registry_, "draughts_archive_games_total"), 2);
  EXPECT_EQ(MetricValue(*registry_, "draughts_archive_duplicates_total"), 0);
}

TEST_F(ResultsConsumerTest, ARestartedConsumerReadsItsOwnPendingEntriesBeforeNewOnes) {
  FakeResultSource before_crash(&stream_, "a");
  ASSERT_TRUE(before_crash.CreateGroup().ok());
  const std::string read_not_acked = AddGame("g1");
  ASSERT_EQ(before_crash.ReadNew(10, absl::ZeroDuration())->size(), 1u);  // then "crashed"
  AddGame("g2");

  // The first archive write must be g1's: pending before new.
  FakeResultSource restarted(&stream_, "a");
  auto consumer = Consumer(&restarted);
  ASSERT_TRUE(consumer->Step().ok());  // group + claim round (g1 not idle long enough)
  EXPECT_EQ(store_.size(), 0u);
  ASSERT_TRUE(consumer->Step().ok());  // own pending
  EXPECT_EQ(store_.size(), 1u);
  EXPECT_TRUE(store_.Find("g1")->has_value());
  Drain(*consumer);
  EXPECT_EQ(store_.size(), 2u);
  EXPECT_TRUE(stream_.Pending().empty());
}

TEST_F(ResultsConsumerTest, AnotherConsumerTakesOverEntriesLeftByAStoppedOneAfterClaimIdle) {
  FakeResultSource dead(&stream_, "dead");
  ASSERT_TRUE(dead.CreateGroup().ok());
  const std::string orphan = AddGame("g-orphan");
  ASSERT_EQ(dead.ReadNew(10, absl::ZeroDuration())->size(), 1u);  // read, never acked

  FakeResultSource live(&stream_, "live");
  auto consumer = Consumer(&live);
  Drain(*consumer);
  EXPECT_EQ(store_.size(), 0u) << "claimed before claim_idle";
  EXPECT_EQ(stream_.Pending("dead"), std::vector<std::string>{orphan});

  now_ += options_.claim_idle + options_.claim_every;
  Drain(*consumer);
  EXPECT_EQ(store_.size(), 1u);
  EXPECT_TRUE(store_.Find("g-orphan")->has_value());
  EXPECT_TRUE(stream_.Pending().empty());
  EXPECT_EQ(MetricValue(*registry_, "draughts_results_claimed_total"), 1);
}

TEST_F(ResultsConsumerTest, EntriesDeletedWhilePendingAreCountedAndLeaveThePendingList) {
  FakeResultSource before(&stream_, "a");
  ASSERT_TRUE(before.CreateGroup().ok());
  const std::string first = AddGame("g1");
  const std::string second = AddGame("g2");
  ASSERT_EQ(before.ReadNew(10, absl::ZeroDuration())->size(), 2u);
  stream_.Delete(first);
  stream_.Delete(second);
  FakeResultSource restarted(&stream_, "a");
  auto consumer = Consumer(&restarted);
  Drain(*consumer);
  EXPECT_TRUE(stream_.Pending().empty());
  EXPECT_EQ(store_.size(), 0u);
  EXPECT_EQ(MetricValue(*registry_, "draughts_archive_malformed_total", {{"reason", "no_data"}}),
            2);
  EXPECT_EQ(MetricValue(*registry_, "draughts_results_claimed_total"), 0);
}

TEST_F(ResultsConsumerTest, AnEntryDeliveredTwiceIsArchivedOnce) {
  FakeResultSource slow(&stream_, "slow");
  ASSERT_TRUE(slow.CreateGroup().ok());
  AddGame("g1");
  auto entries = slow.ReadNew(10, absl::ZeroDuration());
  ASSERT_EQ(entries->size(), 1u);
  // "slow" archives but has not acked yet when "fast" claims the entry.
  ASSERT_EQ(archiver_.Handle(entries->front()).outcome, EntryOutcome::kArchived);
  now_ += options_.claim_idle;
  FakeResultSource fast(&stream_, "fast");
  auto consumer = Consumer(&fast);
  Drain(*consumer);
  EXPECT_EQ(stream_.Deliveries(entries->front().id), 2);
  EXPECT_EQ(store_.size(), 1u);
  EXPECT_EQ(MetricValue(*registry_, "draughts_archive_games_total"), 1);
  EXPECT_EQ(MetricValue(*registry_, "draughts_archive_duplicates_total"), 1);
  EXPECT_TRUE(stream_.Pending().empty());
  // The late ack of "slow" is harmless.
  EXPECT_TRUE(slow.Ack({entries->front().id}).ok());
}

TEST_F(ResultsConsumerTest, ARedisOutageIsAnErrorAndNothingIsAcknowledgedMeanwhile) {
  FakeResultSource source(&stream_, "a");
  auto consumer = Consumer(&source);
  ASSERT_TRUE(consumer->Step().ok());
  AddGame("g1");
  stream_.FailWith(absl::UnavailableError("Redis down"));
  EXPECT_EQ(consumer->Step().code(), absl::StatusCode::kUnavailable);
  EXPECT_EQ(store_.size(), 0u);
  stream_.FailWith(absl::OkStatus());
  Drain(*consumer);
  EXPECT_EQ(store_.size(), 1u);
  EXPECT_TRUE(stream_.Pending().empty());
}

TEST_F(ResultsConsumerTest, ReportsTheGroupBacklog) {
  FakeResultSource source(&stream_, "a");
  ASSERT_TRUE(source.CreateGroup().ok());
  AddGame("g1");
  AddGame("g2");
  AddGame("g3");
  ASSERT_EQ(source.ReadNew(1, absl::ZeroDuration())->size(), 1u);
  store_.FailWith(absl::UnavailableError("down"));
  auto consumer = Consumer(&source);
  (void)consumer->Step();  // the claim round refreshes the backlog first
  EXPECT_EQ(MetricValue(*registry_, "draughts_results_pending"), 1);
  EXPECT_EQ(MetricValue(*registry_, "draughts_results_lag"), 2);
}

TEST_F(ResultsConsumerTest, StartAndStopRunTheLoopInAThread) {
  FakeResultSource source(&stream_, "a");
  ASSERT_TRUE(source.CreateGroup().ok());
  AddGame("g1");
  options_.block = absl::Milliseconds(10);
  auto consumer = Consumer(&source);
  consumer->Start();
  for (int i = 0; i < 500 && store_.size() == 0; ++i) absl::SleepFor(absl::Milliseconds(10));
  consumer->Stop();
  consumer->Stop();  // idempotent
  EXPECT_EQ(store_.size(), 1u);
  EXPECT_TRUE(stream_.Pending().empty());
}

}  // namespace
}  // namespace draughts::rating::testing
