// Sessions in Redis: one hash per session at draughts:session:{<id>} with
// the guest name and the public player id, a 30-day expiry refreshed on
// every use.
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
  absl::StatusOr<std::optional<Session>> Find(std::string_view id) override;
  absl::Status Ping() override;

  std::string KeyFor(std::string_view id) const;

 private:
  platform::RedisPool* pool_;
  std::string key_prefix_;
  absl::Duration ttl_;
};

}  // namespace draughts::gateway

#endif  // DRAUGHTS_GATEWAY_REDIS_SESSION_STORE_H_
