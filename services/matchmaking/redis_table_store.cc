#include "matchmaking/redis_table_store.h"

#include <algorithm>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "matchmaking/lua_scripts.h"
#include "platform/proto_time.h"
#include "platform/status_macros.h"

namespace draughts::matchmaking {
namespace {

int64_t Ms(absl::Time time) {
  return absl::ToUnixMillis(time);
}
int64_t Seconds(absl::Duration d) {
  return std::max<int64_t>(1, absl::ToInt64Seconds(d));
}

absl::StatusOr<StoredTable> Parse(const std::vector<platform::RedisReply>& values) {
  // values: v, data, pw, tok, cc, start, qp
  DRAUGHTS_ASSIGN_OR_RETURN(std::optional<std::string> version, values[0].AsOptionalString());
  DRAUGHTS_ASSIGN_OR_RETURN(std::optional<std::string> data, values[1].AsOptionalString());
  if (!version.has_value() || !data.has_value()) return absl::NotFoundError("no such table");
  StoredTable stored;
  if (!absl::SimpleAtoi(*version, &stored.version) || !stored.table.ParseFromString(*data)) {
    return absl::InternalError("a stored table does not parse");
  }
  auto text = [&](int i) -> std::string {
    absl::StatusOr<std::optional<std::string>> value = values[i].AsOptionalString();
    return value.ok() && value->has_value() ? **value : std::string();
  };
  stored.password_hash = text(2);
  stored.sealed_tokens = text(3);
  int color = 0;
  if (absl::SimpleAtoi(text(4), &color) && v1::Color_IsValid(color)) {
    stored.creator_color = static_cast<v1::Color>(color);
  }
  absl::SimpleAtoi(text(5), &stored.pending_start);
  stored.quick_queue = text(6);
  return stored;
}

std::vector<std::string> HmgetTable(const std::string& key) {
  return {"HMGET",
          key,
          "v",
          "data",
          kFieldPassword,
          kFieldTokens,
          kFieldCreatorColor,
          kFieldPendingStart,
          kFieldQuickQueue};
}

}  // namespace

void ApplyFields(const std::vector<std::pair<std::string, std::string>>& fields,
                 StoredTable& stored) {
  for (const auto& [field, value] : fields) {
    if (field == kFieldPassword) {
      stored.password_hash = value;
    } else if (field == kFieldTokens) {
      stored.sealed_tokens = value;
    } else if (field == kFieldCreatorColor) {
      int color = 0;
      stored.creator_color = absl::SimpleAtoi(value, &color) && v1::Color_IsValid(color)
                                 ? static_cast<v1::Color>(color)
                                 : v1::COLOR_UNSPECIFIED;
    } else if (field == kFieldPendingStart) {
      if (!absl::SimpleAtoi(value, &stored.pending_start)) stored.pending_start = 0;
    } else if (field == kFieldQuickQueue) {
      stored.quick_queue = value;
    }
  }
}

RedisTableStore::RedisTableStore(platform::RedisPool* pool, RedisTableStoreOptions options)
    : pool_(pool),
      options_(std::move(options)),
      commit_script_(std::string(lua::kCommitTableLua)),
      claim_due_script_(std::string(lua::kClaimDueLua)),
      claim_key_script_(std::string(lua::kClaimKeyLua)),
      count_guess_script_(std::string(lua::kCountGuessLua)),
      quick_pair_script_(std::string(lua::kQuickPairLua)) {}

std::string RedisTableStore::Key(std::string_view suffix) const {
  return absl::StrCat(options_.prefix, "mm:", absl::string_view(suffix.data(), suffix.size()));
}
std::string RedisTableStore::TableKey(const std::string& table_id) const {
  return Key(absl::StrCat("{t:", table_id, "}:table"));
}
std::string RedisTableStore::EventsKey(const std::string& table_id) const {
  return Key(absl::StrCat("{t:", table_id, "}:events"));
}
std::string RedisTableStore::EventsChanged() const {
  return Key("table-events-changed");
}
std::vector<std::string> RedisTableStore::QueueKeys(const std::string& queue) const {
  std::vector<std::string> keys;
  for (const char* part : {"queue", "entries", "seats", "pending", "paired", "paired_at"}) {
    keys.push_back(Key(absl::StrCat("{qp:", queue, "}:", part)));
  }
  return keys;
}

absl::StatusOr<platform::RedisReply> RedisTableStore::Run(const std::vector<std::string>& command) {
  DRAUGHTS_ASSIGN_OR_RETURN(platform::RedisPool::Lease redis, pool_->Borrow());
  return redis->Command(command);
}

absl::StatusOr<platform::RedisReply> RedisTableStore::Eval(platform::RedisScript& script,
                                                           const std::vector<std::string>& keys,
                                                           const std::vector<std::string>& args) {
  DRAUGHTS_ASSIGN_OR_RETURN(platform::RedisPool::Lease redis, pool_->Borrow());
  return platform::EvalScript(*redis, script, keys, args);
}

absl::StatusOr<platform::RedisReply> RedisTableStore::PipelineEval(
    const std::vector<std::vector<std::string>>& before, platform::RedisScript& script,
    const std::vector<std::string>& keys, const std::vector<std::string>& args) {
  DRAUGHTS_ASSIGN_OR_RETURN(platform::RedisPool::Lease redis, pool_->Borrow());
  if (script.sha().empty()) DRAUGHTS_RETURN_IF_ERROR(platform::LoadScript(*redis, script));
  std::vector<std::vector<std::string>> commands = before;
  std::vector<std::string>& eval = commands.emplace_back();
  eval.reserve(3 + keys.size() + args.size());
  eval.push_back("EVALSHA");
  eval.push_back(script.sha());
  eval.push_back(absl::StrCat(keys.size()));
  eval.insert(eval.end(), keys.begin(), keys.end());
  eval.insert(eval.end(), args.begin(), args.end());
  DRAUGHTS_ASSIGN_OR_RETURN(std::vector<platform::RedisReply> replies, redis->Pipeline(commands));
  if (replies.size() != commands.size()) {
    return absl::InternalError("a pipeline answered the wrong count");
  }
  for (std::size_t i = 0; i + 1 < replies.size(); ++i) {
    DRAUGHTS_RETURN_IF_ERROR(replies[i].ToStatus());
  }
  platform::RedisReply& reply = replies.back();
  // The server lost its scripts (restart, failover): EvalScript loads the
  // script again; EVALSHA did not run it, so running it now is safe.
  if (reply.is_error() && absl::StartsWith(reply.text(), "NOSCRIPT")) {
    return platform::EvalScript(*redis, script, keys, args);
  }
  DRAUGHTS_RETURN_IF_ERROR(reply.ToStatus());
  return std::move(reply);
}

absl::StatusOr<StoredTable> RedisTableStore::Load(const std::string& table_id) {
  DRAUGHTS_ASSIGN_OR_RETURN(platform::RedisReply reply, Run(HmgetTable(TableKey(table_id))));
  DRAUGHTS_ASSIGN_OR_RETURN(std::vector<platform::RedisReply> values, reply.AsArray());
  if (values.size() != 7) return absl::InternalError("HMGET answered the wrong count");
  absl::StatusOr<StoredTable> stored = Parse(values);
  if (absl::IsNotFound(stored.status())) {
    return absl::NotFoundError(absl::StrCat("table \"", table_id, "\" not found"));
  }
  return stored;
}

absl::StatusOr<std::vector<std::optional<StoredTable>>> RedisTableStore::LoadMany(
    const std::vector<std::string>& table_ids) {
  std::vector<std::optional<StoredTable>> tables;
  if (table_ids.empty()) return tables;
  std::vector<std::vector<std::string>> commands;
  for (const std::string& id : table_ids) commands.push_back(HmgetTable(TableKey(id)));
  DRAUGHTS_ASSIGN_OR_RETURN(platform::RedisPool::Lease redis, pool_->Borrow());
  DRAUGHTS_ASSIGN_OR_RETURN(std::vector<platform::RedisReply> replies, redis->Pipeline(commands));
  for (const platform::RedisReply& reply : replies) {
    DRAUGHTS_RETURN_IF_ERROR(reply.ToStatus());
    DRAUGHTS_ASSIGN_OR_RETURN(std::vector<platform::RedisReply> values, reply.AsArray());
    absl::StatusOr<StoredTable> stored = Parse(values);
    if (stored.ok()) {
      tables.push_back(*std::move(stored));
    } else if (absl::IsNotFound(stored.status())) {
      tables.push_back(std::nullopt);
    } else {
      return stored.status();
    }
  }
  return tables;
}

absl::StatusOr<std::string> RedisTableStore::Commit(const std::string& table_id,
                                                    int64_t expected_version, TableWrite write,
                                                    absl::Time now) {
  v1::Table shown = write.table;
  shown.clear_invite_code();
  const bool closed = write.table.status() == v1::TABLE_STATUS_CLOSED;
  std::vector<std::string> args = {
      absl::StrCat(expected_version), write.table.SerializeAsString(),
      absl::StrCat(Seconds(closed ? options_.closed_retention : options_.table_retention)),
      absl::StrCat(options_.events_kept), absl::StrCat(write.events.size())};
  for (v1::TableEvent& event : write.events) {
    event.set_table_id(table_id);
    *event.mutable_timestamp() = platform::ToProtoTime(now);
    if (event.has_table()) {
      event.mutable_table()->clear_invite_code();
    } else {
      *event.mutable_table() = shown;
    }
    args.push_back(event.SerializeAsString());
  }
  for (auto& [field, value] : write.fields) {
    args.push_back(field);
    args.push_back(value);
  }
  args.push_back(EventsChanged());
  DRAUGHTS_ASSIGN_OR_RETURN(platform::RedisReply reply,
                            Eval(commit_script_, {TableKey(table_id), EventsKey(table_id)}, args));
  DRAUGHTS_ASSIGN_OR_RETURN(std::vector<platform::RedisReply> parts, reply.AsArray());
  if (parts.empty()) return absl::InternalError("commit script answered nothing");
  DRAUGHTS_ASSIGN_OR_RETURN(std::string outcome, parts[0].AsString());
  if (outcome == "ok" && parts.size() >= 2) return parts[1].AsString();
  if (outcome == "stale") return absl::AbortedError("the table changed meanwhile");
  if (outcome == "exists") return absl::AlreadyExistsError("the table exists");
  return absl::NotFoundError(absl::StrCat("table \"", table_id, "\" not found"));
}

absl::Status RedisTableStore::AddToLobby(const std::string& table_id, absl::Time created) {
  return Run({"ZADD", Key("lobby"), absl::StrCat(Ms(created)), table_id}).status();
}
absl::Status RedisTableStore::RemoveFromLobby(const std::string& table_id) {
  return Run({"ZREM", Key("lobby"), table_id}).status();
}

absl::Status RedisTableStore::ForgetClosedTable(const std::string& table_id,
                                                const std::string& creator_id) {
  DRAUGHTS_ASSIGN_OR_RETURN(platform::RedisPool::Lease redis, pool_->Borrow());
  DRAUGHTS_ASSIGN_OR_RETURN(
      std::vector<platform::RedisReply> replies,
      redis->Pipeline({{"ZREM", Key("lobby"), table_id},
                       {"ZREM", Key("rematch"), table_id},
                       {"ZREM", Key(absl::StrCat("creator:", creator_id)), table_id}}));
  for (const platform::RedisReply& reply : replies) DRAUGHTS_RETURN_IF_ERROR(reply.ToStatus());
  return absl::OkStatus();
}

absl::StatusOr<int64_t> RedisTableStore::LobbySize() {
  DRAUGHTS_ASSIGN_OR_RETURN(platform::RedisReply reply, Run({"ZCARD", Key("lobby")}));
  return reply.AsInteger();
}

absl::StatusOr<std::vector<std::pair<std::string, int64_t>>> RedisTableStore::LobbyPage(
    std::optional<std::pair<int64_t, std::string>> after, int count) {
  // Newest first; ties in ms are ordered by id descending, as ZREVRANGE does.
  const std::string max = after.has_value() ? absl::StrCat(after->first) : "+inf";
  DRAUGHTS_ASSIGN_OR_RETURN(
      platform::RedisReply reply,
      Run({"ZREVRANGEBYSCORE", Key("lobby"), max, "-inf", "WITHSCORES", "LIMIT", "0",
           absl::StrCat(count + (after.has_value() ? 64 : 0))}));
  DRAUGHTS_ASSIGN_OR_RETURN(std::vector<platform::RedisReply> items, reply.AsArray());
  std::vector<std::pair<std::string, int64_t>> page;
  for (std::size_t i = 0; i + 1 < items.size(); i += 2) {
    DRAUGHTS_ASSIGN_OR_RETURN(std::string id, items[i].AsString());
    DRAUGHTS_ASSIGN_OR_RETURN(std::string score, items[i + 1].AsString());
    int64_t ms = 0;
    if (!absl::SimpleAtoi(score, &ms)) return absl::InternalError("bad lobby score");
    if (after.has_value() && ms == after->first && id >= after->second) continue;
    page.emplace_back(std::move(id), ms);
    if (static_cast<int>(page.size()) == count) break;
  }
  return page;
}

absl::Status RedisTableStore::AddCreatorTable(const std::string& player_id,
                                              const std::string& table_id, absl::Time created) {
  const std::string key = Key(absl::StrCat("creator:", player_id));
  DRAUGHTS_ASSIGN_OR_RETURN(platform::RedisPool::Lease redis, pool_->Borrow());
  DRAUGHTS_ASSIGN_OR_RETURN(
      std::vector<platform::RedisReply> replies,
      redis->Pipeline({{"ZADD", key, absl::StrCat(Ms(created)), table_id},
                       {"EXPIRE", key, absl::StrCat(Seconds(options_.table_retention))}}));
  for (const platform::RedisReply& reply : replies) DRAUGHTS_RETURN_IF_ERROR(reply.ToStatus());
  return absl::OkStatus();
}
absl::StatusOr<std::vector<std::string>> RedisTableStore::CreatorTables(
    const std::string& player_id) {
  DRAUGHTS_ASSIGN_OR_RETURN(platform::RedisReply reply,
                            Run({"ZRANGE", Key(absl::StrCat("creator:", player_id)), "0", "99"}));
  DRAUGHTS_ASSIGN_OR_RETURN(std::vector<platform::RedisReply> items, reply.AsArray());
  std::vector<std::string> ids;
  for (const platform::RedisReply& item : items) {
    DRAUGHTS_ASSIGN_OR_RETURN(std::string id, item.AsString());
    ids.push_back(std::move(id));
  }
  return ids;
}
absl::Status RedisTableStore::ForgetCreatorTable(const std::string& player_id,
                                                 const std::string& table_id) {
  return Run({"ZREM", Key(absl::StrCat("creator:", player_id)), table_id}).status();
}

absl::StatusOr<bool> RedisTableStore::ReserveInviteCode(const std::string& code,
                                                        const std::string& table_id) {
  DRAUGHTS_ASSIGN_OR_RETURN(platform::RedisReply reply,
                            Run({"SET", Key(absl::StrCat("invite:", code)), table_id, "NX", "EX",
                                 absl::StrCat(Seconds(options_.table_retention * 7))}));
  return !reply.is_nil();
}

absl::StatusOr<std::string> RedisTableStore::ResolveInviteCode(const std::string& code) {
  DRAUGHTS_ASSIGN_OR_RETURN(platform::RedisReply reply,
                            Run({"GET", Key(absl::StrCat("invite:", code))}));
  DRAUGHTS_ASSIGN_OR_RETURN(std::optional<std::string> id, reply.AsOptionalString());
  if (!id.has_value()) return absl::NotFoundError("unknown invite code");
  return *id;
}

absl::StatusOr<KeyClaim> RedisTableStore::ClaimKey(const std::string& method,
                                                   const std::string& player_id,
                                                   const std::string& key,
                                                   const std::string& fingerprint,
                                                   const std::string& proposed_table_id) {
  DRAUGHTS_ASSIGN_OR_RETURN(
      platform::RedisReply reply,
      Eval(
          claim_key_script_, {Key(absl::StrCat("idem:", method, ":", player_id, ":", key))},
          {fingerprint, proposed_table_id, absl::StrCat(Seconds(options_.idempotency_retention))}));
  DRAUGHTS_ASSIGN_OR_RETURN(std::vector<platform::RedisReply> parts, reply.AsArray());
  if (parts.empty()) return absl::InternalError("claim_key answered nothing");
  DRAUGHTS_ASSIGN_OR_RETURN(std::string outcome, parts[0].AsString());
  if (outcome == "conflict") {
    return absl::InvalidArgumentError("idempotency_key was already used with a different request");
  }
  KeyClaim claim;
  if (parts.size() >= 2) {
    DRAUGHTS_ASSIGN_OR_RETURN(claim.table_id, parts[1].AsString());
  }
  if (outcome == "repeat") {
    claim.kind = KeyClaim::Kind::kRepeat;
    if (parts.size() >= 3) {
      DRAUGHTS_ASSIGN_OR_RETURN(std::string done, parts[2].AsString());
      claim.done = done == "1";
    }
  }
  return claim;
}

absl::Status RedisTableStore::MarkKeyDone(const std::string& method, const std::string& player_id,
                                          const std::string& key) {
  return Run({"HSET", Key(absl::StrCat("idem:", method, ":", player_id, ":", key)), "done", "1"})
      .status();
}

absl::StatusOr<bool> RedisTableStore::GuessesAllowed(const std::string& table_id,
                                                     const std::string& player_id, int per_table,
                                                     int per_player) {
  DRAUGHTS_ASSIGN_OR_RETURN(
      platform::RedisReply by_table,
      Eval(count_guess_script_, {Key(absl::StrCat("{t:", table_id, "}:guesses"))},
           {"check", absl::StrCat(per_table), "0"}));
  DRAUGHTS_ASSIGN_OR_RETURN(platform::RedisReply by_player,
                            Eval(count_guess_script_, {Key(absl::StrCat("guesses:", player_id))},
                                 {"check", absl::StrCat(per_player), "0"}));
  return by_table.integer() == 1 && by_player.integer() == 1;
}

absl::Status RedisTableStore::CountWrongGuess(const std::string& table_id,
                                              const std::string& player_id, absl::Duration window) {
  const std::string seconds = absl::StrCat(Seconds(window));
  DRAUGHTS_RETURN_IF_ERROR(Eval(count_guess_script_,
                                {Key(absl::StrCat("{t:", table_id, "}:guesses"))},
                                {"add", "0", seconds})
                               .status());
  return Eval(count_guess_script_, {Key(absl::StrCat("guesses:", player_id))},
              {"add", "0", seconds})
      .status();
}

absl::Status RedisTableStore::ScheduleRematchEnd(const std::string& table_id, absl::Time deadline) {
  return Run({"ZADD", Key("rematch"), absl::StrCat(Ms(deadline)), table_id}).status();
}
absl::Status RedisTableStore::UnscheduleRematchEnd(const std::string& table_id) {
  return Run({"ZREM", Key("rematch"), table_id}).status();
}
absl::StatusOr<std::vector<std::string>> RedisTableStore::ClaimDueRematchEnds(absl::Time now,
                                                                              absl::Duration lease,
                                                                              int count) {
  DRAUGHTS_ASSIGN_OR_RETURN(
      platform::RedisReply reply,
      Eval(claim_due_script_, {Key("rematch")},
           {absl::StrCat(Ms(now)), absl::StrCat(absl::ToInt64Milliseconds(lease)),
            absl::StrCat(count)}));
  DRAUGHTS_ASSIGN_OR_RETURN(std::vector<platform::RedisReply> items, reply.AsArray());
  std::vector<std::string> ids;
  for (const platform::RedisReply& item : items) {
    DRAUGHTS_ASSIGN_OR_RETURN(std::string id, item.AsString());
    ids.push_back(std::move(id));
  }
  return ids;
}

absl::StatusOr<RedisTableStore::JoinOutcome> RedisTableStore::JoinQueue(
    const std::string& queue, absl::Time now, const std::string& player_id, int rating,
    const std::string& ticket, const v1::Seat& seat, int base_window) {
  // The sweepers' list of queues is another slot: registered in the same
  // round trip, before the join.
  DRAUGHTS_ASSIGN_OR_RETURN(
      platform::RedisReply reply,
      PipelineEval({{"SADD", Key("queues"), queue}}, quick_pair_script_, QueueKeys(queue),
                   {"join", absl::StrCat(Ms(now)), player_id, absl::StrCat(rating), ticket,
                    seat.SerializeAsString(), absl::StrCat(base_window)}));
  DRAUGHTS_ASSIGN_OR_RETURN(std::vector<platform::RedisReply> parts, reply.AsArray());
  if (parts.size() < 2) return absl::InternalError("quick_pair join answered too little");
  JoinOutcome outcome;
  DRAUGHTS_ASSIGN_OR_RETURN(std::string kind, parts[0].AsString());
  DRAUGHTS_ASSIGN_OR_RETURN(outcome.table_id, parts[1].AsString());
  if (kind == "paired") {
    outcome.kind = JoinOutcome::Kind::kPaired;
    if (parts.size() >= 3) {
      DRAUGHTS_ASSIGN_OR_RETURN(outcome.pending, parts[2].AsString());
    }
  } else if (kind == "waiting") {
    outcome.kind = JoinOutcome::Kind::kWaiting;
  }
  return outcome;
}

absl::StatusOr<std::vector<std::string>> RedisTableStore::SweepQueue(const std::string& queue,
                                                                     absl::Time now,
                                                                     const SweepParams& params) {
  DRAUGHTS_ASSIGN_OR_RETURN(
      platform::RedisReply reply,
      Eval(
          quick_pair_script_, QueueKeys(queue),
          {"sweep", absl::StrCat(Ms(now)), absl::StrCat(params.base), absl::StrCat(params.widen_by),
           absl::StrCat(absl::ToInt64Milliseconds(params.widen_every)), absl::StrCat(params.max),
           absl::StrCat(absl::ToInt64Milliseconds(params.lease)),
           absl::StrCat(absl::ToInt64Milliseconds(params.forget_after))}));
  DRAUGHTS_ASSIGN_OR_RETURN(std::vector<platform::RedisReply> items, reply.AsArray());
  std::vector<std::string> members;
  for (const platform::RedisReply& item : items) {
    DRAUGHTS_ASSIGN_OR_RETURN(std::string member, item.AsString());
    members.push_back(std::move(member));
  }
  return members;
}

absl::StatusOr<bool> RedisTableStore::LeaveQueue(const std::string& queue,
                                                 const std::string& player_id,
                                                 const std::string& ticket) {
  DRAUGHTS_ASSIGN_OR_RETURN(platform::RedisReply reply, Eval(quick_pair_script_, QueueKeys(queue),
                                                             {"leave", player_id, ticket}));
  return reply.integer() == 1;
}

absl::StatusOr<v1::Seat> RedisTableStore::TicketSeat(const std::string& queue,
                                                     const std::string& ticket) {
  DRAUGHTS_ASSIGN_OR_RETURN(platform::RedisReply reply, Run({"HGET", QueueKeys(queue)[2], ticket}));
  DRAUGHTS_ASSIGN_OR_RETURN(std::optional<std::string> blob, reply.AsOptionalString());
  v1::Seat seat;
  if (!blob.has_value()) return absl::NotFoundError("the ticket's pair is done");
  if (!seat.ParseFromString(*blob)) return absl::InternalError("a queued seat does not parse");
  return seat;
}

absl::Status RedisTableStore::FinishPair(const std::string& queue, const std::string& pending,
                                         const std::vector<std::string>& tickets) {
  const std::vector<std::string> keys = QueueKeys(queue);
  std::vector<std::vector<std::string>> commands = {{"ZREM", keys[3], pending}};
  std::vector<std::string> hdel = {"HDEL", keys[2]};
  hdel.insert(hdel.end(), tickets.begin(), tickets.end());
  commands.push_back(hdel);
  DRAUGHTS_ASSIGN_OR_RETURN(platform::RedisPool::Lease redis, pool_->Borrow());
  DRAUGHTS_ASSIGN_OR_RETURN(std::vector<platform::RedisReply> replies, redis->Pipeline(commands));
  for (const platform::RedisReply& reply : replies) DRAUGHTS_RETURN_IF_ERROR(reply.ToStatus());
  return absl::OkStatus();
}

absl::StatusOr<std::vector<std::string>> RedisTableStore::Queues() {
  DRAUGHTS_ASSIGN_OR_RETURN(platform::RedisReply reply, Run({"SMEMBERS", Key("queues")}));
  DRAUGHTS_ASSIGN_OR_RETURN(std::vector<platform::RedisReply> items, reply.AsArray());
  std::vector<std::string> queues;
  for (const platform::RedisReply& item : items) {
    DRAUGHTS_ASSIGN_OR_RETURN(std::string queue, item.AsString());
    queues.push_back(std::move(queue));
  }
  return queues;
}

absl::StatusOr<int64_t> RedisTableStore::QueueSize(const std::string& queue) {
  DRAUGHTS_ASSIGN_OR_RETURN(platform::RedisReply reply, Run({"ZCARD", QueueKeys(queue)[0]}));
  return reply.AsInteger();
}

}  // namespace draughts::matchmaking
