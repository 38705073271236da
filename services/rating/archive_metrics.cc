#include "rating/archive_metrics.h"

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
                     .Register(registry)) {}

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
