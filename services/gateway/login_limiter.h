// Limits on password guesses: per account name and per client address,
// counted in Redis (shared by every replica) over a fixed window that
// starts with the first attempt. Every attempt counts when it starts, so a
// burst of parallel guesses cannot slip past the limit; a successful one is
// taken back, so only failures use the allowance up. Past the limit the
// answer is 429 RESOURCE_EXHAUSTED with Retry-After (the seconds left in
// the window), given before any password is checked.
//
// Keys: draughts:login-limit:name:{<normalised name>} and
// draughts:login-limit:address:{<address>}.
#ifndef DRAUGHTS_GATEWAY_LOGIN_LIMITER_H_
#define DRAUGHTS_GATEWAY_LOGIN_LIMITER_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "platform/redis_pool.h"

namespace draughts::gateway {

struct LoginLimits {
  int64_t per_name = 10;
  int64_t per_address = 50;
  absl::Duration window = absl::Minutes(15);
};

// One attempt, counted; Release() it when the password was right.
struct LoginAttempt {
  std::string name_key;     // "" when the name was not counted
  std::string address_key;  // "" when the address was not counted
  // > 0: refused, retry after this many seconds.
  int64_t retry_after_seconds = 0;
};

class LoginLimiter {
 public:
  LoginLimiter(platform::RedisPool* pool, std::string key_prefix, LoginLimits limits);

  // Counts an attempt on `normalised_name` (not counted when empty: a name
  // that cannot exist) from `address` (not counted when empty).
  absl::StatusOr<LoginAttempt> Begin(std::string_view normalised_name, std::string_view address);
  // Takes a successful attempt back.
  absl::Status Release(const LoginAttempt& attempt);

 private:
  platform::RedisPool* pool_;
  std::string key_prefix_;
  LoginLimits limits_;
};

}  // namespace draughts::gateway

#endif  // DRAUGHTS_GATEWAY_LOGIN_LIMITER_H_
