#include "platform/pg_migrations.h"

#include <map>
#include <optional>
#include <pqxx/pqxx>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "platform/absl_compat.h"
#include "platform/logging.h"

namespace draughts::platform {
namespace {

// One lock for all components: the schema_migrations table itself is
// shared, and migrations are rare enough that serialising them costs nothing.
// The key is "draughts" in ASCII.
constexpr int64_t kMigrationLockKey = 0x6472617567687473;

constexpr char kCreateTable[] = R"sql(
CREATE TABLE IF NOT EXISTS schema_migrations (
  component  text        NOT NULL,
  version    bigint      NOT NULL,
  name       text        NOT NULL,
  checksum   text        NOT NULL,
  applied_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (component, version)
))sql";

struct Applied {
  std::string name;
  std::string checksum;
};

}  // namespace

std::string MigrationChecksum(std::string_view sql) {
  // FNV-1a, 64-bit (offset basis and prime from the published algorithm).
  uint64_t hash = 0xcbf29ce484222325ULL;
  for (unsigned char c : sql) {
    hash ^= c;
    hash *= 0x100000001b3ULL;
  }
  return absl::StrCat(absl::Hex(hash, absl::kZeroPad16));
}

absl::Status ValidateMigrations(const std::vector<Migration>& migrations) {
  int64_t previous = 0;
  for (const Migration& migration : migrations) {
    if (migration.version <= previous) {
      return absl::InvalidArgumentError(absl::StrCat(
          "migration versions must be positive and strictly increasing: ", migration.version, " (",
          migration.name, ") comes after ", previous));
    }
    if (migration.name.empty()) {
      return absl::InvalidArgumentError(
          absl::StrCat("migration ", migration.version, " has no name"));
    }
    if (absl::StripAsciiWhitespace(migration.sql).empty()) {
      return absl::InvalidArgumentError(
          absl::StrCat("migration ", migration.version, " (", migration.name, ") has no SQL"));
    }
    previous = migration.version;
  }
  return absl::OkStatus();
}

absl::StatusOr<std::pair<int64_t, std::string>> ParseMigrationFileName(std::string_view file_name) {
  auto bad = [&] {
    return absl::InvalidArgumentError(
        absl::StrCat("migration file \"", ToAbsl(file_name), "\" is not named NNNN_name.sql"));
  };
  constexpr std::string_view kSuffix = ".sql";
  if (file_name.size() <= kSuffix.size() ||
      file_name.substr(file_name.size() - kSuffix.size()) != kSuffix) {
    return bad();
  }
  std::string_view stem = file_name.substr(0, file_name.size() - kSuffix.size());
  size_t underscore = stem.find('_');
  if (underscore == std::string_view::npos || underscore == 0 || underscore + 1 == stem.size()) {
    return bad();
  }
  int64_t version = 0;
  std::string_view digits = stem.substr(0, underscore);
  for (char c : digits) {
    if (!absl::ascii_isdigit(static_cast<unsigned char>(c))) return bad();
  }
  if (!absl::SimpleAtoi(ToAbsl(digits), &version) || version <= 0) return bad();
  return std::make_pair(version, std::string(stem.substr(underscore + 1)));
}

absl::StatusOr<std::vector<int64_t>> ApplyMigrations(PgPool& pool, std::string_view component_view,
                                                     const std::vector<Migration>& migrations) {
  if (component_view.empty()) return absl::InvalidArgumentError("migrations need a component name");
  if (absl::Status valid = ValidateMigrations(migrations); !valid.ok()) return valid;
  const std::string component(component_view);
  std::vector<int64_t> applied_now;

  // One migration per transaction, each re-reading the state under the lock,
  // so concurrent runners interleave safely and a failure keeps the
  // migrations before it.
  for (;;) {
    std::optional<int64_t> applied_version;
    absl::Status status = pool.WithTransaction([&](pqxx::transaction_base& tx) -> absl::Status {
      tx.exec_params("SELECT pg_advisory_xact_lock($1)", kMigrationLockKey);
      tx.exec(kCreateTable);
      std::map<int64_t, Applied> applied;
      for (const auto& row : tx.exec_params(
               "SELECT version, name, checksum FROM schema_migrations WHERE component = $1",
               component)) {
        applied[row[0].as<int64_t>()] = {row[1].as<std::string>(), row[2].as<std::string>()};
      }
      const int64_t newest_applied = applied.empty() ? 0 : applied.rbegin()->first;
      const Migration* next = nullptr;
      for (const Migration& migration : migrations) {
        auto it = applied.find(migration.version);
        if (it != applied.end()) {
          std::string checksum = MigrationChecksum(migration.sql);
          if (it->second.checksum != checksum) {
            return absl::FailedPreconditionError(absl::StrCat(
                "migration ", migration.version, " (", migration.name, ") of ", component,
                " changed after it was applied (checksum ", it->second.checksum,
                " in the database, ", checksum, " now); add a new migration instead"));
          }
          continue;
        }
        if (migration.version < newest_applied) {
          return absl::FailedPreconditionError(
              absl::StrCat("migration ", migration.version, " (", migration.name, ") of ",
                           component, " is new but version ", newest_applied,
                           " is already applied; new migrations need higher versions"));
        }
        if (next == nullptr) next = &migration;
      }
      if (next == nullptr) return absl::OkStatus();
      tx.exec(next->sql);
      tx.exec_params(
          "INSERT INTO schema_migrations (component, version, name, checksum) "
          "VALUES ($1, $2, $3, $4)",
          component, next->version, next->name, MigrationChecksum(next->sql));
      applied_version = next->version;
      return absl::OkStatus();
    });
    if (!status.ok()) {
      return absl::Status(status.code(),
                          absl::StrCat("migrating ", component, ": ", status.message()));
    }
    if (!applied_version) break;
    LogInfo("migration applied", {{"component", component}, {"version", *applied_version}});
    applied_now.push_back(*applied_version);
  }
  return applied_now;
}

}  // namespace draughts::platform
