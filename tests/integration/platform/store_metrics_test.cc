// Store call metrics (platform/store_metrics.h) moved by real calls to a
// real Redis (DRAUGHTS_TEST_REDIS) and PostgreSQL (DRAUGHTS_TEST_PG).
#include "platform/store_metrics.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <pqxx/pqxx>
#include <string>

#include "absl/strings/str_cat.h"
#include "metrics_test_util.h"
#include "pg_test_env.h"
#include "platform/metrics.h"
#include "platform/redis_client.h"
#include "platform/testing/test_env.h"

namespace draughts::platform {
namespace {

using platform::testing::CounterValue;
using platform::testing::HistogramCount;

uint64_t RedisCalls(const std::string& command) {
  return HistogramCount(*MetricsRegistry(), "draughts_redis_call_seconds", {{"command", command}});
}

double RedisErrors(const std::string& command, const std::string& kind) {
  return CounterValue(*MetricsRegistry(), "draughts_redis_call_errors_total",
                      {{"command", command}, {"kind", kind}});
}

uint64_t PgCalls() {
  return HistogramCount(*MetricsRegistry(), "draughts_pg_call_seconds", {});
}

double PgErrors(const std::string& kind) {
  return CounterValue(*MetricsRegistry(), "draughts_pg_call_errors_total", {{"kind", kind}});
}

TEST(RedisStoreMetricsTest, CallsAreTimedAndErrorRepliesCounted) {
  auto address = platform::testing::RequiredTestEnv("DRAUGHTS_TEST_REDIS");
  ASSERT_TRUE(address.ok()) << address.status().message();
  auto options = ParseRedisAddress(*address);
  ASSERT_TRUE(options.ok()) << options.status();
  RedisClient client(*options);
  const std::string key = absl::StrCat("platform-test:", ::getpid(), ":store-metrics");

  const uint64_t sets = RedisCalls("SET");
  const uint64_t incrs = RedisCalls("INCR");
  const uint64_t pipelines = RedisCalls("PIPELINE");
  const double incr_replies = RedisErrors("INCR", "reply");
  const double incr_unavailable = RedisErrors("INCR", "unavailable");

  ASSERT_TRUE(client.Command({"SET", key, "not a number", "EX", "60"}).ok());
  EXPECT_FALSE(client.Command({"INCR", key}).ok());  // an error reply
  auto replies = client.Pipeline({{"GET", key}, {"INCR", key}});
  ASSERT_TRUE(replies.ok()) << replies.status();

  EXPECT_EQ(RedisCalls("SET"), sets + 1);
  EXPECT_EQ(RedisCalls("INCR"), incrs + 1);
  EXPECT_EQ(RedisCalls("PIPELINE"), pipelines + 1);
  EXPECT_EQ(RedisErrors("INCR", "reply"), incr_replies + 1);
  EXPECT_EQ(RedisErrors("INCR", "unavailable"), incr_unavailable);
  client.Command({"DEL", key}).IgnoreError();
}

class PgStoreMetricsTest : public PgTest {};

TEST_F(PgStoreMetricsTest, TransactionsAreTimedAndOnlyDatabaseErrorsCount) {
  std::unique_ptr<PgPool> pool = MakePool(1);
  ASSERT_NE(pool, nullptr);
  const uint64_t calls = PgCalls();
  const double query = PgErrors("query");
  const double unavailable = PgErrors("unavailable");

  EXPECT_TRUE(pool->WithTransaction([](pqxx::transaction_base& tx) {
                    tx.exec("SELECT 1");
                    return absl::OkStatus();
                  })
                  .ok());
  // The function's own error is the caller's business, not the database's.
  EXPECT_FALSE(pool->WithTransaction([](pqxx::transaction_base&) {
                     return absl::NotFoundError("no such player");
                   })
                   .ok());
  EXPECT_EQ(PgErrors("query"), query);
  EXPECT_FALSE(pool->WithTransaction([](pqxx::transaction_base& tx) {
                     tx.exec("SELECT no_such_column FROM no_such_table");
                     return absl::OkStatus();
                   })
                   .ok());
  EXPECT_EQ(PgErrors("query"), query + 1);
  // A statement timeout is the database not answering in time.
  absl::Status slow = pool->WithTransaction([](pqxx::transaction_base& tx) {
    tx.exec("SET LOCAL statement_timeout = 50");
    tx.exec("SELECT pg_sleep(5)");
    return absl::OkStatus();
  });
  EXPECT_EQ(slow.code(), absl::StatusCode::kDeadlineExceeded) << slow;
  EXPECT_EQ(PgErrors("unavailable"), unavailable + 1);
  EXPECT_EQ(PgCalls(), calls + 4);
}

}  // namespace
}  // namespace draughts::platform
