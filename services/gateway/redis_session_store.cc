#include "gateway/redis_session_store.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "platform/absl_compat.h"
#include "platform/status_macros.h"

namespace draughts::gateway {

RedisSessionStore::RedisSessionStore(platform::RedisPool* pool, std::string key_prefix,
                                     absl::Duration ttl)
    : pool_(pool), key_prefix_(std::move(key_prefix)), ttl_(ttl) {}

std::string RedisSessionStore::KeyFor(std::string_view id) const {
  // The braces make the id the hash tag, so a Redis Cluster keeps every key
  // of one session on one node.
  return absl::StrCat(key_prefix_, "draughts:session:{", platform::ToAbsl(id), "}");
}

absl::StatusOr<Session> RedisSessionStore::Create() {
  Session session{NewSessionId(), NewPublicPlayerId(), NewGuestName()};
  DRAUGHTS_ASSIGN_OR_RETURN(platform::RedisPool::Lease redis, pool_->Borrow());
  const std::string key = KeyFor(session.id);
  DRAUGHTS_ASSIGN_OR_RETURN(
      std::vector<platform::RedisReply> replies,
      redis->Pipeline(
          {{"HSET", key, "guestName", session.guest_name, "playerId", session.player_id,
            "createdAt", absl::FormatTime(absl::RFC3339_sec, absl::Now(), absl::UTCTimeZone())},
           {"EXPIRE", key, absl::StrCat(absl::ToInt64Seconds(ttl_))}}));
  for (const platform::RedisReply& reply : replies) {
    DRAUGHTS_RETURN_IF_ERROR(reply.ToStatus());
  }
  return session;
}

absl::StatusOr<std::optional<Session>> RedisSessionStore::Find(std::string_view id) {
  if (!IsWellFormedSessionId(id)) return std::nullopt;
  DRAUGHTS_ASSIGN_OR_RETURN(platform::RedisPool::Lease redis, pool_->Borrow());
  const std::string key = KeyFor(id);
  DRAUGHTS_ASSIGN_OR_RETURN(
      std::vector<platform::RedisReply> replies,
      redis->Pipeline({{"HGET", key, "guestName"},
                       {"HGET", key, "playerId"},
                       {"EXPIRE", key, absl::StrCat(absl::ToInt64Seconds(ttl_))}}));
  for (const platform::RedisReply& reply : replies) {
    DRAUGHTS_RETURN_IF_ERROR(reply.ToStatus());
  }
  DRAUGHTS_ASSIGN_OR_RETURN(std::optional<std::string> name, replies[0].AsOptionalString());
  if (!name.has_value()) return std::nullopt;
  DRAUGHTS_ASSIGN_OR_RETURN(std::optional<std::string> player_id, replies[1].AsOptionalString());
  if (!player_id.has_value()) {
    // A session made before sessions had public ids: give it one now. HSETNX
    // so two replicas doing this at once agree on the first one written; the
    // EXPIRE bounds the stub a session expiring just now would leave.
    DRAUGHTS_ASSIGN_OR_RETURN(
        std::vector<platform::RedisReply> set,
        redis->Pipeline({{"HSETNX", key, "playerId", NewPublicPlayerId()},
                         {"EXPIRE", key, absl::StrCat(absl::ToInt64Seconds(ttl_))},
                         {"HGET", key, "playerId"}}));
    for (const platform::RedisReply& reply : set) {
      DRAUGHTS_RETURN_IF_ERROR(reply.ToStatus());
    }
    DRAUGHTS_ASSIGN_OR_RETURN(player_id, set[2].AsOptionalString());
    if (!player_id.has_value()) return std::nullopt;
  }
  return Session{std::string(id), *std::move(player_id), *std::move(name)};
}

absl::Status RedisSessionStore::Ping() {
  DRAUGHTS_ASSIGN_OR_RETURN(platform::RedisPool::Lease redis, pool_->Borrow());
  DRAUGHTS_ASSIGN_OR_RETURN(platform::RedisReply reply, redis->Command({"PING"}));
  return reply.ToStatus();
}

}  // namespace draughts::gateway
