#include "clock/deadlines_consumer.h"

#include <algorithm>
#include <cstddef>
#include <optional>
#include <string>
#include <utility>

#include "clock/clock_requests.h"
#include "platform/logging.h"
#include "platform/status_macros.h"

namespace draughts::clock {
namespace {

platform::StreamConsumerOptions GroupOptions(const DeadlinesConsumerOptions& options,
                                             std::string start_id) {
  return {.stream = options.stream,
          .group = options.group,
          .consumer = options.consumer,
          .start_id = std::move(start_id)};
}

}  // namespace

absl::StatusOr<DeadlineChange> DeadlineChangeFrom(const v1::ClockUpdate& update, absl::Time now) {
  DRAUGHTS_ASSIGN_OR_RETURN(std::optional<ArmCommand> command, ArmCommandFrom(update, now));
  return DeadlineChange{update.game_id(), update.game_version(), std::move(command)};
}

absl::Status CountOutcome(const absl::StatusOr<ChangeOutcome>& outcome, ClockMetrics* metrics) {
  if (!outcome.ok()) return outcome.status();
  if (metrics != nullptr && *outcome == ChangeOutcome::kArmed) metrics->Armed("stream");
  if (metrics != nullptr && *outcome == ChangeOutcome::kCancelled) metrics->Cancelled();
  return absl::OkStatus();
}

absl::Status ApplyClockUpdate(ClockStore& store, const v1::ClockUpdate& update, absl::Time now,
                              ClockMetrics* metrics) {
  DRAUGHTS_ASSIGN_OR_RETURN(DeadlineChange change, DeadlineChangeFrom(update, now));
  DRAUGHTS_ASSIGN_OR_RETURN(std::vector<absl::StatusOr<ChangeOutcome>> outcomes,
                            store.ApplyChanges({change}, now));
  return CountOutcome(outcomes.at(0), metrics);
}

DeadlinesConsumer::DeadlinesConsumer(platform::RedisOptions redis, ClockStore* store,
                                     ClockMetrics* metrics, DeadlinesConsumerOptions options,
                                     std::function<absl::Time()> now)
    : redis_(std::move(redis)),
      store_(store),
      metrics_(metrics),
      options_(std::move(options)),
      now_(std::move(now)),
      from_now_(GroupOptions(options_, "$")),
      from_start_(GroupOptions(options_, "0")) {
  if (!now_) now_ = [] { return absl::Now(); };
}

DeadlinesConsumer::~DeadlinesConsumer() {
  Stop();
}

absl::Status DeadlinesConsumer::Process(const std::vector<platform::StreamEntry>& entries) {
  const absl::Time now = now_();
  // The entries that parse, as changes applied in one round trip; each
  // entry's status is its change's (a malformed entry's: INVALID_ARGUMENT).
  std::vector<DeadlineChange> changes;
  std::vector<absl::Status> statuses(entries.size());
  std::vector<std::size_t> change_of(entries.size(), 0);
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const std::string* data = entries[i].Find("data");
    v1::ClockUpdate update;
    if (data == nullptr || !update.ParseFromString(*data)) {
      statuses[i] = absl::InvalidArgumentError("no ClockUpdate in the entry");
      continue;
    }
    absl::StatusOr<DeadlineChange> change = DeadlineChangeFrom(update, now);
    if (!change.ok()) {
      statuses[i] = change.status();
      continue;
    }
    change_of[i] = changes.size();
    changes.push_back(*std::move(change));
  }
  std::vector<absl::StatusOr<ChangeOutcome>> outcomes;
  if (!changes.empty()) {
    DRAUGHTS_ASSIGN_OR_RETURN(outcomes, store_->ApplyChanges(changes, now));
  }
  // Acknowledged: every entry before the first that failed (those after it
  // are read again; applying them twice changes nothing).
  std::vector<std::string> done;
  absl::Status stopped_at;
  for (std::size_t i = 0; i < entries.size(); ++i) {
    absl::Status applied =
        statuses[i].ok() ? CountOutcome(outcomes[change_of[i]], metrics_) : statuses[i];
    if (applied.code() == absl::StatusCode::kInvalidArgument) {
      if (metrics_ != nullptr) metrics_->MalformedUpdate();
      platform::LogWarn("malformed deadlines stream entry acknowledged",
                        {{"id", entries[i].id}, {"status", applied}});
    } else if (!applied.ok()) {
      stopped_at = applied;
      break;
    }
    done.push_back(entries[i].id);
  }
  if (!done.empty()) {
    // A lost ack only repeats entries, which the versions make harmless.
    DRAUGHTS_RETURN_IF_ERROR(from_start_.Ack(redis_, done).status());
  }
  return stopped_at;
}

absl::Status DeadlinesConsumer::Step() {
  if (!group_ready_) {
    DRAUGHTS_RETURN_IF_ERROR(from_now_.CreateGroup(redis_));
    group_ready_ = true;
  }
  absl::Status status;
  if (now_() >= next_claim_) {
    next_claim_ = now_() + options_.claim_every;
    absl::StatusOr<platform::ClaimedEntries> claimed =
        from_start_.ClaimIdle(redis_, options_.claim_idle, "0-0", options_.batch_size);
    if (claimed.ok()) {
      if (!claimed->entries.empty()) {
        platform::LogInfo("took over deadlines of a stopped replica",
                          {{"entries", claimed->entries.size()}});
      }
      status = Process(claimed->entries);
    } else {
      status = claimed.status();
    }
  } else if (!pending_done_) {
    absl::StatusOr<std::vector<platform::StreamEntry>> pending =
        from_start_.ReadPending(redis_, options_.batch_size, pending_cursor_);
    if (!pending.ok()) {
      status = pending.status();
    } else if (pending->empty()) {
      pending_done_ = true;
    } else {
      status = Process(*pending);
      if (status.ok()) pending_cursor_ = pending->back().id;
    }
  } else {
    absl::StatusOr<std::vector<platform::StreamEntry>> fresh =
        from_start_.ReadNew(redis_, options_.batch_size, options_.block);
    status = fresh.ok() ? Process(*fresh) : fresh.status();
  }
  if (!status.ok()) {
    pending_done_ = false;
    pending_cursor_ = "0";
    if (metrics_ != nullptr) metrics_->Error("stream");
  }
  return status;
}

void DeadlinesConsumer::Loop() {
  absl::Duration backoff = options_.initial_backoff;
  while (true) {
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (stopping_) return;
    }
    absl::Status status = Step();
    if (status.ok()) {
      backoff = options_.initial_backoff;
      continue;
    }
    platform::LogWarn("deadlines stream: retrying after a failure",
                      {{"status", status}, {"backoff", backoff}});
    std::unique_lock<std::mutex> lock(mu_);
    wake_.wait_for(lock, absl::ToChronoMilliseconds(backoff), [this] { return stopping_; });
    if (stopping_) return;
    backoff = std::min(backoff * 2, options_.max_backoff);
  }
}

void DeadlinesConsumer::Start() {
  std::lock_guard<std::mutex> lock(mu_);
  if (thread_.joinable() || stopping_) return;
  thread_ = std::thread([this] { Loop(); });
}

void DeadlinesConsumer::Stop() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

}  // namespace draughts::clock
