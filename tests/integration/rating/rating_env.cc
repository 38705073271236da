#include "rating_env.h"

#include <unistd.h>

#include <atomic>
#include <pqxx/pqxx>
#include <random>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "platform/pg_migrations.h"
#include "platform/redis_streams.h"
#include "platform/testing/test_env.h"
#include "rating/pg_archive_store.h"

namespace draughts::rating::testing {

void RatingIntegrationTest::SetUp() {
  auto conninfo = platform::testing::RequiredTestEnv("DRAUGHTS_TEST_PG");
  ASSERT_TRUE(conninfo.ok()) << conninfo.status().message();
  auto redis = platform::testing::RequiredTestEnv("DRAUGHTS_TEST_REDIS");
  ASSERT_TRUE(redis.ok()) << redis.status().message();
  base_conninfo_ = *conninfo;
  static std::atomic<int> counter{0};
  std::random_device random;
  role_ = absl::StrCat("rating_it_", ::getpid(), "_", counter++, "_", random() % 100000);
  Admin(absl::StrCat("CREATE ROLE ", role_, " LOGIN"));
  Admin(absl::StrCat("CREATE SCHEMA ", role_, " AUTHORIZATION ", role_));
  // libpq keeps the last value of a repeated keyword: the role replaces the
  // admin user.
  conninfo_ =
      absl::StrCat(base_conninfo_, " user=", role_, " options='-c search_path=", role_, "'");

  auto options = platform::ParseRedisAddress(*redis);
  ASSERT_TRUE(options.ok()) << options.status();
  redis_options_ = *options;
  redis_ = std::make_unique<platform::RedisClient>(redis_options_);
  stream_ = absl::StrCat(role_, ":results");
}

void RatingIntegrationTest::TearDown() {
  if (redis_ != nullptr) (void)redis_->Command({"DEL", stream_});
  if (role_.empty()) return;
  Admin(absl::StrCat("ALTER ROLE ", role_, " LOGIN"));
  Admin(absl::StrCat(
      "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE usename = '", role_,
      "'"));
  Admin(absl::StrCat("DROP SCHEMA IF EXISTS ", role_, " CASCADE"));
  Admin(absl::StrCat("DROP ROLE IF EXISTS ", role_));
}

std::unique_ptr<platform::PgPool> RatingIntegrationTest::MakePool(int size) {
  auto pool = platform::PgPool::Create({conninfo_, size, absl::Seconds(5)});
  EXPECT_TRUE(pool.ok()) << pool.status();
  if (!pool.ok()) return nullptr;
  auto applied = platform::ApplyMigrations(**pool, "rating", RatingMigrations());
  EXPECT_TRUE(applied.ok()) << applied.status();
  return *std::move(pool);
}

std::string RatingIntegrationTest::Admin(const std::string& sql) {
  try {
    pqxx::connection connection(base_conninfo_);
    pqxx::nontransaction tx(connection);
    pqxx::result rows = tx.exec(sql);
    if (rows.empty() || rows[0][0].is_null()) return "";
    return rows[0][0].c_str();
  } catch (const std::exception& e) {
    ADD_FAILURE() << "admin SQL failed: " << sql << ": " << e.what();
    return "";
  }
}

void RatingIntegrationTest::SetLoginAllowed(bool allowed) {
  Admin(absl::StrCat("ALTER ROLE ", role_, allowed ? " LOGIN" : " NOLOGIN"));
  if (!allowed) {
    Admin(absl::StrCat(
        "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE usename = '", role_,
        "'"));
  }
}

ResultGroup RatingIntegrationTest::Group(const std::string& consumer) const {
  return ResultGroup{stream_, "rating", consumer};
}

std::string RatingIntegrationTest::AddResult(const std::string& data, const std::string& game_id) {
  auto id = platform::StreamAdd(*redis_, stream_, {{"data", data}, {"game_id", game_id}});
  EXPECT_TRUE(id.ok()) << id.status();
  return id.ok() ? *id : "";
}

int64_t RatingIntegrationTest::PendingCount() {
  auto reply = redis_->Command({"XPENDING", stream_, "rating"});
  if (!reply.ok() || reply->elements().empty()) return -1;
  auto count = reply->elements()[0].AsInteger();
  return count.ok() ? *count : -1;
}

int64_t RatingIntegrationTest::ArchivedRows(const std::string& game_id) {
  std::string sql = absl::StrCat("SELECT count(*) FROM ", role_, ".archived_games");
  if (!game_id.empty()) absl::StrAppend(&sql, " WHERE game_id = '", game_id, "'");
  const std::string count = Admin(sql);
  return count.empty() ? -1 : std::stoll(count);
}

bool RatingIntegrationTest::WaitFor(const std::function<bool()>& condition,
                                    absl::Duration timeout) {
  const absl::Time deadline = absl::Now() + timeout;
  while (absl::Now() < deadline) {
    if (condition()) return true;
    absl::SleepFor(absl::Milliseconds(50));
  }
  return condition();
}

}  // namespace draughts::rating::testing
