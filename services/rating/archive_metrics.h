// Prometheus metrics of the archive and its results consumer, next to the
// per-RPC ones the platform records: what an operator watches to know that
// every finished game is kept (archived, repeated, refused) and that the
// consumer keeps up (pending and lag of the group).
#ifndef DRAUGHTS_RATING_ARCHIVE_METRICS_H_
#define DRAUGHTS_RATING_ARCHIVE_METRICS_H_

#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>

#include "prometheus/counter.h"
#include "prometheus/family.h"
#include "prometheus/gauge.h"
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

 private:
  prometheus::Counter& archived_;
  prometheus::Counter& duplicates_;
  prometheus::Counter& conflicts_;
  prometheus::Counter& store_failures_;
  prometheus::Counter& claimed_;
  prometheus::Gauge& pending_;
  prometheus::Gauge& lag_;
  prometheus::Family<prometheus::Counter>& malformed_;
  std::mutex mu_;
  std::map<std::string, prometheus::Counter*> malformed_by_reason_;
};

}  // namespace draughts::rating

#endif  // DRAUGHTS_RATING_ARCHIVE_METRICS_H_
