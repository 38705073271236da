// Where finished games are kept, as an interface: the PostgreSQL adapter
// (pg_archive_store.h) implements it for production, an in-memory fake for
// unit tests. Both keep the first record written for a game id for ever.
#ifndef DRAUGHTS_RATING_ARCHIVE_STORE_H_
#define DRAUGHTS_RATING_ARCHIVE_STORE_H_

#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "draughts/v1/events.pb.h"

namespace draughts::rating {

struct ArchivedRecord {
  v1::ResultRecord record;
  absl::Time archived_at;
};

struct InsertResult {
  // False when a game with this id was already archived: nothing was
  // written and `existing` is what the archive holds.
  bool inserted = false;
  std::optional<ArchivedRecord> existing;
};

class ArchiveStore {
 public:
  virtual ~ArchiveStore() = default;

  // Writes the game (record.game_id) unless it is already archived; durable
  // when this returns OK. UNAVAILABLE (or another transient code) when the
  // store is down: nothing or the whole row was written, never part of it.
  // INVALID_ARGUMENT when the store refuses the data itself (retrying will
  // not help).
  virtual absl::StatusOr<InsertResult> Insert(const v1::ResultRecord& record,
                                              absl::Time archived_at) = 0;

  // The archived game, nullopt when none has this id.
  virtual absl::StatusOr<std::optional<ArchivedRecord>> Find(const std::string& game_id) = 0;
};

}  // namespace draughts::rating

#endif  // DRAUGHTS_RATING_ARCHIVE_STORE_H_
