#include "rating/archive_metrics.h"

#include "absl/strings/ascii.h"

namespace draughts::rating {
namespace {

prometheus::Counter& Counter(prometheus::Registry& registry, const std::string& name,
                             const std::string& help) {
  return prometheus::BuildCounter().Name(name).Help(help).Register(registry).Add({});
}

prometheus::Gauge& Gauge(prometheus::Registry& registry, const std::string& name,
                         const std::string& help) {
  return prometheus::BuildGauge().Name(name).Help(help).Register(registry).Add({});
}

}  // namespace

ArchiveMetrics::ArchiveMetrics(prometheus::Registry& registry)
    : archived_(Counter(registry, "draughts_archive_games_total",
                        "Finished games written to the archive")),
      duplicates_(Counter(registry, "draughts_archive_duplicates_total",
                          "Results stream entries for a game already archived with the same "
                          "record (redeliveries)")),
      conflicts_(Counter(registry, "draughts_archive_conflicts_total",
                         "Results stream entries for a game already archived with a different "
                         "record (the first one is kept)")),
      store_failures_(Counter(registry, "draughts_archive_store_failures_total",
                              "Archive writes that failed transiently (PostgreSQL down); the "
                              "entry stays pending and is retried")),
      claimed_(Counter(registry, "draughts_results_claimed_total",
                       "Results stream entries taken over from a consumer that stopped")),
      pending_(Gauge(registry, "draughts_results_pending",
                     "Results stream entries delivered to the group and not acknowledged")),
      lag_(Gauge(registry, "draughts_results_lag",
                 "Results stream entries not yet delivered to the group")),
      malformed_(prometheus::BuildCounter()
                     .Name("draughts_archive_malformed_total")
                     .Help("Results stream entries acknowledged without archiving, by reason")
                     .Register(registry)),
      applied_(prometheus::BuildCounter()
                   .Name("draughts_rating_results_applied_total")
                   .Help("Finished games recorded for the first time (archive, history, Elo), "
                         "by whether they changed Elo")
                   .Register(registry)),
      applied_elo_changed_(applied_.Add({{"elo", "changed"}})),
      applied_elo_unchanged_(applied_.Add({{"elo", "unchanged"}})),
      rating_updates_(Counter(registry, "draughts_rating_updates_total",
                              "Player ratings moved by a game (two per game that changes Elo)")),
      duplicates_skipped_(Counter(registry, "draughts_rating_duplicates_skipped_total",
                                  "Games recorded before that came again (results stream or "
                                  "RecordResult) and changed nothing")),
      pg_latency_(prometheus::BuildHistogram()
                      .Name("draughts_rating_pg_duration_seconds")
                      .Help("PostgreSQL store operations (one transaction each), by operation")
                      .Register(registry)),
      pg_errors_(prometheus::BuildCounter()
                     .Name("draughts_rating_pg_errors_total")
                     .Help("PostgreSQL store operations that failed, by operation and code")
                     .Register(registry)) {}

void ArchiveMetrics::ResultApplied(bool elo_changed) {
  (elo_changed ? applied_elo_changed_ : applied_elo_unchanged_).Increment();
}

void ArchiveMetrics::PgCall(const std::string& operation, absl::Duration latency,
                            const absl::Status& status) {
  static const prometheus::Histogram::BucketBoundaries kBuckets = {
      0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5};
  std::lock_guard<std::mutex> lock(mu_);
  prometheus::Histogram*& histogram = pg_latency_by_operation_[operation];
  if (histogram == nullptr) histogram = &pg_latency_.Add({{"operation", operation}}, kBuckets);
  histogram->Observe(absl::ToDoubleSeconds(latency));
  if (status.ok()) return;
  const std::string code = absl::AsciiStrToLower(absl::StatusCodeToString(status.code()));
  prometheus::Counter*& counter = pg_errors_by_code_[{operation, code}];
  if (counter == nullptr) counter = &pg_errors_.Add({{"operation", operation}, {"code", code}});
  counter->Increment();
}

void ArchiveMetrics::Malformed(const std::string& reason) {
  std::lock_guard<std::mutex> lock(mu_);
  prometheus::Counter*& counter = malformed_by_reason_[reason];
  if (counter == nullptr) counter = &malformed_.Add({{"reason", reason}});
  counter->Increment();
}

void ArchiveMetrics::Backlog(int64_t pending, std::optional<int64_t> lag) {
  pending_.Set(static_cast<double>(pending));
  if (lag.has_value()) lag_.Set(static_cast<double>(*lag));
}

}  // namespace draughts::rating
