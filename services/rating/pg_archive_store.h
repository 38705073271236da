// The archive in PostgreSQL: table archived_games (migrations/), one row
// per game, written with INSERT ... ON CONFLICT (game_id) DO NOTHING so a
// repeated or racing write never changes the first row.
#ifndef DRAUGHTS_RATING_PG_ARCHIVE_STORE_H_
#define DRAUGHTS_RATING_PG_ARCHIVE_STORE_H_

#include <optional>
#include <string>
#include <vector>

#include "platform/pg_migrations.h"
#include "platform/pg_pool.h"
#include "rating/archive_store.h"

namespace draughts::rating {

// The service's migrations (compiled in from migrations/*.sql).
std::vector<platform::Migration> RatingMigrations();

class PgArchiveStore final : public ArchiveStore {
 public:
  // `pool` must outlive the store and have the migrations applied.
  explicit PgArchiveStore(platform::PgPool* pool) : pool_(pool) {}

  absl::StatusOr<InsertResult> Insert(const v1::ResultRecord& record,
                                      absl::Time archived_at) override;
  absl::StatusOr<std::optional<ArchivedRecord>> Find(const std::string& game_id) override;

 private:
  platform::PgPool* pool_;
};

// A PostgreSQL text[] literal ({"a","b"}) holding exactly `items`.
std::string TextArrayLiteral(const std::vector<std::string>& items);

}  // namespace draughts::rating

#endif  // DRAUGHTS_RATING_PG_ARCHIVE_STORE_H_
