// Versioned SQL migrations. Each service passes its list (usually embedded
// from files with draughts_embed_migrations, see migrations.cmake):
//
//   DRAUGHTS_ASSIGN_OR_RETURN(auto applied, ApplyMigrations(pool, "rating", RatingMigrations()));
//
// Migrations run in version order, each in its own transaction together
// with its row in schema_migrations(component, version, name, checksum,
// applied_at). Safe with several replicas starting at once: every step
// holds a transaction-level advisory lock, so one runner applies a version
// and the others then see it applied. Refuses to run (FAILED_PRECONDITION)
// when an applied migration's SQL changed, or when a new migration has a
// lower version than one already applied: history is append-only.
// Statements that cannot run in a transaction (CREATE INDEX CONCURRENTLY)
// are not supported.
#ifndef DRAUGHTS_PLATFORM_PG_MIGRATIONS_H_
#define DRAUGHTS_PLATFORM_PG_MIGRATIONS_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "platform/pg_pool.h"

namespace draughts::platform {

struct Migration {
  int64_t version;   // > 0, strictly increasing in the list
  std::string name;  // for humans: "create_ratings"
  std::string sql;   // may hold several statements
};

// Stable fingerprint of a migration's SQL (64-bit FNV-1a, hex).
std::string MigrationChecksum(std::string_view sql);

// Checks a list without touching the database.
absl::Status ValidateMigrations(const std::vector<Migration>& migrations);

// Parses a migration file name "0003_add_history.sql" -> (3, "add_history").
absl::StatusOr<std::pair<int64_t, std::string>> ParseMigrationFileName(std::string_view file_name);

// Applies the pending migrations of `component`; returns the versions this
// call applied (empty when the schema was up to date).
absl::StatusOr<std::vector<int64_t>> ApplyMigrations(PgPool& pool, std::string_view component,
                                                     const std::vector<Migration>& migrations);

}  // namespace draughts::platform

#endif  // DRAUGHTS_PLATFORM_PG_MIGRATIONS_H_
