// The archive logic for one results entry, over the in-memory store: what
// is archived, what is a repeat, what is dropped, what must be retried.
#include "rating/archiver.h"

#include <gtest/gtest.h>

#include <memory>

#include "fake_archive_store.h"
#include "metrics_test_util.h"
#include "test_records.h"

namespace draughts::rating::testing {
namespace {

using platform::testing::MetricValue;

class ArchiverTest : public ::testing::Test {
 protected:
  ResultEntry Entry(const v1::ResultRecord& record) {
    return ResultEntry{"1-" + std::to_string(++entries_), record.SerializeAsString(),
                       record.game_id()};
  }
  double Metric(const std::string& name, const std::map<std::string, std::string>& labels = {}) {
    return MetricValue(*registry_, name, labels);
  }

  FakeArchiveStore store_;
  std::shared_ptr<prometheus::Registry> registry_ = std::make_shared<prometheus::Registry>();
  ArchiveMetrics metrics_{*registry_};
  absl::Time now_ = absl::FromUnixSeconds(1767300000);
  Archiver archiver_{&store_, &metrics_, [this] { return now_; }};
  int entries_ = 0;
};

TEST_F(ArchiverTest, ArchivesAFinishedGameOnceWithItsMovesAndTime) {
  const v1::ResultRecord record = PlayedRecord("g1");
  const HandledEntry handled = archiver_.Handle(Entry(record));
  EXPECT_EQ(handled.outcome, EntryOutcome::kArchived) << handled.status;
  EXPECT_TRUE(MayAcknowledge(handled.outcome));

  auto found = store_.Find("g1");
  ASSERT_TRUE(found.ok() && found->has_value());
  EXPECT_EQ((*found)->record.SerializeAsString(), record.SerializeAsString());
  EXPECT_EQ((*found)->archived_at, now_);
  EXPECT_EQ((*found)->record.moves_size(), record.ply());
  EXPECT_EQ(Metric("draughts_archive_games_total"), 1);
}

TEST_F(ArchiverTest, TheSameRecordAgainIsADuplicateAndChangesNothing) {
  const v1::ResultRecord record = PlayedRecord("g1");
  ASSERT_EQ(archiver_.Handle(Entry(record)).outcome, EntryOutcome::kArchived);
  const absl::Time first = now_;
  now_ += absl::Minutes(5);

  const HandledEntry again = archiver_.Handle(Entry(record));
  EXPECT_EQ(again.outcome, EntryOutcome::kDuplicate);
  EXPECT_TRUE(MayAcknowledge(again.outcome));
  EXPECT_EQ(store_.size(), 1u);
  EXPECT_EQ((*store_.Find("g1"))->archived_at, first);
  EXPECT_EQ(Metric("draughts_archive_games_total"), 1);
  EXPECT_EQ(Metric("draughts_archive_duplicates_total"), 1);
  EXPECT_EQ(Metric("draughts_archive_conflicts_total"), 0);
}

TEST_F(ArchiverTest, ADifferentRecordForAnArchivedGameIsCountedAndTheFirstIsKept) {
  const v1::ResultRecord first = PlayedRecord("g1", "international", 20, 1);
  v1::ResultRecord other = first;
  other.set_result(v1::GAME_RESULT_DRAW);
  other.set_reason(v1::RESULT_REASON_DRAW_AGREED);
  ASSERT_EQ(archiver_.Handle(Entry(first)).outcome, EntryOutcome::kArchived);

  const HandledEntry handled = archiver_.Handle(Entry(other));
  EXPECT_EQ(handled.outcome, EntryOutcome::kConflict);
  EXPECT_TRUE(MayAcknowledge(handled.outcome));
  EXPECT_EQ((*store_.Find("g1"))->record.result(), first.result());
  EXPECT_EQ(Metric("draughts_archive_conflicts_total"), 1);
  EXPECT_EQ(Metric("draughts_archive_duplicates_total"), 0);
}

TEST_F(ArchiverTest, MalformedEntriesAreAcknowledgedCountedAndNotArchived) {
  v1::ResultRecord ongoing = PlayedRecord("g-ongoing");
  ongoing.set_result(v1::GAME_RESULT_ONGOING);
  v1::ResultRecord unset = PlayedRecord("g-unset");
  unset.clear_result();
  v1::ResultRecord no_id = PlayedRecord("");
  struct Case {
    ResultEntry entry;
    std::string reason;
  };
  const std::vector<Case> cases = {
      {ResultEntry{"1-1", std::nullopt, "g-deleted"}, "no_data"},
      {ResultEntry{"1-2", std::string("\xff\xff\xff not a record"), "g-bytes"}, "unparsable"},
      {Entry(ongoing), "not_finished"},
      {Entry(unset), "not_finished"},
      {Entry(no_id), "not_finished"},
  };
  for (const Case& c : cases) {
    const HandledEntry handled = archiver_.Handle(c.entry);
    EXPECT_EQ(handled.outcome, EntryOutcome::kMalformed) << c.entry.game_id;
    EXPECT_TRUE(MayAcknowledge(handled.outcome));
    EXPECT_EQ(handled.status.code(), absl::StatusCode::kInvalidArgument) << handled.status;
  }
  EXPECT_EQ(store_.size(), 0u);
  EXPECT_EQ(store_.insert_calls(), 0);
  EXPECT_EQ(Metric("draughts_archive_malformed_total", {{"reason", "no_data"}}), 1);
  EXPECT_EQ(Metric("draughts_archive_malformed_total", {{"reason", "unparsable"}}), 1);
  EXPECT_EQ(Metric("draughts_archive_malformed_total", {{"reason", "not_finished"}}), 3);
}

TEST_F(ArchiverTest, AStoreOutageLeavesTheEntryToRetryAndLosesNothing) {
  const v1::ResultRecord record = PlayedRecord("g1");
  store_.FailWith(absl::UnavailableError("PostgreSQL down"));
  const HandledEntry failed = archiver_.Handle(Entry(record));
  EXPECT_EQ(failed.outcome, EntryOutcome::kRetry);
  EXPECT_FALSE(MayAcknowledge(failed.outcome));
  EXPECT_EQ(failed.status.code(), absl::StatusCode::kUnavailable);
  EXPECT_EQ(Metric("draughts_archive_store_failures_total"), 1);

  store_.FailWith(absl::OkStatus());
  EXPECT_EQ(archiver_.Handle(Entry(record)).outcome, EntryOutcome::kArchived);
  EXPECT_EQ(store_.size(), 1u);
}

TEST_F(ArchiverTest, DataTheStoreRefusesIsDroppedRatherThanRetriedForEver) {
  store_.FailWith(absl::InvalidArgumentError("invalid byte sequence for encoding"));
  const HandledEntry handled = archiver_.Handle(Entry(PlayedRecord("g1")));
  EXPECT_EQ(handled.outcome, EntryOutcome::kMalformed);
  EXPECT_TRUE(MayAcknowledge(handled.outcome));
  EXPECT_EQ(Metric("draughts_archive_malformed_total", {{"reason", "refused_by_store"}}), 1);
}

TEST_F(ArchiverTest, TheRecordsGameIdWinsOverTheEntryLabel) {
  const v1::ResultRecord record = PlayedRecord("g-real");
  ResultEntry entry = Entry(record);
  entry.game_id = "g-label";
  EXPECT_EQ(archiver_.Handle(entry).outcome, EntryOutcome::kArchived);
  EXPECT_TRUE(store_.Find("g-real")->has_value());
  EXPECT_FALSE(store_.Find("g-label")->has_value());
}

TEST_F(ArchiverTest, ABatchIsRecordedInOneStoreCallAndARefusedEntryDropsOnlyItself) {
  std::vector<ResultEntry> entries;
  for (int i = 0; i < 4; ++i) entries.push_back(Entry(PlayedRecord("g" + std::to_string(i))));
  entries.insert(entries.begin() + 1, ResultEntry{"1-99", std::string("junk"), "g-junk"});
  store_.RefuseGame("g2", absl::InvalidArgumentError("invalid byte sequence"));

  const std::vector<HandledEntry> handled = archiver_.HandleBatch(entries);
  ASSERT_EQ(handled.size(), 5u);
  EXPECT_EQ(handled[0].outcome, EntryOutcome::kArchived);
  EXPECT_EQ(handled[1].outcome, EntryOutcome::kMalformed);
  EXPECT_EQ(handled[2].outcome, EntryOutcome::kArchived);
  EXPECT_EQ(handled[3].outcome, EntryOutcome::kMalformed) << "g2, refused by the store";
  EXPECT_EQ(handled[4].outcome, EntryOutcome::kArchived);
  EXPECT_EQ(store_.size(), 3u);
  EXPECT_EQ(Metric("draughts_archive_malformed_total", {{"reason", "refused_by_store"}}), 1);
  EXPECT_EQ(Metric("draughts_rating_results_applied_total", {{"elo", "unchanged"}}), 3);
}

TEST_F(ArchiverTest, AStoreOutageLeavesTheWholeBatchToRetry) {
  store_.FailWith(absl::UnavailableError("PostgreSQL down"));
  const std::vector<HandledEntry> handled =
      archiver_.HandleBatch({Entry(PlayedRecord("g1")), Entry(PlayedRecord("g2"))});
  for (const HandledEntry& entry : handled) EXPECT_EQ(entry.outcome, EntryOutcome::kRetry);
  EXPECT_EQ(Metric("draughts_archive_store_failures_total"), 1);
}

TEST_F(ArchiverTest, ARecordWithoutAnEndTimeOrSeatKindIsDroppedAsIncomplete) {
  v1::ResultRecord no_end = PlayedRecord("g1");
  no_end.clear_finished_at();
  v1::ResultRecord no_kind = PlayedRecord("g2");
  no_kind.mutable_black()->clear_kind();
  for (const auto& handled : archiver_.HandleBatch({Entry(no_end), Entry(no_kind)})) {
    EXPECT_EQ(handled.outcome, EntryOutcome::kMalformed);
  }
  EXPECT_EQ(Metric("draughts_archive_malformed_total", {{"reason", "incomplete"}}), 2);
  EXPECT_EQ(store_.size(), 0u);
}

}  // namespace
}  // namespace draughts::rating::testing
