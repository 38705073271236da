#include "matchmaking/background_workers.h"

#include <vector>

#include "draughts/v1/events.pb.h"
#include "platform/logging.h"

namespace draughts::matchmaking {

BackgroundWorkers::BackgroundWorkers(MatchmakingServiceImpl* service, platform::RedisOptions redis,
                                     BackgroundOptions options)
    : service_(service), redis_(std::move(redis)), options_(std::move(options)) {}

BackgroundWorkers::~BackgroundWorkers() {
  Stop();
}

void BackgroundWorkers::Start() {
  consumer_ = std::thread([this] { ConsumeResults(); });
  sweeper_ = std::thread([this] { Sweep(); });
}

void BackgroundWorkers::Stop() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (consumer_.joinable()) consumer_.join();
  if (sweeper_.joinable()) sweeper_.join();
}

bool BackgroundWorkers::Sleep(absl::Duration d) {
  std::unique_lock<std::mutex> lock(mu_);
  wake_.wait_for(lock, absl::ToChronoNanoseconds(d), [this] { return stopping_; });
  return !stopping_;
}

void BackgroundWorkers::ConsumeResults() {
  platform::RedisOptions blocking = redis_;
  platform::RedisClient redis(blocking);
  platform::StreamConsumer results(options_.results);
  bool group_ready = false;
  bool pending_done = false;
  absl::Time next_claim = absl::Now();
  auto handle = [&](const std::vector<platform::StreamEntry>& entries) {
    std::vector<std::string> done;
    for (const platform::StreamEntry& entry : entries) {
      const std::string* data = entry.Find("data");
      v1::ResultRecord record;
      if (data == nullptr || !record.ParseFromString(*data)) {
        platform::LogWarn("a malformed results entry was skipped", {{"id", entry.id}});
        done.push_back(entry.id);
        continue;
      }
      absl::Status handled = service_->OnGameFinished(record);
      if (handled.ok()) {
        done.push_back(entry.id);
      } else {
        platform::LogWarn("a finished game could not open its rematch window (will retry)",
                          {{"game", record.game_id()}, {"status", handled}});
      }
    }
    if (!done.empty()) (void)results.Ack(redis, done);
  };
  while (true) {
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (stopping_) return;
    }
    if (!group_ready) {
      absl::Status created = results.CreateGroup(redis);
      if (!created.ok()) {
        if (!Sleep(absl::Seconds(1))) return;
        continue;
      }
      group_ready = true;
    }
    if (!pending_done) {
      absl::StatusOr<std::vector<platform::StreamEntry>> mine = results.ReadPending(redis, 100);
      if (mine.ok()) {
        handle(*mine);
        pending_done = mine->empty();
      }
    }
    if (absl::Now() >= next_claim) {
      next_claim = absl::Now() + options_.claim_idle / 2;
      absl::StatusOr<platform::ClaimedEntries> claimed =
          results.ClaimIdle(redis, options_.claim_idle);
      if (claimed.ok()) handle(claimed->entries);
    }
    absl::StatusOr<std::vector<platform::StreamEntry>> fresh =
        results.ReadNew(redis, 50, options_.block);
    if (!fresh.ok()) {
      if (!Sleep(absl::Milliseconds(500))) return;
      continue;
    }
    handle(*fresh);
  }
}

void BackgroundWorkers::Sweep() {
  absl::Time next_gauges = absl::Now();
  while (Sleep(options_.sweep_interval)) {
    absl::Status paired = service_->SweepQueues();
    absl::Status closed = service_->CloseExpiredRematchWindows();
    if (!paired.ok() || !closed.ok()) {
      platform::LogDebug("sweep incomplete (retried next time)",
                         {{"pairs", paired}, {"rematch", closed}});
    }
    if (absl::Now() >= next_gauges) {
      next_gauges = absl::Now() + absl::Seconds(5);
      service_->SampleGauges();
    }
  }
}

}  // namespace draughts::matchmaking
