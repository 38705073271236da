#include "gateway/pg_account_store.h"

#include <pqxx/pqxx>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "platform/logging.h"

namespace draughts::gateway {
namespace {

constexpr const char* kSelectColumns = "SELECT id, public_id, name, password_hash FROM accounts ";

std::optional<StoredCredentials> ReadCredentials(const pqxx::result& rows) {
  if (rows.empty()) return std::nullopt;
  StoredCredentials found;
  found.account.id = rows[0][0].as<int64_t>();
  found.account.public_id = rows[0][1].as<std::string>();
  found.account.name = rows[0][2].as<std::string>();
  found.password_hash = rows[0][3].as<std::string>();
  return found;
}

}  // namespace

PgAccountStore::PgAccountStore(platform::PgPoolOptions options, absl::Duration retry_after)
    : options_(std::move(options)), retry_after_(retry_after) {}

absl::StatusOr<platform::PgPool*> PgAccountStore::Pool() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (pool_ != nullptr) return pool_.get();
    if (connecting_ || absl::Now() < next_attempt_) {
      return absl::UnavailableError("the accounts database is unavailable: retry later");
    }
    connecting_ = true;
  }
  // Outside the lock: a slow connect must not hold up other requests (they
  // get UNAVAILABLE at once meanwhile).
  absl::StatusOr<std::unique_ptr<platform::PgPool>> pool = platform::PgPool::Create(options_);
  absl::Status status = pool.status();
  if (status.ok()) {
    absl::StatusOr<std::vector<int64_t>> applied =
        platform::ApplyMigrations(**pool, "gateway", GatewayMigrations());
    status = applied.status();
    if (applied.ok() && !applied->empty()) {
      platform::LogInfo("account migrations applied", {{"count", applied->size()}});
    }
  }
  std::lock_guard<std::mutex> lock(mu_);
  connecting_ = false;
  if (!status.ok()) {
    next_attempt_ = absl::Now() + retry_after_;
    platform::LogWarn("accounts database unavailable", {{"error", std::string(status.message())}});
    return absl::UnavailableError("the accounts database is unavailable: retry later");
  }
  pool_ = *std::move(pool);
  platform::LogInfo("accounts database connected");
  return pool_.get();
}

absl::StatusOr<Account> PgAccountStore::Create(std::string_view name,
                                               std::string_view password_hash,
                                               std::string_view public_id) {
  absl::StatusOr<platform::PgPool*> pool = Pool();
  if (!pool.ok()) return pool.status();
  absl::StatusOr<Account> created = (*pool)->WithTransactionResult<Account>(
      [&](pqxx::transaction_base& tx) -> absl::StatusOr<Account> {
        const pqxx::result rows = tx.exec_params(
            "INSERT INTO accounts (public_id, name, password_hash) VALUES ($1, $2, $3) "
            "RETURNING id",
            std::string(public_id), std::string(name), std::string(password_hash));
        return Account{rows[0][0].as<int64_t>(), std::string(public_id), std::string(name)};
      });
  if (created.status().code() == absl::StatusCode::kAlreadyExists) {
    // The constraint's message names the value: say it plainly instead.
    return absl::AlreadyExistsError("this name is taken");
  }
  return created;
}

absl::StatusOr<std::optional<StoredCredentials>> PgAccountStore::FindByName(std::string_view name) {
  absl::StatusOr<platform::PgPool*> pool = Pool();
  if (!pool.ok()) return pool.status();
  return (*pool)->WithTransactionResult<std::optional<StoredCredentials>>(
      [&](pqxx::transaction_base& tx) -> absl::StatusOr<std::optional<StoredCredentials>> {
        return ReadCredentials(tx.exec_params(
            absl::StrCat(kSelectColumns, "WHERE lower(name) = lower($1) AND deleted_at IS NULL"),
            std::string(name)));
      });
}

absl::StatusOr<std::optional<StoredCredentials>> PgAccountStore::FindById(int64_t id) {
  absl::StatusOr<platform::PgPool*> pool = Pool();
  if (!pool.ok()) return pool.status();
  return (*pool)->WithTransactionResult<std::optional<StoredCredentials>>(
      [&](pqxx::transaction_base& tx) -> absl::StatusOr<std::optional<StoredCredentials>> {
        return ReadCredentials(tx.exec_params(
            absl::StrCat(kSelectColumns, "WHERE id = $1 AND deleted_at IS NULL"), id));
      });
}

absl::StatusOr<bool> PgAccountStore::ReplacePasswordHash(int64_t id, std::string_view expected_hash,
                                                         std::string_view new_hash) {
  absl::StatusOr<platform::PgPool*> pool = Pool();
  if (!pool.ok()) return pool.status();
  return (*pool)->WithTransactionResult<bool>(
      [&](pqxx::transaction_base& tx) -> absl::StatusOr<bool> {
        const pqxx::result rows = tx.exec_params(
            "UPDATE accounts SET password_hash = $3, password_changed_at = now() "
            "WHERE id = $1 AND password_hash = $2 AND deleted_at IS NULL",
            id, std::string(expected_hash), std::string(new_hash));
        return rows.affected_rows() == 1;
      });
}

absl::StatusOr<bool> PgAccountStore::Delete(int64_t id) {
  absl::StatusOr<platform::PgPool*> pool = Pool();
  if (!pool.ok()) return pool.status();
  return (*pool)->WithTransactionResult<bool>(
      [&](pqxx::transaction_base& tx) -> absl::StatusOr<bool> {
        const pqxx::result rows = tx.exec_params(
            "UPDATE accounts SET name = NULL, password_hash = NULL, deleted_at = now() "
            "WHERE id = $1 AND deleted_at IS NULL",
            id);
        return rows.affected_rows() == 1;
      });
}

absl::Status PgAccountStore::Ping() {
  absl::StatusOr<platform::PgPool*> pool = Pool();
  if (!pool.ok()) return pool.status();
  return (*pool)->WithTransaction([](pqxx::transaction_base& tx) {
    tx.exec("SELECT 1");
    return absl::OkStatus();
  });
}

}  // namespace draughts::gateway
