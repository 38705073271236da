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
  switch (kind) {
    case OutboxMessage::Kind::kBotJob:
      return "bot_job";
    case OutboxMessage::Kind::kResult:
      return "result";
    case OutboxMessage::Kind::kClockUpdate:
      return "clock_update";
  }
  return "unknown";
}

std::optional<OutboxMessage::Kind> ParseOutboxKind(std::string_view name) {
  for (OutboxMessage::Kind kind : {OutboxMessage::Kind::kBotJob, OutboxMessage::Kind::kResult,
                                   OutboxMessage::Kind::kClockUpdate}) {
    if (name == OutboxKindName(kind)) return kind;
  }
  return std::nullopt;
}

OutboxRelay::OutboxRelay(platform::RedisPool* pool, RedisKeys keys, OutboxRelayOptions options,
                         GameMetrics* metrics)
    : pool_(pool),
      keys_(std::move(keys)),
      options_(options),
      metrics_(metrics),
      bot_jobs_key_(keys_.BotJobs()),
      results_key_(keys_.Results()),
      deadlines_key_(keys_.Deadlines()),
      release_script_(ToString(lua::kReleasePendingLua)) {}

const std::string& OutboxRelay::StreamOf(OutboxMessage::Kind kind) const {
  switch (kind) {
    case OutboxMessage::Kind::kBotJob:
      return bot_jobs_key_;
    case OutboxMessage::Kind::kResult:
      return results_key_;
    case OutboxMessage::Kind::kClockUpdate:
      return deadlines_key_;
  }
  return deadlines_key_;  // unreachable: every kind is listed above
}

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
                                  const std::vector<Message>& messages,
                                  std::optional<int64_t> release_score) {
  if (!messages.empty()) {
    std::vector<std::vector<std::string>> adds;
    for (const Message& message : messages) {
      adds.push_back({"XADD", StreamOf(message.kind), "MAXLEN", "~",
                      absl::StrCat(options_.stream_max_length), "*", "data", message.data,
                      "game_id", game_id});
    }
    DRAUGHTS_ASSIGN_OR_RETURN(std::vector<platform::RedisReply> added, redis.Pipeline(adds));
    for (const platform::RedisReply& reply : added) DRAUGHTS_RETURN_IF_ERROR(reply.ToStatus());
  }
  // Only now that every copy is in place may the originals go; the mark is
  // released in the same round trip (a move writes a ClockUpdate, so this
  // runs for nearly every change).
  std::vector<std::vector<std::string>> finish;
  if (!messages.empty()) {
    std::vector<std::string> del = {"XDEL", keys_.Outbox(game_id)};
    for (const Message& message : messages) del.push_back(message.outbox_id);
    finish.push_back(std::move(del));
  }
  const std::string sha = release_score.has_value() ? release_script_.sha() : "";
  if (!sha.empty()) {
    finish.push_back(
        {"EVALSHA", sha, "1", keys_.OutboxPending(), game_id, absl::StrCat(*release_score)});
  }
  if (!finish.empty()) {
    DRAUGHTS_ASSIGN_OR_RETURN(std::vector<platform::RedisReply> done, redis.Pipeline(finish));
    if (!messages.empty()) DRAUGHTS_RETURN_IF_ERROR(done.front().ToStatus());
    if (!sha.empty() && done.back().ToStatus().ok()) return absl::OkStatus();
  }
  // The script is not loaded yet (first use, or Redis restarted): EvalScript
  // loads it.
  if (release_score.has_value()) return Release(redis, game_id, *release_score);
  return absl::OkStatus();
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
    // Older messages still queued belong to a forwarder that died: the
    // mark must stay for the sweeper.
    const bool only_these = outbox_length <= static_cast<int64_t>(batch.size());
    return Forward(*redis, game_id, batch,
                   only_these ? std::optional<int64_t>(score) : std::nullopt);
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
      std::optional<OutboxMessage::Kind> kind;
      std::string kind_name;
      std::string data;
      for (auto& [name, value] : entry.fields) {
        if (name == "kind") {
          kind_name = value;
          kind = ParseOutboxKind(value);
        } else if (name == "data") {
          data = std::move(value);
        }
      }
      if (!kind.has_value()) {
        // Never sent anywhere: which stream it belongs to is unknown here.
        platform::LogWarn("outbox entry of an unknown kind left in the outbox",
                          {{"game", game_id}, {"entry", entry.id}, {"kind", kind_name}});
        if (metrics_ != nullptr) metrics_->OutboxUnknownKind();
        continue;
      }
      batch.push_back({entry.id, *kind, std::move(data)});
    }
    const bool all_read = static_cast<int>(entries.size()) < kSweepMessages;
    DRAUGHTS_RETURN_IF_ERROR(
        Forward(*redis, game_id, batch, all_read ? std::optional<int64_t>(score) : std::nullopt));
    forwarded += static_cast<int>(batch.size());
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
