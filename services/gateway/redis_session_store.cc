#include "gateway/redis_session_store.h"

#include <utility>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "platform/absl_compat.h"
#include "platform/status_macros.h"

namespace draughts::gateway {
namespace {

std::string Now() {
  return absl::FormatTime(absl::RFC3339_sec, absl::Now(), absl::UTCTimeZone());
}

absl::Status AllOk(const std::vector<platform::RedisReply>& replies) {
  for (const platform::RedisReply& reply : replies) {
    DRAUGHTS_RETURN_IF_ERROR(reply.ToStatus());
  }
  return absl::OkStatus();
}

// A counter's value; a missing key is 0.
absl::StatusOr<int64_t> CounterValue(const platform::RedisReply& reply) {
  DRAUGHTS_ASSIGN_OR_RETURN(std::optional<std::string> text, reply.AsOptionalString());
  if (!text.has_value()) return 0;
  int64_t value = 0;
  if (!absl::SimpleAtoi(*text, &value)) return absl::InternalError("malformed session generation");
  return value;
}

}  // namespace

RedisSessionStore::RedisSessionStore(platform::RedisPool* pool, std::string key_prefix,
                                     absl::Duration ttl)
    : pool_(pool), key_prefix_(std::move(key_prefix)), ttl_(ttl) {}

std::string RedisSessionStore::KeyFor(std::string_view id) const {
  // The braces make the id the hash tag, so a Redis Cluster keeps every key
  // of one session on one node.
  return absl::StrCat(key_prefix_, "draughts:session:{", platform::ToAbsl(id), "}");
}

std::string RedisSessionStore::GenerationKeyFor(int64_t account_id) const {
  return absl::StrCat(key_prefix_, "draughts:account:{", account_id, "}:generation");
}

absl::StatusOr<Session> RedisSessionStore::Create() {
  Session session{NewSessionId(), NewPublicPlayerId(), NewGuestName()};
  DRAUGHTS_ASSIGN_OR_RETURN(platform::RedisPool::Lease redis, pool_->Borrow());
  const std::string key = KeyFor(session.id);
  DRAUGHTS_ASSIGN_OR_RETURN(
      std::vector<platform::RedisReply> replies,
      redis->Pipeline({{"HSET", key, "guestName", session.display_name, "playerId",
                        session.player_id, "createdAt", Now()},
                       {"EXPIRE", key, absl::StrCat(absl::ToInt64Seconds(ttl_))}}));
  DRAUGHTS_RETURN_IF_ERROR(AllOk(replies));
  return session;
}

absl::StatusOr<Session> RedisSessionStore::CreateForAccount(int64_t account_id,
                                                            std::string_view player_id,
                                                            std::string_view name,
                                                            int64_t generation) {
  Session session{NewSessionId(), std::string(player_id), std::string(name), account_id};
  DRAUGHTS_ASSIGN_OR_RETURN(platform::RedisPool::Lease redis, pool_->Borrow());
  const std::string key = KeyFor(session.id);
  DRAUGHTS_ASSIGN_OR_RETURN(
      std::vector<platform::RedisReply> replies,
      redis->Pipeline({{"HSET", key, "accountId", absl::StrCat(account_id), "accountName",
                        session.display_name, "accountGeneration", absl::StrCat(generation),
                        "playerId", session.player_id, "createdAt", Now()},
                       {"EXPIRE", key, absl::StrCat(absl::ToInt64Seconds(ttl_))}}));
  DRAUGHTS_RETURN_IF_ERROR(AllOk(replies));
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
                       {"HGET", key, "accountId"},
                       {"HGET", key, "accountName"},
                       {"HGET", key, "accountGeneration"},
                       {"EXPIRE", key, absl::StrCat(absl::ToInt64Seconds(ttl_))}}));
  DRAUGHTS_RETURN_IF_ERROR(AllOk(replies));
  DRAUGHTS_ASSIGN_OR_RETURN(std::optional<std::string> guest_name, replies[0].AsOptionalString());
  DRAUGHTS_ASSIGN_OR_RETURN(std::optional<std::string> player_id, replies[1].AsOptionalString());
  DRAUGHTS_ASSIGN_OR_RETURN(std::optional<std::string> account_id, replies[2].AsOptionalString());
  if (account_id.has_value()) {
    Session session;
    session.id = std::string(id);
    DRAUGHTS_ASSIGN_OR_RETURN(std::optional<std::string> name, replies[3].AsOptionalString());
    DRAUGHTS_ASSIGN_OR_RETURN(int64_t generation, CounterValue(replies[4]));
    if (!absl::SimpleAtoi(*account_id, &session.account_id) || session.account_id <= 0 ||
        !player_id.has_value() || !name.has_value()) {
      return absl::InternalError("malformed account session");
    }
    DRAUGHTS_ASSIGN_OR_RETURN(platform::RedisReply current,
                              redis->Command({"GET", GenerationKeyFor(session.account_id)}));
    DRAUGHTS_RETURN_IF_ERROR(current.ToStatus());
    DRAUGHTS_ASSIGN_OR_RETURN(int64_t current_generation, CounterValue(current));
    if (current_generation != generation) {
      // Revoked: drop it now rather than at its expiry.
      DRAUGHTS_ASSIGN_OR_RETURN(platform::RedisReply deleted, redis->Command({"DEL", key}));
      DRAUGHTS_RETURN_IF_ERROR(deleted.ToStatus());
      return std::nullopt;
    }
    session.player_id = *std::move(player_id);
    session.display_name = *std::move(name);
    return session;
  }
  if (!guest_name.has_value()) return std::nullopt;
  if (!player_id.has_value()) {
    // A session made before sessions had public ids: give it one now. HSETNX
    // so two replicas doing this at once agree on the first one written; the
    // EXPIRE bounds the stub a session expiring just now would leave.
    DRAUGHTS_ASSIGN_OR_RETURN(
        std::vector<platform::RedisReply> set,
        redis->Pipeline({{"HSETNX", key, "playerId", NewPublicPlayerId()},
                         {"EXPIRE", key, absl::StrCat(absl::ToInt64Seconds(ttl_))},
                         {"HGET", key, "playerId"}}));
    DRAUGHTS_RETURN_IF_ERROR(AllOk(set));
    DRAUGHTS_ASSIGN_OR_RETURN(player_id, set[2].AsOptionalString());
    if (!player_id.has_value()) return std::nullopt;
  }
  return Session{std::string(id), *std::move(player_id), *std::move(guest_name)};
}

