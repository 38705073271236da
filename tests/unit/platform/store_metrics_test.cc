// Store call metrics (platform/store_metrics.h) without a server: command
// labels stay within the fixed list, errors are split by kind, and a
// RedisClient with nobody listening counts its failures as unavailable.
#include "platform/store_metrics.h"

#include <gtest/gtest.h>

#include <string>

#include "metrics_test_util.h"
#include "platform/metrics.h"
#include "platform/redis_client.h"
#include "platform/testing/test_env.h"

namespace draughts::platform {
namespace {

using platform::testing::CounterValue;
using platform::testing::HistogramCount;
using platform::testing::SeriesWithLabel;

constexpr char kRedisSeconds[] = "draughts_redis_call_seconds";
constexpr char kRedisErrors[] = "draughts_redis_call_errors_total";

uint64_t RedisCalls(const std::string& command) {
  return HistogramCount(*MetricsRegistry(), kRedisSeconds, {{"command", command}});
}

double RedisErrors(const std::string& command, const std::string& kind) {
  return CounterValue(*MetricsRegistry(), kRedisErrors, {{"command", command}, {"kind", kind}});
}

TEST(StoreMetricsTest, ClassifiesUnreachableApartFromAnswers) {
  EXPECT_EQ(ClassifyStoreError(absl::UnavailableError("down")), StoreErrorKind::kUnavailable);
  EXPECT_EQ(ClassifyStoreError(absl::DeadlineExceededError("slow")), StoreErrorKind::kUnavailable);
  EXPECT_EQ(ClassifyStoreError(absl::NotFoundError("NOSCRIPT")), StoreErrorKind::kReply);
  EXPECT_EQ(ClassifyStoreError(absl::FailedPreconditionError("script said no")),
            StoreErrorKind::kReply);
}

TEST(StoreMetricsTest, RedisCommandNamesAreLabelsInUpperCaseAndUnknownOnesAreOther) {
  const uint64_t hget = RedisCalls("HGET");
  const uint64_t other = RedisCalls("OTHER");
  RecordRedisCall("hget", 0.001, absl::OkStatus(), /*blocking=*/false);
  RecordRedisCall("HGET", 0.001, absl::OkStatus(), /*blocking=*/false);
  RecordRedisCall("NOT-A-COMMAND", 0.001, absl::OkStatus(), /*blocking=*/false);
  RecordRedisCall("another random name", 0.001, absl::OkStatus(), /*blocking=*/false);
  EXPECT_EQ(RedisCalls("HGET"), hget + 2);
  EXPECT_EQ(RedisCalls("OTHER"), other + 2);
  EXPECT_EQ(SeriesWithLabel(*MetricsRegistry(), kRedisSeconds, "command", "hget"), 0);
  EXPECT_EQ(SeriesWithLabel(*MetricsRegistry(), kRedisSeconds, "command", "NOT-A-COMMAND"), 0);
}

TEST(StoreMetricsTest, RedisErrorsCountByKindAndBlockingCallsAreNotTimed) {
  const uint64_t calls = RedisCalls("XREADGROUP");
  const double unavailable = RedisErrors("XREADGROUP", "unavailable");
  const double reply = RedisErrors("XREADGROUP", "reply");
  RecordRedisCall("XREADGROUP", 5.0, absl::OkStatus(), /*blocking=*/true);
  RecordRedisCall("XREADGROUP", 5.0, absl::UnavailableError("lost"), /*blocking=*/true);
  RecordRedisCall("XREADGROUP", 0.001, absl::NotFoundError("NOGROUP"), /*blocking=*/false);
  EXPECT_EQ(RedisCalls("XREADGROUP"), calls + 1);
  EXPECT_EQ(RedisErrors("XREADGROUP", "unavailable"), unavailable + 1);
  EXPECT_EQ(RedisErrors("XREADGROUP", "reply"), reply + 1);
}

TEST(StoreMetricsTest, RedisClientWithNobodyListeningCountsUnavailable) {
  auto port = platform::testing::PickFreePort();
  ASSERT_TRUE(port.ok()) << port.status();
  RedisOptions options;
  options.port = *port;
  options.connect_attempts = 1;
  RedisClient client(options);
  const uint64_t calls = RedisCalls("GET");
  const double unavailable = RedisErrors("GET", "unavailable");
  const double pipelines = RedisErrors("PIPELINE", "unavailable");
  EXPECT_EQ(client.Command({"GET", "key"}).status().code(), absl::StatusCode::kUnavailable);
  EXPECT_EQ(client.Command(std::vector<std::string>{"get", "key"}).status().code(),
            absl::StatusCode::kUnavailable);
  EXPECT_EQ(client.Pipeline({{"GET", "key"}}).status().code(), absl::StatusCode::kUnavailable);
  EXPECT_EQ(RedisCalls("GET"), calls + 2);
  EXPECT_EQ(RedisErrors("GET", "unavailable"), unavailable + 2);
  EXPECT_EQ(RedisErrors("PIPELINE", "unavailable"), pipelines + 1);
}

TEST(StoreMetricsTest, PgCallsAreTimedAndDatabaseErrorsCountByKind) {
  auto errors = [](const std::string& kind) {
    return CounterValue(*MetricsRegistry(), "draughts_pg_call_errors_total", {{"kind", kind}});
  };
  RecordPgCall(0.01, absl::OkStatus());  // the series exist from the first call
  const uint64_t calls = HistogramCount(*MetricsRegistry(), "draughts_pg_call_seconds", {});
  const double unavailable = errors("unavailable");
  const double query = errors("query");
  RecordPgCall(0.01, absl::OkStatus());
  RecordPgCall(5.0, absl::UnavailableError("all connections busy"));
  RecordPgCall(0.02, absl::AlreadyExistsError("unique violation"));
  EXPECT_EQ(HistogramCount(*MetricsRegistry(), "draughts_pg_call_seconds", {}), calls + 3);
  EXPECT_EQ(errors("unavailable"), unavailable + 1);
  EXPECT_EQ(errors("query"), query + 1);
}

}  // namespace
}  // namespace draughts::platform
