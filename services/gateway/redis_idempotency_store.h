// Remembered answers to idempotent POSTs in Redis, so a retry reaching any
// gateway replica gets the first answer: one string per (player, key) at
// draughts:idempotency:{<player id>}:<key>, expiring after
// kIdempotencyKeyLifetime.
#ifndef DRAUGHTS_GATEWAY_REDIS_IDEMPOTENCY_STORE_H_
#define DRAUGHTS_GATEWAY_REDIS_IDEMPOTENCY_STORE_H_

#include <string>

#include "gateway/idempotency.h"
#include "platform/redis_pool.h"

namespace draughts::gateway {

class RedisIdempotencyStore : public IdempotencyStore {
 public:
  // `key_prefix` goes before every key (tests isolate runs with it).
  RedisIdempotencyStore(platform::RedisPool* pool, std::string key_prefix = "",
                        absl::Duration lifetime = kIdempotencyKeyLifetime);

  absl::StatusOr<std::optional<RememberedResponse>> Find(std::string_view player_id,
                                                         std::string_view key) override;
  absl::StatusOr<RememberedResponse> Remember(std::string_view player_id, std::string_view key,
                                              const RememberedResponse& response) override;

  std::string KeyFor(std::string_view player_id, std::string_view key) const;

 private:
  platform::RedisPool* pool_;
  std::string key_prefix_;
  absl::Duration lifetime_;
};

}  // namespace draughts::gateway

#endif  // DRAUGHTS_GATEWAY_REDIS_IDEMPOTENCY_STORE_H_
