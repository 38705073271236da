// Where finished games, ratings and rating history are kept, as an
// interface: the PostgreSQL adapter (pg_archive_store.h) implements it for
// production, an in-memory fake for unit tests. Both keep the first record
// written for a game id for ever, and apply a game's Elo change in the same
// all-or-nothing step as its archive row, so a game counts exactly once.
#ifndef DRAUGHTS_RATING_ARCHIVE_STORE_H_
#define DRAUGHTS_RATING_ARCHIVE_STORE_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "draughts/v1/events.pb.h"
#include "draughts/v1/rating.pb.h"

namespace draughts::rating {

struct ArchivedRecord {
  v1::ResultRecord record;
  absl::Time archived_at;
};

// What recording one game did.
struct RecordedGame {
  enum class Kind {
    kNew,        // archived now (and rated, if it changes Elo)
    kDuplicate,  // the same record was recorded before: nothing changed
    kConflict,   // a different record was recorded for this game id: kept the first
  };
  Kind kind = Kind::kNew;
  // The game changed Elo (now, or when first recorded for a duplicate).
  bool elo_changed = false;
  // White's then Black's change when elo_changed.
  std::vector<v1::RatingChange> changes;
};

// Where a leaderboard page continues: after this line.
struct LeaderboardCursor {
  int elo = 0;
  int games = 0;
  std::string player_id;
  int rank = 0;
};

// Where a history page continues: after this game.
struct HistoryCursor {
  int64_t finished_at_micros = 0;
  std::string game_id;
};

// Kept for callers that archive one game and want the stored record back.
struct InsertResult {
  // False when a game with this id was already archived: nothing was
  // written and `existing` is what the archive holds.
  bool inserted = false;
  std::optional<ArchivedRecord> existing;
};

class ArchiveStore {
 public:
  virtual ~ArchiveStore() = default;

  // Records `records` in order, all or nothing, durable when this returns
  // OK. Each game not stored yet is archived; if ChangesElo (result_rules.h)
  // both players' ratings of (variant, month of finished_at) move by the
  // Elo rule (elo.h), starting from the initial rating; every PERSON seat
  // gets a history row. A game already stored (or earlier in `records`)
  // changes nothing: kDuplicate if its record is the same, kConflict if
  // not. Records must have passed CheckCompleteRecord.
  // UNAVAILABLE / ABORTED (or another transient code) when the store is
  // down or lost a race: nothing was written. INVALID_ARGUMENT when it
  // refuses the data itself (retrying will not help).
  virtual absl::StatusOr<std::vector<RecordedGame>> Record(
      const std::vector<v1::ResultRecord>& records, absl::Time archived_at) = 0;

  // The archived game, nullopt when none has this id.
  virtual absl::StatusOr<std::optional<ArchivedRecord>> Find(const std::string& game_id) = 0;

  // The player's rating and rank in the month, nullopt if they played no
  // game there that changed Elo.
  virtual absl::StatusOr<std::optional<v1::LeaderboardEntry>> FindRating(
      const std::string& player_id, const std::string& variant, const std::string& month) = 0;

  // Up to `limit` lines of the month's leaderboard, best first (elo, then
  // games, descending; then player_id), after `after` when given.
  virtual absl::StatusOr<std::vector<v1::LeaderboardEntry>> Leaderboard(
      const std::string& variant, const std::string& month,
      const std::optional<LeaderboardCursor>& after, int limit) = 0;

  // Up to `limit` of the player's games, newest first (finished_at, then
  // game_id, descending), of `variant` (empty: all), after `after`.
  virtual absl::StatusOr<std::vector<v1::HistoryEntry>> History(
      const std::string& player_id, const std::string& variant,
      const std::optional<HistoryCursor>& after, int limit) = 0;

  // Records one game; for a game already recorded, returns what is stored.
  absl::StatusOr<InsertResult> Insert(const v1::ResultRecord& record, absl::Time archived_at);
};

}  // namespace draughts::rating

#endif  // DRAUGHTS_RATING_ARCHIVE_STORE_H_
