// What happens to results stream entries: check each is a finished game,
// record it once (archive, history, Elo: archive_store.h), and say whether
// the entry may be acknowledged. A batch of entries is recorded in one
// store transaction. Knows nothing of Redis (result_source.h) or
// PostgreSQL.
#ifndef DRAUGHTS_RATING_ARCHIVER_H_
#define DRAUGHTS_RATING_ARCHIVER_H_

#include <functional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/time/time.h"
#include "rating/archive_metrics.h"
#include "rating/archive_store.h"
#include "rating/result_rules.h"
#include "rating/result_source.h"

namespace draughts::rating {

enum class EntryOutcome {
  kArchived,   // recorded now (archive, history, and Elo when it changes it)
  kDuplicate,  // the same record was already archived
  kConflict,   // a different record was already archived for the game: kept the first
  kMalformed,  // not a finished game (or refused by the store): dropped, never archived
  kRetry,      // the store failed transiently: leave the entry pending
};

// Every outcome but kRetry is final: the entry may be acknowledged.
inline bool MayAcknowledge(EntryOutcome outcome) {
  return outcome != EntryOutcome::kRetry;
}

struct HandledEntry {
  EntryOutcome outcome = EntryOutcome::kRetry;
  // Why, for kMalformed and kRetry.
  absl::Status status;
};

class Archiver {
 public:
  // `store` must outlive the archiver; `metrics` may be null; null `now`
  // means the system clock.
  Archiver(ArchiveStore* store, ArchiveMetrics* metrics, std::function<absl::Time()> now = {});

  HandledEntry Handle(const ResultEntry& entry);
  // One outcome per entry, in order; the well-formed ones are recorded in
  // one store call (one at a time only if the store refuses the batch's
  // data, to find the entry it refuses).
  std::vector<HandledEntry> HandleBatch(const std::vector<ResultEntry>& entries);

 private:
  HandledEntry Malformed(const ResultEntry& entry, const std::string& reason, absl::Status status);
  // Outcomes of `records` (parsed from entries[index[i]]) into `handled`.
  void Record(const std::vector<ResultEntry>& entries, const std::vector<size_t>& index,
              const std::vector<v1::ResultRecord>& records, std::vector<HandledEntry>& handled);
  HandledEntry Recorded(const ResultEntry& entry, const v1::ResultRecord& record,
                        const RecordedGame& game);

  ArchiveStore* store_;
  ArchiveMetrics* metrics_;
  std::function<absl::Time()> now_;
};

}  // namespace draughts::rating

#endif  // DRAUGHTS_RATING_ARCHIVER_H_
