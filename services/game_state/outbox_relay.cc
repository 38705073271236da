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
    case OutboxMessage::Kind::kChatNotice:
      return "chat_notice";
  }
  return "unknown";
}

std::optional<OutboxMessage::Kind> ParseOutboxKind(std::string_view name) {
  for (OutboxMessage::Kind kind :
       {OutboxMessage::Kind::kBotJob, OutboxMessage::Kind::kResult,
        OutboxMessage::Kind::kClockUpdate, OutboxMessage::Kind::kChatNotice}) {
    if (name == OutboxKindName(kind)) return kind;
  }
  return std::nullopt;
}

OutboxForwardMetrics::OutboxForwardMetrics(prometheus::Registry& registry)
    : queued(prometheus::BuildGauge()
                 .Name("draughts_outbox_forward_queued")
                 .Help("Committed changes waiting for this replica's outbox forwarder")
                 .Register(registry)
                 .Add({})),
      batches(prometheus::BuildCounter()
                  .Name("draughts_outbox_forward_batches_total")
                  .Help("Batches of committed changes the outbox forwarder sent (2-3 Redis round "
                        "trips each)")
                  .Register(registry)
                  .Add({})),
      messages(prometheus::BuildCounter()
                   .Name("draughts_outbox_forwarded_total")
                   .Help("Outbox messages the forwarder copied to the global streams after their "
                         "commit (the sweeper's not counted)")
                   .Register(registry)
                   .Add({})),
      dropped(prometheus::BuildCounter()
                  .Name("draughts_outbox_forward_dropped_total")
                  .Help("Committed changes not queued for forwarding (queue full or relay "
                        "stopped): left to the sweeper")
                  .Register(registry)
                  .Add({})) {}

OutboxRelay::OutboxRelay(platform::RedisPool* pool, RedisKeys keys, OutboxRelayOptions options,
                         GameMetrics* metrics, prometheus::Registry* registry)
    : pool_(pool),
      keys_(std::move(keys)),
      options_(options),
      metrics_(metrics),
      bot_jobs_key_(keys_.BotJobs()),
      results_key_(keys_.Results()),
      deadlines_key_(keys_.Deadlines()),
      chat_notices_key_(keys_.ChatNotices()),
      release_script_(ToString(lua::kReleasePendingLua)) {
  if (registry != nullptr) forward_metrics_ = std::make_unique<OutboxForwardMetrics>(*registry);
  forwarder_ = std::thread([this] { ForwardLoop(); });
}

const std::string& OutboxRelay::StreamOf(OutboxMessage::Kind kind) const {
  switch (kind) {
    case OutboxMessage::Kind::kBotJob:
      return bot_jobs_key_;
    case OutboxMessage::Kind::kResult:
      return results_key_;
    case OutboxMessage::Kind::kClockUpdate:
      return deadlines_key_;
    case OutboxMessage::Kind::kChatNotice:
      return chat_notices_key_;
  }
  return deadlines_key_;  // unreachable: every kind is listed above
}

OutboxRelay::~OutboxRelay() {
  Stop();
}

void OutboxRelay::Stop() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (sweeper_.joinable()) sweeper_.join();
  {
    std::lock_guard<std::mutex> lock(queue_mu_);
    forwarder_stopping_ = true;
  }
  queue_wake_.notify_all();
  // The forwarder empties the queue before it ends.
  if (forwarder_.joinable()) forwarder_.join();
}

int OutboxRelay::Queued() const {
  std::lock_guard<std::mutex> lock(queue_mu_);
  return static_cast<int>(queue_.size());
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
  Committed change;
  change.game_id = game_id;
  change.score = score;
  for (std::size_t i = 0; i < messages.size() && i < outbox_ids.size(); ++i) {
    change.messages.push_back({outbox_ids[i], messages[i].kind, messages[i].data});
  }
  change.only_these = outbox_length <= static_cast<int64_t>(change.messages.size());
  {
    std::lock_guard<std::mutex> lock(queue_mu_);
    if (!forwarder_stopping_ && static_cast<int>(queue_.size()) < options_.max_queued) {
      queue_.push_back(std::move(change));
      if (forward_metrics_ != nullptr) forward_metrics_->queued.Set(queue_.size());
      queue_wake_.notify_one();
      return;
    }
  }
  if (forward_metrics_ != nullptr) forward_metrics_->dropped.Increment();
  platform::LogWarn("outbox forward queue full or stopped; the sweeper will forward",
                    {{"game", game_id}});
}

void OutboxRelay::ForwardLoop() {
  std::unique_lock<std::mutex> lock(queue_mu_);
  while (true) {
    queue_wake_.wait(lock, [this] { return forwarder_stopping_ || !queue_.empty(); });
    if (queue_.empty()) break;  // and stopping
    std::vector<Committed> batch;
    while (!queue_.empty() && static_cast<int>(batch.size()) < options_.max_batch) {
      batch.push_back(std::move(queue_.front()));
      queue_.pop_front();
    }
    if (forward_metrics_ != nullptr) forward_metrics_->queued.Set(queue_.size());
    lock.unlock();
    if (absl::Status status = ForwardBatch(batch); !status.ok()) {
      platform::LogWarn("outbox not forwarded now; the sweeper will",
                        {{"games", static_cast<int64_t>(batch.size())}, {"status", status}});
    }
    lock.lock();
  }
}

