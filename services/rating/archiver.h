// What happens to one results stream entry: check it is a finished game,
// write it to the archive once, and say whether the entry may be
// acknowledged. Knows nothing of Redis (result_source.h) or PostgreSQL
// (archive_store.h).
#ifndef DRAUGHTS_RATING_ARCHIVER_H_
#define DRAUGHTS_RATING_ARCHIVER_H_

#include <functional>
#include <string>

#include "absl/status/status.h"
#include "absl/time/time.h"
#include "rating/archive_metrics.h"
#include "rating/archive_store.h"
#include "rating/result_source.h"

namespace draughts::rating {

enum class EntryOutcome {
  kArchived,   // written now
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

 private:
  HandledEntry Malformed(const ResultEntry& entry, const std::string& reason, absl::Status status);

  ArchiveStore* store_;
  ArchiveMetrics* metrics_;
  std::function<absl::Time()> now_;
};

// Whether a record is a finished game worth archiving: INVALID_ARGUMENT
// naming what is wrong otherwise.
absl::Status CheckFinishedRecord(const v1::ResultRecord& record);

}  // namespace draughts::rating

#endif  // DRAUGHTS_RATING_ARCHIVER_H_
