#include "game_state/outbox_relay.h"

#include <utility>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "game_state/lua_scripts.h"
#include "platform/logging.h"
#include "platform/redis_streams.h"
#include "platform/status_macros.h"

namespace draughts::game_state {
namespace {

// Games and messages handled per sweep step.
constexpr int kSweepGames = 100;
constexpr int kSweepMessages = 100;

std::string ToString(std::string_view s) {
  return std::string(s);
}

}  // namespace

std::string_view OutboxKindName(OutboxMessage::Kind kind) {
  return kind == OutboxMessage::Kind::kBotJob ? "bot_job" : "result";
}

OutboxRelay::OutboxRelay(platform::RedisPool* pool, RedisKeys keys, OutboxRelayOptions options)
    : pool_(pool),
      keys_(std::move(keys)),
      options_(options),
      release_script_(ToString(lua::kReleasePendingLua)) {}

OutboxRelay::~OutboxRelay() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (sweeper_.joinable()) sweeper_.join();
}

std::vector<std::string> OutboxRelay::MarkCommand(const std::string& game_id, int64_t score) const {
  return {"ZADD", keys_.OutboxPending(), absl::StrCat(score), game_id};
}

absl::Status OutboxRelay::Forward(platform::RedisClient& redis, const std::string& game_id,
                                  const std::vector<Message>& messages) {
  if (messages.empty()) return absl::OkStatus();
  std::vector<std::vector<std::string>> adds;
  for (const Message& message : messages) {
    adds.push_back(
        {"XADD", message.kind == OutboxMessage::Kind::kBotJob ? keys_.BotJobs() : keys_.Results(),
         "MAXLEN", "~", absl::StrCat(options_.stream_max_length), "*", "data", message.data,
         "game_id", game_id});
  }
  DRAUGHTS_ASSIGN_OR_RETURN(std::vector<platform::RedisReply> added, redis.Pipeline(adds));
  for (const platform::RedisReply& reply : added) DRAUGHTS_RETURN_IF_ERROR(reply.ToStatus());
  // Only now that every copy is in place may the originals go.
  std::vector<std::string> del = {"XDEL", keys_.Outbox(game_id)};
  for (const Message& message : messages) del.push_back(message.outbox_id);
  DRAUGHTS_ASSIGN_OR_RETURN(platform::RedisReply deleted, redis.Command(del));
  return deleted.ToStatus();
}

absl::Status OutboxRelay::Release(platform::RedisClient& redis, const std::string& game_id,
                                  int64_t score) {
  return platform::EvalScript(redis, release_script_, {keys_.OutboxPending()},
                              {game_id, absl::StrCat(score)})
      .status();
}

void OutboxRelay::ForwardCommitted(const std::string& game_id,
                                   const std::vector<std::string>& outbox_ids,
                                   const std::vector<OutboxMessage>& messages,
                                   int64_t outbox_length, int64_t score) {
  std::vector<Message> batch;
  for (std::size_t i = 0; i < messages.size() && i < outbox_ids.size(); ++i) {
    batch.push_back({outbox_ids[i], messages[i].kind, messages[i].data});
  }
  absl::Status status = [&]() -> absl::Status {
    DRAUGHTS_ASSIGN_OR_RETURN(platform::RedisPool::Lease redis, pool_->Borrow());
    DRAUGHTS_RETURN_IF_ERROR(Forward(*redis, game_id, batch));
    // Older messages still queued belong to a forwarder that died: the
    // mark must stay for the sweeper.
    if (outbox_length <= static_cast<int64_t>(batch.size())) {
      DRAUGHTS_RETURN_IF_ERROR(Release(*redis, game_id, score));
    }
    return absl::OkStatus();
  }();
  if (!status.ok()) {
    platform::LogWarn("outbox not forwarded now; the sweeper will",
                      {{"game", game_id}, {"status", status}});
  }
}

absl::StatusOr<int> OutboxRelay::SweepOnce() {
  DRAUGHTS_ASSIGN_OR_RETURN(platform::RedisPool::Lease redis, pool_->Borrow());
  const int64_t before = absl::ToUnixMicros(absl::Now() - options_.sweep_after);
  DRAUGHTS_ASSIGN_OR_RETURN(
      platform::RedisReply marked,
      redis->Command({"ZRANGEBYSCORE", keys_.OutboxPending(), "-inf", absl::StrCat(before),
                      "WITHSCORES", "LIMIT", "0", absl::StrCat(kSweepGames)}));
  DRAUGHTS_ASSIGN_OR_RETURN(std::vector<platform::RedisReply> pairs, marked.AsArray());
  int forwarded = 0;
  for (std::size_t i = 0; i + 1 < pairs.size(); i += 2) {
    DRAUGHTS_ASSIGN_OR_RETURN(std::string game_id, pairs[i].AsString());
    DRAUGHTS_ASSIGN_OR_RETURN(std::string score_text, pairs[i + 1].AsString());
    int64_t score = 0;
    if (!absl::SimpleAtoi(score_text, &score)) {
      double as_double = 0;
      if (!absl::SimpleAtod(score_text, &as_double)) continue;
      score = static_cast<int64_t>(as_double);
    }
    DRAUGHTS_ASSIGN_OR_RETURN(
        std::vector<platform::StreamEntry> entries,
        platform::StreamRange(*redis, keys_.Outbox(game_id), "-", "+", kSweepMessages));
    std::vector<Message> batch;
    for (platform::StreamEntry& entry : entries) {
      Message message{entry.id, OutboxMessage::Kind::kResult, ""};
      for (auto& [name, value] : entry.fields) {
        if (name == "kind") {
          message.kind = value == OutboxKindName(OutboxMessage::Kind::kBotJob)
                             ? OutboxMessage::Kind::kBotJob
                             : OutboxMessage::Kind::kResult;
        } else if (name == "data") {
          message.data = std::move(value);
        }
      }
      batch.push_back(std::move(message));
    }
    DRAUGHTS_RETURN_IF_ERROR(Forward(*redis, game_id, batch));
    forwarded += static_cast<int>(batch.size());
    if (static_cast<int>(entries.size()) < kSweepMessages) {
      DRAUGHTS_RETURN_IF_ERROR(Release(*redis, game_id, score));
    }
  }
  return forwarded;
}

void OutboxRelay::StartSweeper() {
  if (sweeper_.joinable()) return;
  sweeper_ = std::thread([this] { SweepLoop(); });
}

void OutboxRelay::SweepLoop() {
  std::unique_lock<std::mutex> lock(mu_);
  while (!stopping_) {
    wake_.wait_for(lock, absl::ToChronoMilliseconds(options_.sweep_interval),
                   [this] { return stopping_; });
    if (stopping_) break;
    lock.unlock();
    absl::StatusOr<int> swept = SweepOnce();
    if (!swept.ok()) {
      platform::LogWarn("outbox sweep failed", {{"status", swept.status()}});
    } else if (*swept > 0) {
      platform::LogInfo("outbox sweep forwarded messages left behind", {{"messages", *swept}});
    }
    lock.lock();
  }
}

}  // namespace draughts::game_state
