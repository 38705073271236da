// The archive, ratings and history in PostgreSQL (migrations/): tables
// archived_games (one row per game, INSERT ... ON CONFLICT (game_id) DO
// NOTHING, so a repeated or racing write never changes the first row),
// ratings (one row per player, rule set and month) and rating_history.
// Record() writes a whole batch of games in one transaction of a handful
// of statements (rows travel as arrays and are unnested in SQL), whatever
// the batch's size: that, not the number of games, is what a transaction
// costs.
#ifndef DRAUGHTS_RATING_PG_ARCHIVE_STORE_H_
#define DRAUGHTS_RATING_PG_ARCHIVE_STORE_H_

#include <optional>
#include <string>
#include <vector>

#include "platform/pg_migrations.h"
#include "platform/pg_pool.h"
#include "rating/archive_metrics.h"
#include "rating/archive_store.h"
#include "rating/elo.h"

namespace draughts::rating {

// The service's migrations (compiled in from migrations/*.sql).
std::vector<platform::Migration> RatingMigrations();

class PgArchiveStore final : public ArchiveStore {
 public:
  // `pool` must outlive the store and have the migrations applied;
  // `metrics` (PostgreSQL latency and errors) may be null.
  explicit PgArchiveStore(platform::PgPool* pool, EloSettings settings = {},
                          ArchiveMetrics* metrics = nullptr)
      : pool_(pool), settings_(settings), metrics_(metrics) {}

  absl::StatusOr<std::vector<RecordedGame>> Record(const std::vector<v1::ResultRecord>& records,
                                                   absl::Time archived_at) override;
  absl::StatusOr<std::optional<ArchivedRecord>> Find(const std::string& game_id) override;
  absl::StatusOr<std::optional<v1::LeaderboardEntry>> FindRating(const std::string& player_id,
                                                                 const std::string& variant,
                                                                 const std::string& month) override;
  absl::StatusOr<std::vector<v1::LeaderboardEntry>> Leaderboard(
      const std::string& variant, const std::string& month,
      const std::optional<LeaderboardCursor>& after, int limit) override;
  absl::StatusOr<std::vector<v1::HistoryEntry>> History(const std::string& player_id,
                                                        const std::string& variant,
                                                        const std::optional<HistoryCursor>& after,
                                                        int limit) override;

 private:
  // Times `status` under `operation` in the metrics.
  template <typename T>
  T Observed(const char* operation, absl::Time started, T result) {
    if (metrics_ != nullptr) metrics_->PgCall(operation, absl::Now() - started, StatusOf(result));
    return result;
  }
  template <typename T>
  static absl::Status StatusOf(const absl::StatusOr<T>& result) {
    return result.status();
  }

  platform::PgPool* pool_;
  EloSettings settings_;
  ArchiveMetrics* metrics_;
};

// A PostgreSQL text[] literal ({"a","b"}) holding exactly `items`.
std::string TextArrayLiteral(const std::vector<std::string>& items);

}  // namespace draughts::rating

#endif  // DRAUGHTS_RATING_PG_ARCHIVE_STORE_H_
