#include "gateway/redis_idempotency_store.h"

#include <utility>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "platform/absl_compat.h"
#include "platform/status_macros.h"

namespace draughts::gateway {
namespace {

// "<fingerprint>\n<status>\n<body>": the fingerprint and status never hold
// a newline, the body may.
std::string Encode(const RememberedResponse& response) {
  return absl::StrCat(response.fingerprint, "\n", response.status, "\n", response.body);
}

absl::StatusOr<RememberedResponse> Decode(std::string_view value) {
  std::vector<absl::string_view> parts =
      absl::StrSplit(platform::ToAbsl(value), absl::MaxSplits('\n', 2));
  RememberedResponse response;
  if (parts.size() != 3 || !absl::SimpleAtoi(parts[1], &response.status)) {
    return absl::InternalError("a remembered idempotent answer is malformed");
  }
  response.fingerprint = std::string(parts[0]);
  response.body = std::string(parts[2]);
  return response;
}

}  // namespace

RedisIdempotencyStore::RedisIdempotencyStore(platform::RedisPool* pool, std::string key_prefix,
                                             absl::Duration lifetime)
    : pool_(pool), key_prefix_(std::move(key_prefix)), lifetime_(lifetime) {}

std::string RedisIdempotencyStore::KeyFor(std::string_view player_id, std::string_view key) const {
  // The player id is the hash tag: one player's keys share a Cluster slot.
  return absl::StrCat(key_prefix_, "draughts:idempotency:{", platform::ToAbsl(player_id),
                      "}:", platform::ToAbsl(key));
}

absl::StatusOr<std::optional<RememberedResponse>> RedisIdempotencyStore::Find(
    std::string_view player_id, std::string_view key) {
  DRAUGHTS_ASSIGN_OR_RETURN(platform::RedisPool::Lease redis, pool_->Borrow());
  DRAUGHTS_ASSIGN_OR_RETURN(platform::RedisReply reply,
                            redis->Command({"GET", KeyFor(player_id, key)}));
  DRAUGHTS_ASSIGN_OR_RETURN(std::optional<std::string> value, reply.AsOptionalString());
  if (!value.has_value()) return std::nullopt;
  return Decode(*value);
}

absl::StatusOr<RememberedResponse> RedisIdempotencyStore::Remember(
    std::string_view player_id, std::string_view key, const RememberedResponse& response) {
  DRAUGHTS_ASSIGN_OR_RETURN(platform::RedisPool::Lease redis, pool_->Borrow());
  const std::string redis_key = KeyFor(player_id, key);
  // SET NX then GET in one round trip: whichever request came first, both
  // learn the answer that is kept.
  DRAUGHTS_ASSIGN_OR_RETURN(std::vector<platform::RedisReply> replies,
                            redis->Pipeline({{"SET", redis_key, Encode(response), "NX", "PX",
                                              absl::StrCat(absl::ToInt64Milliseconds(lifetime_))},
                                             {"GET", redis_key}}));
  for (const platform::RedisReply& reply : replies) {
    DRAUGHTS_RETURN_IF_ERROR(reply.ToStatus());
  }
  DRAUGHTS_ASSIGN_OR_RETURN(std::optional<std::string> kept, replies[1].AsOptionalString());
  if (!kept.has_value()) return response;  // expired at once: nothing else is kept
  return Decode(*kept);
}

}  // namespace draughts::gateway
