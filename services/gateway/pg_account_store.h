// AccountStore over PostgreSQL. The gateway must serve guests while the
// database is down, so the store connects lazily: the first call (and,
// after a failure, the first call once `retry_after` has passed) opens the
// pool and applies the gateway's migrations (migrations/, component
// "gateway"); until then every call is UNAVAILABLE at once, without waiting
// on a dead server. Once open, the pool reconnects by itself.
#ifndef DRAUGHTS_GATEWAY_PG_ACCOUNT_STORE_H_
#define DRAUGHTS_GATEWAY_PG_ACCOUNT_STORE_H_

#include <memory>
#include <mutex>
#include <vector>

#include "absl/time/time.h"
#include "gateway/account_store.h"
#include "platform/pg_migrations.h"
#include "platform/pg_pool.h"

namespace draughts::gateway {

// The gateway's migrations, embedded from migrations/ at build time.
std::vector<platform::Migration> GatewayMigrations();

class PgAccountStore : public AccountStore {
 public:
  explicit PgAccountStore(platform::PgPoolOptions options,
                          absl::Duration retry_after = absl::Seconds(2));

  absl::StatusOr<Account> Create(std::string_view name, std::string_view password_hash,
                                 std::string_view public_id) override;
  absl::StatusOr<std::optional<StoredCredentials>> FindByName(std::string_view name) override;
  absl::StatusOr<std::optional<StoredCredentials>> FindById(int64_t id) override;
  absl::StatusOr<bool> ReplacePasswordHash(int64_t id, std::string_view expected_hash,
                                           std::string_view new_hash) override;
  absl::StatusOr<bool> Delete(int64_t id) override;
  absl::Status Ping() override;

 private:
  // The open pool, or UNAVAILABLE.
  absl::StatusOr<platform::PgPool*> Pool();

  const platform::PgPoolOptions options_;
  const absl::Duration retry_after_;
  std::mutex mu_;
  std::unique_ptr<platform::PgPool> pool_;  // set once, never reset
  bool connecting_ = false;
  absl::Time next_attempt_ = absl::InfinitePast();
};

}  // namespace draughts::gateway

#endif  // DRAUGHTS_GATEWAY_PG_ACCOUNT_STORE_H_
