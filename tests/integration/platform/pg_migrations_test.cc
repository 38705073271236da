// ApplyMigrations against a real PostgreSQL.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <future>
#include <pqxx/pqxx>
#include <vector>

#include "pg_test_env.h"
#include "platform/pg_migrations.h"

namespace draughts::platform {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

const std::vector<Migration> kBase = {
    {1, "create_ratings", "CREATE TABLE ratings (player text PRIMARY KEY, elo int NOT NULL);"},
    {2, "seed", "INSERT INTO ratings VALUES ('bot', 1200); CREATE TABLE runs (n int);"},
};

class PgMigrationsTest : public PgTest {
 protected:
  void SetUp() override {
    PgTest::SetUp();
    if (HasFatalFailure()) return;
    pool_ = MakePool(2);
    ASSERT_NE(pool_, nullptr);
  }

  int64_t Scalar(const std::string& sql) {
    auto value = pool_->WithTransactionResult<int64_t>(
        [&](pqxx::transaction_base& tx) -> absl::StatusOr<int64_t> {
          return tx.exec1(sql)[0].as<int64_t>();
        });
    EXPECT_TRUE(value.ok()) << value.status();
    return value.value_or(-1);
  }

  std::unique_ptr<PgPool> pool_;
};

TEST_F(PgMigrationsTest, AppliesInOrderAndRecordsEach) {
  auto applied = ApplyMigrations(*pool_, "rating", kBase);
  ASSERT_TRUE(applied.ok()) << applied.status();
  EXPECT_THAT(*applied, ElementsAre(1, 2));
  EXPECT_EQ(Scalar("SELECT elo FROM ratings WHERE player = 'bot'"), 1200);
  EXPECT_EQ(Scalar("SELECT count(*) FROM schema_migrations WHERE component = 'rating'"), 2);
  EXPECT_EQ(Scalar("SELECT count(*) FROM schema_migrations WHERE component = 'rating' AND "
                   "version = 2 AND name = 'seed' AND checksum = '" +
                   MigrationChecksum(kBase[1].sql) + "'"),
            1);
}

TEST_F(PgMigrationsTest, ReRunIsANoOpAndNewMigrationsApplyLater) {
  ASSERT_TRUE(ApplyMigrations(*pool_, "rating", kBase).ok());
  auto again = ApplyMigrations(*pool_, "rating", kBase);
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_THAT(*again, IsEmpty());
  EXPECT_EQ(Scalar("SELECT count(*) FROM ratings"), 1);  // seed not inserted twice

  std::vector<Migration> more = kBase;
  more.push_back({7, "add_month", "ALTER TABLE ratings ADD COLUMN month int NOT NULL DEFAULT 0;"});
  auto later = ApplyMigrations(*pool_, "rating", more);
  ASSERT_TRUE(later.ok()) << later.status();
  EXPECT_THAT(*later, ElementsAre(7));
  EXPECT_EQ(Scalar("SELECT month FROM ratings"), 0);
}

TEST_F(PgMigrationsTest, ComponentsHaveSeparateHistories) {
  ASSERT_TRUE(ApplyMigrations(*pool_, "rating", kBase).ok());
  auto gateway = ApplyMigrations(*pool_, "gateway",
                                 {{1, "accounts", "CREATE TABLE accounts (id text PRIMARY KEY);"}});
  ASSERT_TRUE(gateway.ok()) << gateway.status();
  EXPECT_THAT(*gateway, ElementsAre(1));
}

TEST_F(PgMigrationsTest, RefusesWhenAnAppliedMigrationChanged) {
  ASSERT_TRUE(ApplyMigrations(*pool_, "rating", kBase).ok());
  std::vector<Migration> edited = kBase;
  edited[0].sql = "CREATE TABLE ratings (player text PRIMARY KEY, elo bigint NOT NULL);";
  edited.push_back({3, "never", "CREATE TABLE should_not_exist (x int);"});
  auto result = ApplyMigrations(*pool_, "rating", edited);
  ASSERT_EQ(result.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(std::string(result.status().message()), HasSubstr("migration 1 (create_ratings)"));
  EXPECT_THAT(std::string(result.status().message()), HasSubstr("changed after it was applied"));
  EXPECT_EQ(Scalar("SELECT count(*) FROM information_schema.tables WHERE table_name = "
                   "'should_not_exist'"),
            0);
}

TEST_F(PgMigrationsTest, RefusesANewMigrationBelowTheNewestApplied) {
  ASSERT_TRUE(ApplyMigrations(*pool_, "rating", {kBase[0], {5, "five", "SELECT 1"}}).ok());
  auto result = ApplyMigrations(*pool_, "rating",
                                {kBase[0], {3, "three", "SELECT 1"}, {5, "five", "SELECT 1"}});
  EXPECT_EQ(result.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(std::string(result.status().message()), HasSubstr("need higher versions"));
}

TEST_F(PgMigrationsTest, AFailingMigrationKeepsTheEarlierOnesAndIsNotRecorded) {
  std::vector<Migration> list = kBase;
  list.push_back({3, "broken", "CREATE TABLE ok_part (x int); SELEC oops;"});
  auto result = ApplyMigrations(*pool_, "rating", list);
  EXPECT_EQ(result.status().code(), absl::StatusCode::kInternal);
  EXPECT_THAT(std::string(result.status().message()), HasSubstr("migrating rating"));
  EXPECT_EQ(Scalar("SELECT count(*) FROM schema_migrations"), 2);
  EXPECT_EQ(Scalar("SELECT count(*) FROM information_schema.tables WHERE table_name = 'ok_part'"),
            0);
}

TEST_F(PgMigrationsTest, InvalidListTouchesNothing) {
  auto result = ApplyMigrations(*pool_, "rating", {{2, "b", "SELECT 1"}, {1, "a", "SELECT 1"}});
  EXPECT_EQ(result.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(ApplyMigrations(*pool_, "", kBase).status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(Scalar("SELECT count(*) FROM information_schema.tables WHERE table_name = "
                   "'schema_migrations' AND table_schema = current_schema()"),
            0);
}

TEST_F(PgMigrationsTest, ConcurrentRunnersApplyEachMigrationExactlyOnce) {
  std::vector<Migration> list;
  list.push_back({1, "counter", "CREATE TABLE applied_count (version int);"});
  for (int v = 2; v <= 8; ++v) {
    // pg_sleep widens the window in which another runner could interfere.
    list.push_back(
        {v, "step" + std::to_string(v),
         "SELECT pg_sleep(0.02); INSERT INTO applied_count VALUES (" + std::to_string(v) + ");"});
  }
  constexpr int kRunners = 4;
  std::vector<std::unique_ptr<PgPool>> pools;
  for (int i = 0; i < kRunners; ++i) pools.push_back(MakePool(1));
  std::vector<std::future<absl::StatusOr<std::vector<int64_t>>>> runs;
  for (int i = 0; i < kRunners; ++i) {
    runs.push_back(std::async(std::launch::async,
                              [&, i] { return ApplyMigrations(*pools[i], "rating", list); }));
  }
  std::vector<int64_t> all;
  for (auto& run : runs) {
    auto applied = run.get();
    ASSERT_TRUE(applied.ok()) << applied.status();
    all.insert(all.end(), applied->begin(), applied->end());
  }
  std::sort(all.begin(), all.end());
  EXPECT_THAT(all, ElementsAre(1, 2, 3, 4, 5, 6, 7, 8));
  EXPECT_EQ(Scalar("SELECT count(*) FROM applied_count"), 7);
  EXPECT_EQ(Scalar("SELECT count(DISTINCT version) FROM applied_count"), 7);
}

}  // namespace
}  // namespace draughts::platform
