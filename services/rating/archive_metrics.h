// Prometheus metrics of the archive, the ratings and the results consumer,
// next to the per-RPC ones the platform records: what an operator watches
// to know that every finished game is kept and counted once (applied,
// repeated, refused), that the consumer keeps up (pending and lag of the
// group) and how PostgreSQL answers (latency and errors by operation).
#ifndef DRAUGHTS_RATING_ARCHIVE_METRICS_H_
#define DRAUGHTS_RATING_ARCHIVE_METRICS_H_

#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <utility>

#include "absl/status/status.h"
#include "absl/time/time.h"

#include "prometheus/counter.h"
#include "prometheus/family.h"
#include "prometheus/gauge.h"
#include "prometheus/histogram.h"
#include "prometheus/registry.h"

namespace draughts::rating {

class ArchiveMetrics {
 public:
  explicit ArchiveMetrics(prometheus::Registry& registry);

  void Archived() { archived_.Increment(); }
  // The same record again (redelivery, or two consumers racing).
  void Duplicate() { duplicates_.Increment(); }
  // A different record for a game already archived (kept the first).
  void Conflict() { conflicts_.Increment(); }
  // An entry acknowledged without archiving; `reason` is a short label.
  void Malformed(const std::string& reason);
  // The store failed transiently; the entry stays pending for a retry.
  void StoreFailure() { store_failures_.Increment(); }
  void Claimed(int64_t entries) { claimed_.Increment(static_cast<double>(entries)); }
  void Backlog(int64_t pending, std::optional<int64_t> lag);

  // A game recorded for the first time (stream or RecordResult), and
  // whether it changed Elo.
  void ResultApplied(bool elo_changed);
  // Player rating rows moved by games (two per game that changes Elo).
  void RatingUpdates(int64_t count) { rating_updates_.Increment(static_cast<double>(count)); }
  // A game recorded before came again (stream or RecordResult): skipped.
  void DuplicateSkipped() { duplicates_skipped_.Increment(); }
  // One store operation on PostgreSQL: its latency, and its error code if
  // it failed.
  void PgCall(const std::string& operation, absl::Duration latency, const absl::Status& status);

 private:
  prometheus::Counter& archived_;
  prometheus::Counter& duplicates_;
  prometheus::Counter& conflicts_;
  prometheus::Counter& store_failures_;
  prometheus::Counter& claimed_;
  prometheus::Gauge& pending_;
  prometheus::Gauge& lag_;
  prometheus::Family<prometheus::Counter>& malformed_;
  prometheus::Family<prometheus::Counter>& applied_;
  prometheus::Counter& applied_elo_changed_;
  prometheus::Counter& applied_elo_unchanged_;
  prometheus::Counter& rating_updates_;
  prometheus::Counter& duplicates_skipped_;
  prometheus::Family<prometheus::Histogram>& pg_latency_;
  prometheus::Family<prometheus::Counter>& pg_errors_;
  std::mutex mu_;
  std::map<std::string, prometheus::Counter*> malformed_by_reason_;
  std::map<std::string, prometheus::Histogram*> pg_latency_by_operation_;
  std::map<std::pair<std::string, std::string>, prometheus::Counter*> pg_errors_by_code_;
};

}  // namespace draughts::rating

#endif  // DRAUGHTS_RATING_ARCHIVE_METRICS_H_