absl::Status OutboxRelay::ForwardBatch(std::vector<Committed>& batch) {
  DRAUGHTS_ASSIGN_OR_RETURN(platform::RedisPool::Lease redis, pool_->Borrow());
  std::vector<std::vector<std::string>> adds;
  for (const Committed& change : batch) {
    for (const Message& message : change.messages) {
      adds.push_back({"XADD", StreamOf(message.kind), "MAXLEN", "~",
                      absl::StrCat(options_.stream_max_length), "*", "data", message.data,
                      "game_id", change.game_id});
    }
  }
  DRAUGHTS_ASSIGN_OR_RETURN(std::vector<platform::RedisReply> added, redis->Pipeline(adds));
  if (forward_metrics_ != nullptr) forward_metrics_->batches.Increment();

  // Only the changes whose copies are all in place lose their originals;
  // the others stay in their outboxes, marked, for the sweeper. A later
  // change of the same game then finds them there (XLEN) and keeps the mark.
  std::vector<std::vector<std::string>> finish;
  enum class Check { kDeleted, kReleased, kLength };
  struct Step {
    std::size_t change;
    Check check;
  };
  std::vector<Step> steps;
  const std::string sha = release_script_.sha();
  std::vector<std::size_t> unloaded;
  std::size_t next_add = 0;
  int64_t forwarded = 0;
  for (std::size_t i = 0; i < batch.size(); ++i) {
    const Committed& change = batch[i];
    bool copied = true;
    for (std::size_t k = 0; k < change.messages.size(); ++k, ++next_add) {
      if (absl::Status status = added[next_add].ToStatus(); !status.ok()) {
        copied = false;
        platform::LogWarn("outbox message not copied; the sweeper will",
                          {{"game", change.game_id}, {"status", status}});
      }
    }
    if (!copied) continue;
    forwarded += static_cast<int64_t>(change.messages.size());
    if (!change.messages.empty()) {
      std::vector<std::string> del = {"XDEL", keys_.Outbox(change.game_id)};
      for (const Message& message : change.messages) del.push_back(message.outbox_id);
      finish.push_back(std::move(del));
      steps.push_back({i, Check::kDeleted});
    }
    if (change.only_these && sha.empty()) {
      unloaded.push_back(i);  // the script is loaded by ReleaseAll
    } else if (change.only_these) {
      finish.push_back(
          {"EVALSHA", sha, "1", keys_.OutboxPending(), change.game_id, absl::StrCat(change.score)});
      steps.push_back({i, Check::kReleased});
    } else {
      // Older entries were there at the commit; an earlier change of this
      // batch (or of one before) may just have deleted them.
      finish.push_back({"XLEN", keys_.Outbox(change.game_id)});
      steps.push_back({i, Check::kLength});
    }
  }
  if (forward_metrics_ != nullptr) forward_metrics_->messages.Increment(forwarded);
  if (finish.empty()) return absl::OkStatus();
  DRAUGHTS_ASSIGN_OR_RETURN(std::vector<platform::RedisReply> done, redis->Pipeline(finish));

  std::vector<std::pair<std::string, int64_t>> to_release;
  std::vector<bool> deleted(batch.size(), true);
  for (std::size_t s = 0; s < steps.size(); ++s) {
    const Committed& change = batch[steps[s].change];
    switch (steps[s].check) {
      case Check::kDeleted:
        if (absl::Status status = done[s].ToStatus(); !status.ok()) {
          // Copied but kept: sent again by the sweeper (at least once).
          deleted[steps[s].change] = false;
          platform::LogWarn("outbox messages not deleted; the sweeper will send them again",
                            {{"game", change.game_id}, {"status", status}});
        }
        break;
      case Check::kReleased:
        // Not loaded yet (first use, or Redis restarted): EvalScript below
        // loads it.
        if (!done[s].ToStatus().ok() && deleted[steps[s].change]) {
          to_release.emplace_back(change.game_id, change.score);
        }
        break;
      case Check::kLength: {
        absl::StatusOr<int64_t> length = done[s].AsInteger();
        if (length.ok() && *length == 0) to_release.emplace_back(change.game_id, change.score);
        break;
      }
    }
  }
  for (std::size_t i : unloaded) {
    if (deleted[i]) to_release.emplace_back(batch[i].game_id, batch[i].score);
  }
  return ReleaseAll(*redis, to_release);
}

absl::Status OutboxRelay::ReleaseAll(platform::RedisClient& redis,
                                     const std::vector<std::pair<std::string, int64_t>>& marks) {
  if (marks.empty()) return absl::OkStatus();
  std::size_t first = 0;
  if (release_script_.sha().empty()) {
    // Loads the script; the rest can then go in one pipeline.
    DRAUGHTS_RETURN_IF_ERROR(Release(redis, marks[0].first, marks[0].second));
    first = 1;
  }
  const std::string sha = release_script_.sha();
  std::vector<std::vector<std::string>> releases;
  for (std::size_t i = first; i < marks.size(); ++i) {
    releases.push_back({"EVALSHA", sha, "1", keys_.OutboxPending(), marks[i].first,
                        absl::StrCat(marks[i].second)});
  }
  if (releases.empty()) return absl::OkStatus();
  DRAUGHTS_ASSIGN_OR_RETURN(std::vector<platform::RedisReply> released, redis.Pipeline(releases));
  for (std::size_t i = 0; i < released.size(); ++i) {
    // NOSCRIPT (Redis restarted meanwhile): EvalScript loads it again.
    if (released[i].ToStatus().ok()) continue;
    DRAUGHTS_RETURN_IF_ERROR(Release(redis, marks[first + i].first, marks[first + i].second));
  }
  return absl::OkStatus();
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
