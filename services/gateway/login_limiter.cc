#include "gateway/login_limiter.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "platform/absl_compat.h"
#include "platform/status_macros.h"

namespace draughts::gateway {

LoginLimiter::LoginLimiter(platform::RedisPool* pool, std::string key_prefix, LoginLimits limits)
    : pool_(pool), key_prefix_(std::move(key_prefix)), limits_(limits) {}

absl::StatusOr<LoginAttempt> LoginLimiter::Begin(std::string_view normalised_name,
                                                 std::string_view address) {
  LoginAttempt attempt;
  if (!normalised_name.empty()) {
    attempt.name_key = absl::StrCat(key_prefix_, "draughts:login-limit:name:{",
                                    platform::ToAbsl(normalised_name), "}");
  }
  if (!address.empty()) {
    attempt.address_key =
        absl::StrCat(key_prefix_, "draughts:login-limit:address:{", platform::ToAbsl(address), "}");
  }
  const std::string window =
      absl::StrCat(std::max<int64_t>(1, absl::ToInt64Seconds(limits_.window)));
  DRAUGHTS_ASSIGN_OR_RETURN(platform::RedisPool::Lease redis, pool_->Borrow());
  const auto count = [&](const std::string& key, int64_t limit) -> absl::Status {
    if (key.empty()) return absl::OkStatus();
    // EXPIRE NX: the window starts at the first attempt and is not pushed
    // back by later ones.
    DRAUGHTS_ASSIGN_OR_RETURN(
        std::vector<platform::RedisReply> replies,
        redis->Pipeline({{"INCR", key}, {"EXPIRE", key, window, "NX"}, {"TTL", key}}));
    for (const platform::RedisReply& reply : replies) DRAUGHTS_RETURN_IF_ERROR(reply.ToStatus());
    DRAUGHTS_ASSIGN_OR_RETURN(int64_t attempts, replies[0].AsInteger());
    DRAUGHTS_ASSIGN_OR_RETURN(int64_t ttl, replies[2].AsInteger());
    if (attempts > limit) {
      attempt.retry_after_seconds = std::max<int64_t>({attempt.retry_after_seconds, ttl, 1});
    }
    return absl::OkStatus();
  };
  DRAUGHTS_RETURN_IF_ERROR(count(attempt.name_key, limits_.per_name));
  DRAUGHTS_RETURN_IF_ERROR(count(attempt.address_key, limits_.per_address));
  return attempt;
}

absl::Status LoginLimiter::Release(const LoginAttempt& attempt) {
  DRAUGHTS_ASSIGN_OR_RETURN(platform::RedisPool::Lease redis, pool_->Borrow());
  for (const std::string& key : {attempt.name_key, attempt.address_key}) {
    if (key.empty()) continue;
    // Only while the window lasts: a DECR on an expired key would leave a
    // negative count with no expiry, a permanent extra allowance.
    DRAUGHTS_ASSIGN_OR_RETURN(platform::RedisReply reply,
                              redis->Command({"EVAL",
                                              "if redis.call('EXISTS', KEYS[1]) == 1 then "
                                              "return redis.call('DECR', KEYS[1]) end return 0",
                                              "1", key}));
    DRAUGHTS_RETURN_IF_ERROR(reply.ToStatus());
  }
  return absl::OkStatus();
}

}  // namespace draughts::gateway