absl::Status RedisSessionStore::Revoke(std::string_view id) {
  if (!IsWellFormedSessionId(id)) return absl::OkStatus();
  DRAUGHTS_ASSIGN_OR_RETURN(platform::RedisPool::Lease redis, pool_->Borrow());
  DRAUGHTS_ASSIGN_OR_RETURN(platform::RedisReply reply, redis->Command({"DEL", KeyFor(id)}));
  return reply.ToStatus();
}

absl::StatusOr<int64_t> RedisSessionStore::AccountGeneration(int64_t account_id) {
  DRAUGHTS_ASSIGN_OR_RETURN(platform::RedisPool::Lease redis, pool_->Borrow());
  DRAUGHTS_ASSIGN_OR_RETURN(platform::RedisReply reply,
                            redis->Command({"GET", GenerationKeyFor(account_id)}));
  DRAUGHTS_RETURN_IF_ERROR(reply.ToStatus());
  return CounterValue(reply);
}

absl::Status RedisSessionStore::RevokeAccountSessions(int64_t account_id) {
  DRAUGHTS_ASSIGN_OR_RETURN(platform::RedisPool::Lease redis, pool_->Borrow());
  // No expiry: the counter must outlive every session made under it.
  DRAUGHTS_ASSIGN_OR_RETURN(platform::RedisReply reply,
                            redis->Command({"INCR", GenerationKeyFor(account_id)}));
  return reply.ToStatus();
}

absl::Status RedisSessionStore::Ping() {
  DRAUGHTS_ASSIGN_OR_RETURN(platform::RedisPool::Lease redis, pool_->Borrow());
  DRAUGHTS_ASSIGN_OR_RETURN(platform::RedisReply reply, redis->Command({"PING"}));
  return reply.ToStatus();
}

}  // namespace draughts::gateway
