// The PostgreSQL archive adapter on the real server: one row per game with
// its columns filled, the first record kept, and the record read back
// exactly.
#include "rating/pg_archive_store.h"

#include <google/protobuf/util/message_differencer.h>

#include "platform/pg_migrations.h"
#include "rating_env.h"
#include "test_records.h"

namespace draughts::rating::testing {
namespace {

using google::protobuf::util::MessageDifferencer;

class PgArchiveStoreTest : public RatingIntegrationTest {};

TEST_F(PgArchiveStoreTest, WritesOneRowWithQueryableColumnsAndReadsTheRecordBack) {
  auto pool = MakePool();
  ASSERT_NE(pool, nullptr);
  PgArchiveStore store(pool.get());
  v1::ResultRecord record = PlayedRecord("g1", "english", 20, 4);
  record.mutable_options()->set_mandatory_capture(true);
  record.add_moves("quote\"and\\backslash, comma {brace}");  // stored as is
  const absl::Time archived_at = absl::FromUnixMicros(1767300000123456);

  auto inserted = store.Insert(record, archived_at);
  ASSERT_TRUE(inserted.ok()) << inserted.status();
  EXPECT_TRUE(inserted->inserted);

  auto found = store.Find("g1");
  ASSERT_TRUE(found.ok() && found->has_value()) << found.status();
  EXPECT_TRUE(MessageDifferencer::Equals((*found)->record, record));
  EXPECT_EQ((*found)->archived_at, archived_at);

  const std::string table = role_ + ".archived_games";
  EXPECT_EQ(Admin("SELECT variant || '|' || rated || '|' || white_kind || '|' || white_player_id "
                  "|| '|' || white_display_name || '|' || black_kind || '|' || black_player_id "
                  "FROM " +
                  table),
            "english|false|SEAT_KIND_PERSON|alice-id|Alice \"the\" White|SEAT_KIND_GUEST|g_bob");
  EXPECT_EQ(Admin("SELECT result || '|' || reason || '|' || ended_by || '|' || ply FROM " + table),
            absl::StrCat(v1::GameResult_Name(record.result()), "|",
                         v1::ResultReason_Name(record.reason()), "|",
                         v1::Color_Name(record.ended_by()), "|", record.ply()));
  EXPECT_EQ(Admin("SELECT cardinality(moves) FROM " + table), std::to_string(record.moves_size()));
  EXPECT_EQ(Admin("SELECT moves[1] FROM " + table), record.moves(0));
  EXPECT_EQ(Admin("SELECT moves[cardinality(moves)] FROM " + table),
            "quote\"and\\backslash, comma {brace}");
  EXPECT_EQ(Admin("SELECT initial_fen || '|' || final_fen FROM " + table),
            record.initial_fen() + "|" + record.final_fen());
  EXPECT_EQ(Admin("SELECT time_per_move_ms FROM " + table), "30000");
  EXPECT_EQ(Admin("SELECT variant_options->>'mandatoryCapture' FROM " + table), "true");
  EXPECT_EQ(Admin("SELECT to_char(started_at AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS.US') || "
                  "'|' || to_char(finished_at AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS.US') "
                  "FROM " +
                  table),
            "2026-01-01 00:00:00.000000|2026-01-01 00:20:00.123000");
  EXPECT_EQ(Admin("SELECT table_id FROM " + table), "t-g1");
}

TEST_F(PgArchiveStoreTest, ASecondWriteOfTheSameGameChangesNothingAndReturnsTheFirst) {
  auto pool = MakePool();
  ASSERT_NE(pool, nullptr);
  PgArchiveStore store(pool.get());
  const v1::ResultRecord first = PlayedRecord("g1", "international", 20, 1);
  v1::ResultRecord second = first;
  second.set_result(v1::GAME_RESULT_DRAW);
  ASSERT_TRUE(store.Insert(first, absl::FromUnixSeconds(1)).ok());

  auto again = store.Insert(second, absl::FromUnixSeconds(2));
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_FALSE(again->inserted);
  ASSERT_TRUE(again->existing.has_value());
  EXPECT_TRUE(MessageDifferencer::Equals(again->existing->record, first));
  EXPECT_EQ(again->existing->archived_at, absl::FromUnixSeconds(1));
  EXPECT_EQ(ArchivedRows(), 1);
  EXPECT_EQ(Admin("SELECT result FROM " + role_ + ".archived_games"),
            v1::GameResult_Name(first.result()));
}

TEST_F(PgArchiveStoreTest, AnUnknownGameIsNotFoundAndUnsetTimesStayNull) {
  auto pool = MakePool();
  ASSERT_NE(pool, nullptr);
  PgArchiveStore store(pool.get());
  auto missing = store.Find("nope");
  ASSERT_TRUE(missing.ok()) << missing.status();
  EXPECT_FALSE(missing->has_value());

  v1::ResultRecord record = PlayedRecord("g-untimed");
  record.clear_started_at();
  record.clear_time_per_move();
  ASSERT_TRUE(store.Insert(record, absl::Now()).ok());
  EXPECT_EQ(Admin("SELECT coalesce(started_at::text, 'null') || '|' || time_per_move_ms FROM " +
                  role_ + ".archived_games"),
            "null|0");
  EXPECT_TRUE(MessageDifferencer::Equals((*store.Find("g-untimed"))->record, record));
}

TEST_F(PgArchiveStoreTest, MigrationsApplyOnceAndAgainIsANoOp) {
  auto pool = MakePool();
  ASSERT_NE(pool, nullptr);
  auto again = platform::ApplyMigrations(*pool, "rating", RatingMigrations());
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_TRUE(again->empty());
}

TEST_F(PgArchiveStoreTest, PostgreSQLDownIsUnavailableAndNothingIsWritten) {
  auto pool = MakePool();
  ASSERT_NE(pool, nullptr);
  PgArchiveStore store(pool.get());
  SetLoginAllowed(false);
  auto inserted = store.Insert(PlayedRecord("g1"), absl::Now());
  EXPECT_EQ(inserted.status().code(), absl::StatusCode::kUnavailable) << inserted.status();
  EXPECT_EQ(store.Find("g1").status().code(), absl::StatusCode::kUnavailable);
  SetLoginAllowed(true);
  EXPECT_EQ(ArchivedRows(), 0);
  auto retried = store.Insert(PlayedRecord("g1"), absl::Now());
  ASSERT_TRUE(retried.ok()) << retried.status();
  EXPECT_TRUE(retried->inserted);
}

}  // namespace
}  // namespace draughts::rating::testing
