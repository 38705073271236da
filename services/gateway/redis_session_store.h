// Sessions in Redis: one hash per session at draughts:session:{<id>} with
// the public player id and either the guest name (guestName) or the
// account's id, name and session generation (accountId, accountName,
// accountGeneration); a 30-day expiry refreshed on every use. Each account
// has a generation counter at draughts:account:{<account id>}:generation;
// revoking all its sessions increments it, and Find refuses (and deletes) an
// account session made under an older one. Unlike a list of the account's
// sessions to delete, a counter also catches a login that checked the old
// password just before the change and stores its session just after.
#ifndef DRAUGHTS_GATEWAY_REDIS_SESSION_STORE_H_
#define DRAUGHTS_GATEWAY_REDIS_SESSION_STORE_H_

#include <string>

#include "absl/time/time.h"
#include "gateway/session_store.h"
#include "platform/redis_pool.h"

namespace draughts::gateway {

class RedisSessionStore : public SessionStore {
 public:
  // `key_prefix` goes before every key (tests isolate runs with it).
  RedisSessionStore(platform::RedisPool* pool, std::string key_prefix = "",
                    absl::Duration ttl = absl::Hours(24 * 30));

  absl::StatusOr<Session> Create() override;
  absl::StatusOr<Session> CreateForAccount(int64_t account_id, std::string_view player_id,
                                           std::string_view name, int64_t generation) override;
  absl::StatusOr<std::optional<Session>> Find(std::string_view id) override;
  absl::Status Revoke(std::string_view id) override;
  absl::StatusOr<int64_t> AccountGeneration(int64_t account_id) override;
  absl::Status RevokeAccountSessions(int64_t account_id) override;
  absl::Status Ping() override;

  std::string KeyFor(std::string_view id) const;
  std::string GenerationKeyFor(int64_t account_id) const;

 private:
  platform::RedisPool* pool_;
  std::string key_prefix_;
  absl::Duration ttl_;
};

}  // namespace draughts::gateway

#endif  // DRAUGHTS_GATEWAY_REDIS_SESSION_STORE_H_
