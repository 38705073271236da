#include "rating/results_consumer.h"

#include <algorithm>
#include <utility>

#include "platform/logging.h"
#include "platform/status_macros.h"

namespace draughts::rating {
namespace {

// Bounds one claim round so a huge backlog of a dead consumer does not
// starve new entries; the rest is claimed in the next rounds.
constexpr int kClaimPagesPerRound = 8;

}  // namespace

ResultsConsumer::ResultsConsumer(ResultSource* source, Archiver* archiver, ArchiveMetrics* metrics,
                                 ResultsConsumerOptions options, std::function<absl::Time()> now)
    : source_(source),
      archiver_(archiver),
      metrics_(metrics),
      options_(std::move(options)),
      now_(std::move(now)) {
  if (!now_) now_ = [] { return absl::Now(); };
}

ResultsConsumer::~ResultsConsumer() {
  Stop();
}

absl::Status ResultsConsumer::Process(const std::vector<ResultEntry>& entries) {
  std::vector<std::string> done;
  absl::Status stopped_at;
  if (entries.empty()) return stopped_at;
  std::vector<HandledEntry> handled = archiver_->HandleBatch(entries);
  for (size_t i = 0; i < entries.size(); ++i) {
    if (!MayAcknowledge(handled[i].outcome)) {
      stopped_at = std::move(handled[i].status);
      break;
    }
    done.push_back(entries[i].id);
  }
  if (!done.empty()) {
    // An ack lost here leaves the entries pending: they are handled again
    // later and found archived, which changes nothing.
    DRAUGHTS_RETURN_IF_ERROR(source_->Ack(done));
  }
  return stopped_at;
}

absl::Status ResultsConsumer::ClaimIdleEntries() {
  std::string cursor = "0-0";
  for (int page = 0; page < kClaimPagesPerRound; ++page) {
    DRAUGHTS_ASSIGN_OR_RETURN(ClaimedEntries claimed,
                              source_->ClaimIdle(cursor, options_.claim_idle, options_.batch_size));
    const auto with_data = std::count_if(claimed.entries.begin(), claimed.entries.end(),
                                         [](const ResultEntry& e) { return e.data.has_value(); });
    if (with_data > 0) {
      platform::LogInfo("claimed entries of a stopped consumer", {{"entries", with_data}});
      if (metrics_ != nullptr) metrics_->Claimed(static_cast<int64_t>(with_data));
    }
    DRAUGHTS_RETURN_IF_ERROR(Process(claimed.entries));
    cursor = claimed.next_cursor;
    if (cursor == "0-0" || cursor.empty()) break;
  }
  return absl::OkStatus();
}

void ResultsConsumer::RefreshBacklog() {
  if (metrics_ == nullptr) return;
  absl::StatusOr<GroupBacklog> backlog = source_->Backlog();
  if (backlog.ok()) metrics_->Backlog(backlog->pending, backlog->lag);
}

absl::Status ResultsConsumer::Step() {
  if (!group_ready_) {
    DRAUGHTS_RETURN_IF_ERROR(source_->CreateGroup());
    group_ready_ = true;
  }
  absl::Status status;
  if (now_() >= next_claim_) {
    next_claim_ = now_() + options_.claim_every;
    RefreshBacklog();
    // Claimed entries become ours: if one fails, the pending pass retries it.
    status = ClaimIdleEntries();
  } else if (!pending_done_) {
    absl::StatusOr<std::vector<ResultEntry>> pending =
        source_->ReadPending(pending_cursor_, options_.batch_size);
    if (!pending.ok()) {
      status = pending.status();
    } else if (pending->empty()) {
      pending_done_ = true;
    } else {
      status = Process(*pending);
      if (status.ok()) pending_cursor_ = pending->back().id;
    }
  } else {
    absl::StatusOr<std::vector<ResultEntry>> fresh =
        source_->ReadNew(options_.batch_size, options_.block);
    status = fresh.ok() ? Process(*fresh) : fresh.status();
  }
  if (!status.ok()) {
    // Whatever was not acknowledged is pending for us: read it again first.
    pending_done_ = false;
    pending_cursor_ = "0";
  }
  return status;
}

bool ResultsConsumer::SleepUnlessStopped(absl::Duration duration) {
  std::unique_lock<std::mutex> lock(mu_);
  wake_.wait_for(lock, absl::ToChronoMilliseconds(duration), [this] { return stopping_; });
  return !stopping_;
}

void ResultsConsumer::Loop() {
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
    platform::LogWarn("results consumer: retrying after a failure",
                      {{"status", status}, {"backoff", absl::FormatDuration(backoff)}});
    if (!SleepUnlessStopped(backoff)) return;
    backoff = std::min(backoff * 2, options_.max_backoff);
  }
}

void ResultsConsumer::Start() {
  std::lock_guard<std::mutex> lock(mu_);
  if (thread_.joinable() || stopping_) return;
  thread_ = std::thread([this] { Loop(); });
}

void ResultsConsumer::Stop() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

}  // namespace draughts::rating
