#include "game_state/redis_game_store.h"

#include <algorithm>
#include <limits>
#include <memory>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "game_state/game_change.h"
#include "game_state/lua_scripts.h"
#include "game_state/proto_convert.h"
#include "platform/proto_time.h"
#include "platform/status_macros.h"

namespace draughts::game_state {
namespace {

using platform::RedisReply;

// Entries read per index round trip beyond what the page needs, to step
// over entries that tie with the cursor.
constexpr int kListSlack = 16;
constexpr int kMaxListRounds = 32;

int64_t Seconds(absl::Duration d) {
  return std::max<int64_t>(1, absl::ToInt64Seconds(d));
}

int64_t ActivityMs(const v1::GameState& state) {
  return absl::ToUnixMillis(platform::FromProtoTime(state.updated_at()));
}

// See Commit: how often a game's index entries and expiry times follow its
// activity.
constexpr absl::Duration kRefreshPeriod = absl::Seconds(10);

int64_t RefreshPeriod(absl::Time t) {
  if (t == absl::InfinitePast()) return std::numeric_limits<int64_t>::min();
  return absl::ToUnixMillis(t) / absl::ToInt64Milliseconds(kRefreshPeriod);
}

int64_t RefreshPeriod(const google::protobuf::Timestamp& t) {
  return RefreshPeriod(platform::FromProtoTime(t));
}

// HMGET v data last -> the stored game, or nullopt when the key is absent.
absl::StatusOr<std::optional<StoredGame>> ParseState(const std::string& game_id,
                                                     const RedisReply& reply) {
  DRAUGHTS_ASSIGN_OR_RETURN(std::vector<RedisReply> fields, reply.AsArray());
  if (fields.size() != 3 || fields[0].is_nil() || fields[1].is_nil()) return std::nullopt;
  DRAUGHTS_ASSIGN_OR_RETURN(int64_t version, fields[0].AsInteger());
  DRAUGHTS_ASSIGN_OR_RETURN(std::string data, fields[1].AsString());
  StoredGame game;
  if (!game.ParseFromString(data)) {
    return absl::InternalError(absl::StrCat("stored game ", game_id, " does not parse"));
  }
  game.mutable_state()->set_version(version);
  if (!fields[2].is_nil()) {
    DRAUGHTS_ASSIGN_OR_RETURN(std::string last, fields[2].AsString());
    game.mutable_state()->set_last_event_id(std::move(last));
  }
  return game;
}

// The state as stored. The version and last event id inside the blob are
// ignored on load (their fields beside it are the truth), so the record is
// serialized as it is rather than copied to clear them.
std::string StateBlob(const StoredGame& game) {
  return game.SerializeAsString();
}

void AddOutboxArgs(const std::vector<OutboxMessage>& outbox, std::vector<std::string>& command) {
  command.push_back(absl::StrCat(outbox.size()));
  for (const OutboxMessage& message : outbox) {
    command.push_back(std::string(OutboxKindName(message.kind)));
    command.push_back(message.data);
  }
}

std::vector<std::string> ScriptCommand(const platform::RedisScript& script,
                                       std::vector<std::string> keys,
                                       std::vector<std::string> args) {
  std::vector<std::string> command = {"EVALSHA", script.sha(), absl::StrCat(keys.size())};
  for (std::string& key : keys) command.push_back(std::move(key));
  for (std::string& arg : args) command.push_back(std::move(arg));
  return command;
}

}  // namespace

RedisGameStore::RedisGameStore(platform::RedisPool* pool, RedisKeys keys, OutboxRelay* relay,
                               RedisGameStoreOptions options)
    : pool_(pool),
      keys_(std::move(keys)),
      relay_(relay),
      options_(options),
      create_script_(std::string(lua::kCreateGameLua)),
      commit_script_(std::string(lua::kCommitChangeLua)) {}

absl::Status RedisGameStore::Preload() {
  DRAUGHTS_ASSIGN_OR_RETURN(platform::RedisPool::Lease redis, pool_->Borrow());
  DRAUGHTS_RETURN_IF_ERROR(platform::LoadScript(*redis, create_script_));
  return platform::LoadScript(*redis, commit_script_);
}

absl::StatusOr<std::vector<RedisReply>> RedisGameStore::PipelineWithScript(
    platform::RedisClient& redis, platform::RedisScript& script,
    std::vector<std::vector<std::string>> commands, std::size_t script_index) {
  for (int attempt = 0;; ++attempt) {
    if (script.sha().empty()) DRAUGHTS_RETURN_IF_ERROR(platform::LoadScript(redis, script));
    commands[script_index][1] = script.sha();
    DRAUGHTS_ASSIGN_OR_RETURN(std::vector<RedisReply> replies, redis.Pipeline(commands));
    const RedisReply& reply = replies[script_index];
    // NOSCRIPT: the server restarted or flushed its scripts. EVALSHA did not
    // run, so loading and sending again is safe.
    if (reply.is_error() && absl::StartsWith(reply.text(), "NOSCRIPT") && attempt == 0) {
      DRAUGHTS_RETURN_IF_ERROR(platform::LoadScript(redis, script));
      continue;
    }
    DRAUGHTS_RETURN_IF_ERROR(reply.ToStatus());
    return replies;
  }
}

std::vector<std::vector<std::string>> RedisGameStore::IndexCommands(const v1::GameState& state,
                                                                    bool created) {
  const std::string ms = absl::StrCat(ActivityMs(state));
  const std::string& id = state.game_id();
  std::vector<std::vector<std::string>> commands;
  // XX after creation: a late update from a request that lost its race
  // must not bring back a game that was removed from an index.
  auto add = [&](std::string key) {
    if (created) {
      commands.push_back({"ZADD", std::move(key), ms, id});
    } else {
      commands.push_back({"ZADD", std::move(key), "XX", ms, id});
    }
  };
  add(keys_.AllGames());
  if (!IsOver(state)) add(keys_.LiveGames());
  for (const v1::PlayerState* player : {&state.white(), &state.black()}) {
    if (!player->seat().player_id().empty()) add(keys_.PlayerGames(player->seat().player_id()));
  }
  if (created) {
    // Entries of games that have expired since: trimmed by age.
    const int64_t oldest =
        ActivityMs(state) -
        absl::ToInt64Milliseconds(std::max(options_.idle_retention, options_.finished_retention));
    commands.push_back({"ZREMRANGEBYSCORE", keys_.AllGames(), "-inf", absl::StrCat("(", oldest)});
    commands.push_back({"ZREMRANGEBYSCORE", keys_.LiveGames(), "-inf", absl::StrCat("(", oldest)});
  }
  return commands;
}

absl::StatusOr<StoredGame> RedisGameStore::Load(const std::string& game_id) {
  DRAUGHTS_ASSIGN_OR_RETURN(platform::RedisPool::Lease redis, pool_->Borrow());
  DRAUGHTS_ASSIGN_OR_RETURN(RedisReply reply,
                            redis->Command({"HMGET", keys_.State(game_id), "v", "data", "last"}));
  DRAUGHTS_ASSIGN_OR_RETURN(std::optional<StoredGame> game, ParseState(game_id, reply));
  if (!game.has_value()) {
    return absl::NotFoundError(absl::StrCat("no game \"", game_id, "\" (unknown or expired)"));
  }
  return *std::move(game);
}

absl::StatusOr<std::vector<std::optional<StoredGame>>> RedisGameStore::LoadMany(
    const std::vector<std::string>& game_ids) {
  std::vector<std::optional<StoredGame>> games;
  if (game_ids.empty()) return games;
  std::vector<std::vector<std::string>> commands;
  for (const std::string& id : game_ids)
    commands.push_back({"HMGET", keys_.State(id), "v", "data", "last"});
  DRAUGHTS_ASSIGN_OR_RETURN(platform::RedisPool::Lease redis, pool_->Borrow());
  DRAUGHTS_ASSIGN_OR_RETURN(std::vector<RedisReply> replies, redis->Pipeline(commands));
  for (std::size_t i = 0; i < replies.size(); ++i) {
    DRAUGHTS_RETURN_IF_ERROR(replies[i].ToStatus());
    DRAUGHTS_ASSIGN_OR_RETURN(std::optional<StoredGame> game, ParseState(game_ids[i], replies[i]));
    games.push_back(std::move(game));
  }
  return games;
}

absl::StatusOr<CreateResult> RedisGameStore::Create(const std::string& game_id,
                                                    const NewGame& game) {
  const int64_t mark = absl::ToUnixMicros(absl::Now());
  std::vector<std::vector<std::string>> commands;
  if (!game.outbox.empty()) commands.push_back(relay_->MarkCommand(game_id, mark));
  std::vector<std::string> args = {absl::StrCat(game.game.state().version()), StateBlob(game.game),
                                   game.created.SerializeAsString(),
                                   absl::StrCat(Seconds(options_.idle_retention))};
  AddOutboxArgs(game.outbox, args);
  const std::size_t script_index = commands.size();
  commands.push_back(ScriptCommand(
      create_script_, {keys_.State(game_id), keys_.Events(game_id), keys_.Outbox(game_id)},
      std::move(args)));
  for (auto& command : IndexCommands(game.game.state(), /*created=*/true)) {
    commands.push_back(std::move(command));
  }

  std::vector<RedisReply> replies;
  {
    // Returned at once: the store never holds two connections.
    DRAUGHTS_ASSIGN_OR_RETURN(platform::RedisPool::Lease redis, pool_->Borrow());
    DRAUGHTS_ASSIGN_OR_RETURN(
        replies, PipelineWithScript(*redis, create_script_, std::move(commands), script_index));
  }
  DRAUGHTS_ASSIGN_OR_RETURN(std::vector<RedisReply> reply, replies[script_index].AsArray());
  if (reply.empty()) return absl::InternalError("create_game.lua: empty reply");
  DRAUGHTS_ASSIGN_OR_RETURN(std::string outcome, reply[0].AsString());
  CreateResult result;
  if (outcome == "exists") {
    std::vector<RedisReply> fields(reply.begin() + 1, reply.end());
    DRAUGHTS_ASSIGN_OR_RETURN(std::optional<StoredGame> existing,
                              ParseState(game_id, RedisReply::Array(std::move(fields))));
    if (!existing.has_value()) return absl::InternalError("create_game.lua: incomplete game");
    result.game = *std::move(existing);
    return result;
  }
  if (outcome != "created" || reply.size() != 3 + game.outbox.size()) {
    return absl::InternalError(absl::StrCat("create_game.lua: unexpected reply ", outcome));
  }
  result.created = true;
  result.game = game.game;
  DRAUGHTS_ASSIGN_OR_RETURN(std::string event_id, reply[1].AsString());
  result.game.mutable_state()->set_last_event_id(event_id);
  if (!game.outbox.empty()) {
    std::vector<std::string> outbox_ids;
    for (std::size_t i = 0; i < game.outbox.size(); ++i) {
      DRAUGHTS_ASSIGN_OR_RETURN(std::string id, reply[2 + i].AsString());
      outbox_ids.push_back(std::move(id));
    }
    DRAUGHTS_ASSIGN_OR_RETURN(int64_t length, reply.back().AsInteger());
    relay_->ForwardCommitted(game_id, outbox_ids, game.outbox, length, mark);
  }
  return result;
}

RedisGameStore::PreparedCommit RedisGameStore::PrepareCommit(const std::string& game_id,
                                                             const Change& change) {
  const v1::GameState& state = change.game.state();
  PreparedCommit prepared;
  prepared.finished = IsOver(state);
  // Index scores and expiry times move on only when the activity enters a
  // new refresh period: a game played fast costs no index or EXPIRE writes
  // per move, and both lag the truth by less than one period.
  const bool refresh = prepared.finished ||
                       RefreshPeriod(change.previous_activity) != RefreshPeriod(state.updated_at());
  const bool relayed = !change.outbox.empty() && !options_.direct_messages;
  if (relayed) {
    prepared.mark = absl::ToUnixMicros(absl::Now());
    prepared.commands.push_back(relay_->MarkCommand(game_id, prepared.mark));
  }
  const int64_t keep_seconds =
      !refresh ? 0
               : Seconds(prepared.finished ? options_.finished_retention : options_.idle_retention);
  std::vector<std::string> args = {absl::StrCat(change.expected_version),
                                   absl::StrCat(state.version()), StateBlob(change.game),
                                   absl::StrCat(keep_seconds), absl::StrCat(change.events.size())};
  for (const v1::GameEvent& event : change.events) args.push_back(event.SerializeAsString());
  AddOutboxArgs(change.outbox, args);
  std::vector<std::string> keys = {keys_.State(game_id), keys_.Events(game_id),
                                   keys_.Outbox(game_id)};
  if (options_.direct_messages) {
    // commit_change.lua: the global streams, then their length and the game id.
    keys.insert(keys.end(),
                {keys_.BotJobs(), keys_.Results(), keys_.Deadlines(), keys_.ChatNotices()});
    args.push_back(absl::StrCat(options_.stream_max_length));
    args.push_back(game_id);
  }
  args.push_back(keys_.EventsChanged());
  prepared.script_index = prepared.commands.size();
  prepared.commands.push_back(ScriptCommand(commit_script_, std::move(keys), std::move(args)));
  if (refresh) {
    for (auto& command : IndexCommands(state, /*created=*/false))
      prepared.commands.push_back(std::move(command));
  }
  return prepared;
}

absl::StatusOr<std::vector<std::string>> RedisGameStore::FinishCommit(
    const std::string& game_id, const Change& change, const PreparedCommit& prepared,
    const RedisReply& script_reply, std::optional<StoredGame>* current) {
  DRAUGHTS_ASSIGN_OR_RETURN(std::vector<RedisReply> reply, script_reply.AsArray());
  if (reply.empty()) return absl::InternalError("commit_change.lua: empty reply");
  DRAUGHTS_ASSIGN_OR_RETURN(std::string outcome, reply[0].AsString());
  if (outcome == "stale") {
    if (current != nullptr && reply.size() == 4) {
      std::vector<RedisReply> fields(reply.begin() + 1, reply.end());
      absl::StatusOr<std::optional<StoredGame>> now =
          ParseState(game_id, RedisReply::Array(std::move(fields)));
      if (now.ok()) *current = *std::move(now);
    }
    return absl::AbortedError(
        "another request changed the game first: re-read it and decide again");
  }
  if (outcome == "missing") {
    return absl::NotFoundError(absl::StrCat("no game \"", game_id, "\" (unknown or expired)"));
  }
  const std::size_t n = change.events.size();
  const std::size_t m = change.outbox.size();
  if (outcome != "ok" || reply.size() != 2 + n + m) {
    return absl::InternalError(absl::StrCat("commit_change.lua: unexpected reply ", outcome));
  }
  std::vector<std::string> event_ids;
  for (std::size_t i = 0; i < n; ++i) {
    DRAUGHTS_ASSIGN_OR_RETURN(std::string id, reply[1 + i].AsString());
    event_ids.push_back(std::move(id));
  }
  if (m > 0 && !options_.direct_messages) {
    std::vector<std::string> outbox_ids;
    for (std::size_t i = 0; i < m; ++i) {
      DRAUGHTS_ASSIGN_OR_RETURN(std::string id, reply[1 + n + i].AsString());
      outbox_ids.push_back(std::move(id));
    }
    DRAUGHTS_ASSIGN_OR_RETURN(int64_t length, reply.back().AsInteger());
    // Queued: the relay forwards in the background, off the request path.
    relay_->ForwardCommitted(game_id, outbox_ids, change.outbox, length, prepared.mark);
  }
  return event_ids;
}

absl::StatusOr<std::vector<std::string>> RedisGameStore::Commit(
    const std::string& game_id, const Change& change, std::optional<StoredGame>* current) {
  PreparedCommit prepared = PrepareCommit(game_id, change);
  const std::size_t script_index = prepared.script_index;
  std::vector<RedisReply> replies;
  {
    DRAUGHTS_ASSIGN_OR_RETURN(platform::RedisPool::Lease redis, pool_->Borrow());
    DRAUGHTS_ASSIGN_OR_RETURN(
        replies,
        PipelineWithScript(*redis, commit_script_, std::move(prepared.commands), script_index));
  }
  DRAUGHTS_ASSIGN_OR_RETURN(
      std::vector<std::string> event_ids,
      FinishCommit(game_id, change, prepared, replies[script_index], current));
  if (prepared.finished) {
    // Best effort: ListGames filters by the real state anyway.
    absl::StatusOr<platform::RedisPool::Lease> redis = pool_->Borrow();
    if (redis.ok()) (void)(*redis)->Command({"ZREM", keys_.LiveGames(), game_id});
  }
  return event_ids;
}

void RedisGameStore::CommitAsync(const std::string& game_id, const Change& change,
                                 CommitDone done) {
  if (pipeliner_ == nullptr || commit_script_.sha().empty()) {
    GameStore::CommitAsync(game_id, change, std::move(done));
    return;
  }
  auto prepared = std::make_shared<PreparedCommit>(PrepareCommit(game_id, change));
  prepared->commands[prepared->script_index][1] = commit_script_.sha();
  // The commands (the state blob and events among them) are not needed
  // after sending: moved, not copied.
  std::vector<std::vector<std::string>> commands = std::move(prepared->commands);
  pipeliner_->Submit(std::move(commands),
                     [this, game_id, &change, prepared,
                      done = std::move(done)](absl::StatusOr<std::vector<RedisReply>> replies) {
                       if (!replies.ok()) {
                         done(replies.status(), std::nullopt);
                         return;
                       }
                       const RedisReply& reply = (*replies)[prepared->script_index];
                       if (reply.is_error() && absl::StartsWith(reply.text(), "NOSCRIPT")) {
                         // The server lost its scripts (restart, flush): EVALSHA did not
                         // run, so the blocking path loads the script and commits. Rare,
                         // and on the pipeliner's thread, not a request handler's.
                         GameStore::CommitAsync(game_id, change, done);
                         return;
                       }
                       if (absl::Status status = reply.ToStatus(); !status.ok()) {
                         done(status, std::nullopt);
                         return;
                       }
                       std::optional<StoredGame> current;
                       absl::StatusOr<std::vector<std::string>> event_ids =
                           FinishCommit(game_id, change, *prepared, reply, &current);
                       if (event_ids.ok() && prepared->finished) {
                         // Best effort, as in Commit; only once the game really ended.
                         pipeliner_->Submit({{"ZREM", keys_.LiveGames(), game_id}},
                                            [](absl::StatusOr<std::vector<RedisReply>>) {});
                       }
                       done(std::move(event_ids), std::move(current));
                     });
}

absl::StatusOr<std::vector<ListCursor>> RedisGameStore::List(const ListQuery& query) {
  const std::string key = !query.player_id.empty() ? keys_.PlayerGames(query.player_id)
                          : query.include_finished ? keys_.AllGames()
                                                   : keys_.LiveGames();
  const std::string max =
      query.after.has_value() ? absl::StrCat(query.after->activity_ms) : std::string("+inf");
  std::vector<ListCursor> out;
  DRAUGHTS_ASSIGN_OR_RETURN(platform::RedisPool::Lease redis, pool_->Borrow());
  int64_t offset = 0;
  for (int round = 0; round < kMaxListRounds && static_cast<int>(out.size()) < query.limit;
       ++round) {
    const int64_t count = query.limit - static_cast<int64_t>(out.size()) + kListSlack;
    DRAUGHTS_ASSIGN_OR_RETURN(RedisReply reply,
                              redis->Command({"ZREVRANGEBYSCORE", key, max, "-inf", "WITHSCORES",
                                              "LIMIT", absl::StrCat(offset), absl::StrCat(count)}));
    DRAUGHTS_ASSIGN_OR_RETURN(std::vector<RedisReply> items, reply.AsArray());
    for (std::size_t i = 0; i + 1 < items.size(); i += 2) {
      ListCursor entry;
      DRAUGHTS_ASSIGN_OR_RETURN(entry.game_id, items[i].AsString());
      DRAUGHTS_ASSIGN_OR_RETURN(std::string score, items[i + 1].AsString());
      double ms = 0;
      if (!absl::SimpleAtod(score, &ms)) return absl::InternalError("bad index score");
      entry.activity_ms = static_cast<int64_t>(ms);
      // Same-score entries come in reverse id order: "after the cursor"
      // means an older activity, or the same one with a smaller id.
      if (query.after.has_value() && (entry.activity_ms > query.after->activity_ms ||
                                      (entry.activity_ms == query.after->activity_ms &&
                                       entry.game_id >= query.after->game_id))) {
        continue;
      }
      out.push_back(std::move(entry));
      if (static_cast<int>(out.size()) == query.limit) break;
    }
    if (static_cast<int64_t>(items.size() / 2) < count) break;
    offset += count;
  }
  return out;
}

}  // namespace draughts::game_state
