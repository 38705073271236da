#include "platform/store_metrics.h"

#include <array>
#include <atomic>
#include <iterator>
#include <memory>
#include <mutex>
#include <string>

#include "absl/strings/match.h"
#include "platform/absl_compat.h"
#include "platform/metrics.h"
#include "prometheus/counter.h"
#include "prometheus/family.h"
#include "prometheus/histogram.h"

namespace draughts::platform {
namespace {

// The commands the platform's services send, as label values. Kept short:
// a name missing here is counted as OTHER, which is still a valid series.
// clang-format off
constexpr std::string_view kRedisCommands[] = {
    "PIPELINE", "OTHER", "PING", "AUTH", "SELECT", "CLIENT", "INFO", "GET", "SET", "DEL",
    "EXISTS", "EXPIRE", "PEXPIRE", "INCR", "MGET", "HGET", "HMGET", "HSET", "HSETNX", "HGETALL",
    "HDEL", "HINCRBY", "ZADD", "ZREM", "ZCARD", "ZCOUNT", "ZRANGE", "ZRANGEBYSCORE",
    "ZREVRANGEBYSCORE", "ZREMRANGEBYSCORE", "EVAL", "EVALSHA", "SCRIPT", "XADD", "XDEL", "XLEN",
    "XRANGE", "XREVRANGE", "XREAD", "XREADGROUP", "XACK", "XAUTOCLAIM", "XCLAIM", "XPENDING",
    "XGROUP", "XINFO", "XTRIM"};
// clang-format on
constexpr size_t kCommandCount = std::size(kRedisCommands);
constexpr size_t kOther = 1;

// Round trips: from a fraction of a millisecond (a local Redis) to the
// client's 2 s command timeout.
const prometheus::Histogram::BucketBoundaries& RedisBuckets() {
  static const auto* buckets = new prometheus::Histogram::BucketBoundaries{
      0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5};
  return *buckets;
}

// Transactions: a few milliseconds to the pool's 5 s acquire timeout.
const prometheus::Histogram::BucketBoundaries& PgBuckets() {
  static const auto* buckets = new prometheus::Histogram::BucketBoundaries{
      0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10};
  return *buckets;
}

class RedisCallMetrics {
 public:
  RedisCallMetrics()
      : latency_(prometheus::BuildHistogram()
                     .Name("draughts_redis_call_seconds")
                     .Help("Redis round trips by command (blocking reads excluded).")
                     .Register(*MetricsRegistry())),
        errors_(prometheus::BuildCounter()
                    .Name("draughts_redis_call_errors_total")
                    .Help("Failed Redis calls by command and kind: unavailable (no answer) or "
                          "reply (an error reply).")
                    .Register(*MetricsRegistry())) {}

  void Record(std::string_view command, double seconds, const absl::Status& status, bool blocking) {
    const Series& series = SeriesOf(IndexOf(command));
    if (!blocking) series.latency.Observe(seconds);
    if (status.ok()) return;
    (ClassifyStoreError(status) == StoreErrorKind::kUnavailable ? series.unavailable : series.reply)
        .Increment();
  }

 private:
  struct Series {
    prometheus::Histogram& latency;
    prometheus::Counter& unavailable;
    prometheus::Counter& reply;
  };

  static size_t IndexOf(std::string_view command) {
    for (size_t i = 0; i < kCommandCount; ++i) {
      if (absl::EqualsIgnoreCase(ToAbsl(command), ToAbsl(kRedisCommands[i]))) return i;
    }
    return kOther;
  }

  // A command's series are made together on its first call, the error
  // counters at zero, so a rate() sees the very first error; then read
  // without a lock.
  const Series& SeriesOf(size_t index) {
    const Series* series = published_[index].load(std::memory_order_acquire);
    if (series != nullptr) return *series;
    std::lock_guard<std::mutex> lock(mu_);
    if (owned_[index] == nullptr) {
      const std::string command(kRedisCommands[index]);
      owned_[index] = std::make_unique<Series>(
          Series{latency_.Add({{"command", command}}, RedisBuckets()),
                 errors_.Add({{"command", command}, {"kind", "unavailable"}}),
                 errors_.Add({{"command", command}, {"kind", "reply"}})});
      published_[index].store(owned_[index].get(), std::memory_order_release);
    }
    return *owned_[index];
  }

  prometheus::Family<prometheus::Histogram>& latency_;
  prometheus::Family<prometheus::Counter>& errors_;
  std::mutex mu_;  // making series
  std::array<std::unique_ptr<Series>, kCommandCount> owned_;
  std::array<std::atomic<const Series*>, kCommandCount> published_{};
};

class PgCallMetrics {
 public:
  PgCallMetrics()
      : latency_(prometheus::BuildHistogram()
                     .Name("draughts_pg_call_seconds")
                     .Help("PostgreSQL transactions, from asking the pool for a connection to "
                           "the commit.")
                     .Register(*MetricsRegistry())
                     .Add({}, PgBuckets())),
        errors_(prometheus::BuildCounter()
                    .Name("draughts_pg_call_errors_total")
                    .Help("Failed PostgreSQL transactions by kind: unavailable (no answer) or "
                          "query (an error from the database).")
                    .Register(*MetricsRegistry())),
        unavailable_(errors_.Add({{"kind", "unavailable"}})),
        query_(errors_.Add({{"kind", "query"}})) {}

  void Record(double seconds, const absl::Status& status) {
    latency_.Observe(seconds);
    if (status.ok()) return;
    (ClassifyStoreError(status) == StoreErrorKind::kUnavailable ? unavailable_ : query_)
        .Increment();
  }

 private:
  prometheus::Histogram& latency_;
  prometheus::Family<prometheus::Counter>& errors_;
  prometheus::Counter& unavailable_;
  prometheus::Counter& query_;
};

}  // namespace

StoreErrorKind ClassifyStoreError(const absl::Status& status) {
  return status.code() == absl::StatusCode::kUnavailable ||
                 status.code() == absl::StatusCode::kDeadlineExceeded
             ? StoreErrorKind::kUnavailable
             : StoreErrorKind::kReply;
}

void RecordRedisCall(std::string_view command, double seconds, const absl::Status& status,
                     bool blocking) {
  static auto* metrics = new RedisCallMetrics();
  metrics->Record(command, seconds, status, blocking);
}

void RecordPgCall(double seconds, const absl::Status& database_status) {
  static auto* metrics = new PgCallMetrics();
  metrics->Record(seconds, database_status);
}

}  // namespace draughts::platform
