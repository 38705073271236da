#include "clock/redis_clock_store.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <utility>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "clock/lua_scripts.h"
#include "platform/absl_compat.h"
#include "platform/redis_script.h"
#include "platform/status_macros.h"

namespace draughts::clock {
namespace {

using platform::RedisReply;

platform::RedisScript& ArmScript() {
  static platform::RedisScript script{std::string(lua::kArmLua)};
  return script;
}
platform::RedisScript& CancelScript() {
  static platform::RedisScript script{std::string(lua::kCancelLua)};
  return script;
}
platform::RedisScript& BeatScript() {
  static platform::RedisScript script{std::string(lua::kBeatLua)};
  return script;
}
platform::RedisScript& ClaimScript() {
  static platform::RedisScript script{std::string(lua::kClaimLua)};
  return script;
}
platform::RedisScript& FinishMoveScript() {
  static platform::RedisScript script{std::string(lua::kFinishMoveLua)};
  return script;
}
platform::RedisScript& SavePresenceScript() {
  static platform::RedisScript script{std::string(lua::kSavePresenceLua)};
  return script;
}

std::string Ms(absl::Time t) {
  return absl::StrCat(absl::ToUnixMillis(t));
}
// Deadlines round up: a timer never falls due before its instant.
std::string CeilMs(absl::Time t) {
  const int64_t ms = absl::ToUnixMillis(t);
  return absl::StrCat(absl::FromUnixMillis(ms) < t ? ms + 1 : ms);
}
std::string Ms(absl::Duration d) {
  return absl::StrCat(std::max<int64_t>(1, absl::ToInt64Milliseconds(d)));
}
// The digit a seat is stored under (v1::Color's number: 1 white, 2 black).
std::string ColorDigit(v1::Color color) {
  return absl::StrCat(static_cast<int>(color));
}

std::optional<int64_t> ParseInt(const std::string& text) {
  int64_t value = 0;
  if (!absl::SimpleAtoi(platform::ToAbsl(text), &value)) return std::nullopt;
  return value;
}

// HGETALL as a field -> value list.
absl::StatusOr<std::vector<std::pair<std::string, std::string>>> Pairs(const RedisReply& reply) {
  DRAUGHTS_ASSIGN_OR_RETURN(std::vector<RedisReply> items, reply.AsArray());
  std::vector<std::pair<std::string, std::string>> pairs;
  for (std::size_t i = 0; i + 1 < items.size(); i += 2) {
    DRAUGHTS_ASSIGN_OR_RETURN(std::string field, items[i].AsString());
    DRAUGHTS_ASSIGN_OR_RETURN(std::string value, items[i + 1].AsString());
    pairs.emplace_back(std::move(field), std::move(value));
  }
  return pairs;
}

absl::Time FromMs(int64_t ms) {
  return absl::FromUnixMillis(ms);
}

absl::StatusOr<GameClock> ParseGame(const std::string& game_id,
                                    const std::vector<std::pair<std::string, std::string>>& fields,
                                    const std::vector<std::pair<std::string, std::string>>& conns) {
  GameClock game;
  game.game_id = game_id;
  std::string humans;
  auto find = [&](const std::string& name) -> const std::string* {
    for (const auto& [field, value] : fields) {
      if (field == name) return &value;
    }
    return nullptr;
  };
  auto number = [&](const std::string& name) -> std::optional<int64_t> {
    const std::string* text = find(name);
    return text == nullptr ? std::nullopt : ParseInt(*text);
  };
  game.game_version = number("v").value_or(0);
  game.expected_ply = static_cast<int32_t>(number("ply").value_or(0));
  game.color = static_cast<v1::Color>(number("color").value_or(0));
  if (std::optional<int64_t> deadline = number("dl")) game.deadline = FromMs(*deadline);
  if (const std::string* text = find("humans")) humans = *text;
  for (char digit : humans) {
    const std::string c(1, digit);
    SeatPresenceState seat;
    seat.color = static_cast<v1::Color>(digit - '0');
    if (const std::string* reported = find("r" + c)) seat.reported = *reported == "1";
    if (std::optional<int64_t> away = number("a" + c)) seat.away_since = FromMs(*away);
    seat.abandoned = find("x" + c) != nullptr;
    if (std::optional<int64_t> seen = number("s" + c)) seat.last_seen = FromMs(*seen);
    game.seats.push_back(seat);
  }
  for (const auto& [field, value] : conns) {
    const std::size_t bar = field.find('|');
    std::optional<int64_t> beat = ParseInt(value);
    if (bar == std::string::npos || !beat.has_value()) continue;
    std::optional<int64_t> color = ParseInt(field.substr(0, bar));
    if (!color.has_value()) continue;
    game.connections.push_back(
        {static_cast<v1::Color>(*color), field.substr(bar + 1), FromMs(*beat)});
  }
  return game;
}

}  // namespace

RedisClockStore::RedisClockStore(platform::RedisPool* pool, RedisClockStoreOptions options)
    : pool_(pool), options_(std::move(options)) {
  options_.shards = std::max(1, options_.shards);
}

int RedisClockStore::ShardOf(const std::string& game_id) const {
  // FNV-1a: stable across processes and builds (std::hash is not).
  uint32_t hash = 2166136261u;
  for (unsigned char c : game_id) {
    hash ^= c;
    hash *= 16777619u;
  }
  return static_cast<int>(hash % static_cast<uint32_t>(options_.shards));
}

std::string RedisClockStore::TimersKey(int shard) const {
  return absl::StrCat(options_.key_prefix, "clock:{", shard, "}:timers");
}

std::string RedisClockStore::TimersKeyOf(const std::string& game_id) const {
  return TimersKey(ShardOf(game_id));
}

std::string RedisClockStore::GameKey(const std::string& game_id) const {
  return absl::StrCat(options_.key_prefix, "clock:{", ShardOf(game_id), "}:game:", game_id);
}

std::string RedisClockStore::ConnectionsKey(const std::string& game_id) const {
  return absl::StrCat(options_.key_prefix, "clock:{", ShardOf(game_id), "}:conn:", game_id);
}

absl::Status RedisClockStore::Preload() {
  DRAUGHTS_ASSIGN_OR_RETURN(platform::RedisPool::Lease redis, pool_->Borrow());
  for (platform::RedisScript* script :
       {&ArmScript(), &CancelScript(), &BeatScript(), &ClaimScript(), &FinishMoveScript(),
        &SavePresenceScript()}) {
    DRAUGHTS_RETURN_IF_ERROR(platform::LoadScript(*redis, *script));
  }
  return absl::OkStatus();
}

platform::ScriptCall RedisClockStore::ArmCall(const ArmCommand& command, absl::Time now) const {
  std::string humans;
  for (v1::Color color : command.human_seats) {
    const std::string digit = ColorDigit(color);
    if (humans.find(digit) == std::string::npos) humans += digit;
  }
  return {&ArmScript(),
          {GameKey(command.game_id), TimersKeyOf(command.game_id)},
          {command.game_id, absl::StrCat(command.game_version), absl::StrCat(command.expected_ply),
           ColorDigit(command.color), command.deadline.has_value() ? CeilMs(*command.deadline) : "",
           humans, Ms(now), Ms(options_.abandon_after), Ms(options_.game_ttl)}};
}

platform::ScriptCall RedisClockStore::CancelCall(const std::string& game_id,
                                                 std::optional<int64_t> game_version) const {
  return {&CancelScript(),
          {GameKey(game_id), ConnectionsKey(game_id), TimersKeyOf(game_id)},
          {game_id, game_version.has_value() ? absl::StrCat(*game_version) : "",
           Ms(options_.tombstone_ttl)}};
}

absl::StatusOr<ArmOutcome> RedisClockStore::Arm(const ArmCommand& command, absl::Time now) {
  const platform::ScriptCall call = ArmCall(command, now);
  DRAUGHTS_ASSIGN_OR_RETURN(platform::RedisPool::Lease redis, pool_->Borrow());
  DRAUGHTS_ASSIGN_OR_RETURN(RedisReply reply,
                            platform::EvalScript(*redis, *call.script, call.keys, call.args));
  DRAUGHTS_ASSIGN_OR_RETURN(int64_t armed, reply.AsInteger());
  return armed == 1 ? ArmOutcome::kArmed : ArmOutcome::kRepeated;
}

absl::Status RedisClockStore::Cancel(const std::string& game_id,
                                     std::optional<int64_t> game_version) {
  const platform::ScriptCall call = CancelCall(game_id, game_version);
  DRAUGHTS_ASSIGN_OR_RETURN(platform::RedisPool::Lease redis, pool_->Borrow());
  return platform::EvalScript(*redis, *call.script, call.keys, call.args).status();
}

absl::StatusOr<std::vector<absl::StatusOr<ChangeOutcome>>> RedisClockStore::ApplyChanges(
    const std::vector<DeadlineChange>& changes, absl::Time now) {
  std::vector<platform::ScriptCall> calls;
  calls.reserve(changes.size());
  for (const DeadlineChange& change : changes) {
    calls.push_back(change.arm.has_value() ? ArmCall(*change.arm, now)
                                           : CancelCall(change.game_id, change.game_version));
  }
  DRAUGHTS_ASSIGN_OR_RETURN(platform::RedisPool::Lease redis, pool_->Borrow());
  DRAUGHTS_ASSIGN_OR_RETURN(std::vector<RedisReply> replies,
                            platform::PipelineScripts(*redis, calls));
  std::vector<absl::StatusOr<ChangeOutcome>> outcomes;
  outcomes.reserve(changes.size());
  for (std::size_t i = 0; i < changes.size(); ++i) {
    const absl::Status status = replies[i].ToStatus();
    if (status.code() == absl::StatusCode::kAborted && changes[i].arm.has_value()) {
      outcomes.push_back(ChangeOutcome::kStale);
    } else if (!status.ok()) {
      outcomes.push_back(status);
    } else if (!changes[i].arm.has_value()) {
      outcomes.push_back(ChangeOutcome::kCancelled);
    } else {
      absl::StatusOr<int64_t> armed = replies[i].AsInteger();
      if (!armed.ok()) {
        outcomes.push_back(armed.status());
      } else {
        outcomes.push_back(*armed == 1 ? ChangeOutcome::kArmed : ChangeOutcome::kRepeated);
      }
    }
  }
  return outcomes;
}

absl::StatusOr<std::optional<GameClock>> RedisClockStore::Load(const std::string& game_id) {
  DRAUGHTS_ASSIGN_OR_RETURN(platform::RedisPool::Lease redis, pool_->Borrow());
  DRAUGHTS_ASSIGN_OR_RETURN(
      std::vector<RedisReply> replies,
      redis->Pipeline({{"HGETALL", GameKey(game_id)}, {"HGETALL", ConnectionsKey(game_id)}}));
  for (const RedisReply& reply : replies) DRAUGHTS_RETURN_IF_ERROR(reply.ToStatus());
  DRAUGHTS_ASSIGN_OR_RETURN(auto fields, Pairs(replies[0]));
  DRAUGHTS_ASSIGN_OR_RETURN(auto conns, Pairs(replies[1]));
  const bool over = std::any_of(fields.begin(), fields.end(),
                                [](const auto& field) { return field.first == "over"; });
  if (fields.empty() || over) return std::nullopt;
  DRAUGHTS_ASSIGN_OR_RETURN(GameClock game, ParseGame(game_id, fields, conns));
  return game;
}

absl::StatusOr<bool> RedisClockStore::Beat(const BeatCommand& command) {
  DRAUGHTS_ASSIGN_OR_RETURN(platform::RedisPool::Lease redis, pool_->Borrow());
  DRAUGHTS_ASSIGN_OR_RETURN(
      RedisReply reply,
      platform::EvalScript(
          *redis, BeatScript(),
          {GameKey(command.game_id), ConnectionsKey(command.game_id), TimersKeyOf(command.game_id)},
          {command.game_id, ColorDigit(command.color), command.connection_id,
           command.closing ? "1" : "0", Ms(command.now), Ms(command.live_window),
           Ms(options_.game_ttl)}));
  DRAUGHTS_ASSIGN_OR_RETURN(int64_t connected, reply.AsInteger());
  return connected == 1;
}

absl::StatusOr<std::vector<DueTimer>> RedisClockStore::ClaimDue(absl::Time now,
                                                                absl::Time lease_until, int limit) {
  std::vector<DueTimer> claimed;
  if (limit <= 0) return claimed;
  DRAUGHTS_ASSIGN_OR_RETURN(platform::RedisPool::Lease redis, pool_->Borrow());
  const int first = next_shard_.fetch_add(1) % options_.shards;
  for (int i = 0; i < options_.shards && static_cast<int>(claimed.size()) < limit; ++i) {
    const int shard = (first + i) % options_.shards;
    DRAUGHTS_ASSIGN_OR_RETURN(
        RedisReply reply,
        platform::EvalScript(
            *redis, ClaimScript(), {TimersKey(shard)},
            {Ms(now), Ms(lease_until), absl::StrCat(limit - static_cast<int>(claimed.size()))}));
    DRAUGHTS_ASSIGN_OR_RETURN(std::vector<RedisReply> items, reply.AsArray());
    for (std::size_t j = 0; j + 1 < items.size(); j += 2) {
      DRAUGHTS_ASSIGN_OR_RETURN(std::string member, items[j].AsString());
      DRAUGHTS_ASSIGN_OR_RETURN(std::string score, items[j + 1].AsString());
      double due_ms = 0;
      if (member.size() < 3 || member[1] != ':' || !absl::SimpleAtod(score, &due_ms)) continue;
      DueTimer timer;
      timer.kind = member[0] == 'm' ? DueTimer::Kind::kMove : DueTimer::Kind::kPresence;
      timer.game_id = member.substr(2);
      timer.due = FromMs(static_cast<int64_t>(due_ms));
      timer.lease_until = FromMs(absl::ToUnixMillis(lease_until));
      claimed.push_back(std::move(timer));
    }
  }
  // What a move timer was armed for, in one round trip for the batch.
  std::vector<std::vector<std::string>> reads;
  std::vector<DueTimer*> moves;
  for (DueTimer& timer : claimed) {
    if (timer.kind != DueTimer::Kind::kMove) continue;
    reads.push_back({"HMGET", GameKey(timer.game_id), "v", "ply", "color"});
    moves.push_back(&timer);
  }
  if (reads.empty()) return claimed;
  DRAUGHTS_ASSIGN_OR_RETURN(std::vector<RedisReply> replies, redis->Pipeline(reads));
  for (std::size_t i = 0; i < replies.size(); ++i) {
    DRAUGHTS_ASSIGN_OR_RETURN(std::vector<RedisReply> values, replies[i].AsArray());
    // Forgotten meanwhile, or the game's record lost what a move timer is
    // armed for (a tombstone, fields gone): nothing to fire, and no reason
    // to fail the claims of every other game with it.
    if (values.size() != 3 || values[0].is_nil() || values[1].is_nil() || values[2].is_nil()) {
      continue;
    }
    DRAUGHTS_ASSIGN_OR_RETURN(moves[i]->game_version, values[0].AsInteger());
    DRAUGHTS_ASSIGN_OR_RETURN(int64_t ply, values[1].AsInteger());
    DRAUGHTS_ASSIGN_OR_RETURN(int64_t color, values[2].AsInteger());
    moves[i]->expected_ply = static_cast<int32_t>(ply);
    moves[i]->color = static_cast<v1::Color>(color);
  }
  return claimed;
}

absl::Status RedisClockStore::FinishMove(const DueTimer& timer,
                                         std::optional<absl::Time> retry_at) {
  DRAUGHTS_ASSIGN_OR_RETURN(platform::RedisPool::Lease redis, pool_->Borrow());
  return platform::EvalScript(
             *redis, FinishMoveScript(), {GameKey(timer.game_id), TimersKeyOf(timer.game_id)},
             {timer.game_id, Ms(timer.lease_until), absl::StrCat(timer.game_version),
              retry_at.has_value() ? Ms(*retry_at) : ""})
      .status();
}

absl::Status RedisClockStore::SavePresence(const DueTimer& timer, const PresenceUpdate& update) {
  std::string observed;
  std::vector<std::string> args = {timer.game_id, Ms(timer.lease_until),
                                   update.next_check.has_value() ? Ms(*update.next_check) : "",
                                   Ms(update.now), Ms(update.live_window)};
  std::vector<std::string> fields;
  for (std::size_t i = 0; i < update.seats.size(); ++i) {
    const SeatPresenceState& seat = update.seats[i];
    const std::string c = ColorDigit(seat.color);
    const bool seen = i < update.observed_connected.size() && update.observed_connected[i];
    observed += c + (seen ? "1" : "0");
    fields.insert(fields.end(),
                  {"r" + c, seat.reported.has_value() ? (*seat.reported ? "1" : "0") : "", "a" + c,
                   seat.away_since == absl::InfinitePast() ? "" : Ms(seat.away_since), "x" + c,
                   seat.abandoned ? "1" : ""});
  }
  args.push_back(observed);
  args.insert(args.end(), fields.begin(), fields.end());
  DRAUGHTS_ASSIGN_OR_RETURN(platform::RedisPool::Lease redis, pool_->Borrow());
  return platform::EvalScript(
             *redis, SavePresenceScript(),
             {GameKey(timer.game_id), ConnectionsKey(timer.game_id), TimersKeyOf(timer.game_id)},
             args)
      .status();
}

absl::Status RedisClockStore::Forget(const std::string& game_id) {
  DRAUGHTS_ASSIGN_OR_RETURN(platform::RedisPool::Lease redis, pool_->Borrow());
  DRAUGHTS_ASSIGN_OR_RETURN(
      std::vector<RedisReply> replies,
      redis->Pipeline({{"DEL", GameKey(game_id), ConnectionsKey(game_id)},
                       {"ZREM", TimersKeyOf(game_id), "m:" + game_id, "p:" + game_id}}));
  for (const RedisReply& reply : replies) DRAUGHTS_RETURN_IF_ERROR(reply.ToStatus());
  return absl::OkStatus();
}

}  // namespace draughts::clock
