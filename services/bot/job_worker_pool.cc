#include "bot/job_worker_pool.h"

#include <algorithm>
#include <utility>

#include "bot/engine_catalog.h"
#include "bot/position_request.h"
#include "draughts/v1/events.pb.h"
#include "platform/logging.h"

namespace draughts::bot {
namespace {

// Bounds one claim round, so a dead worker's backlog does not starve new
// jobs; the rest is claimed in the next rounds.
constexpr int kClaimPagesPerRound = 4;

bool IsObsolete(absl::StatusCode code) {
  // The game moved on (ABORTED), ended or it is not the bot's turn any more
  // (FAILED_PRECONDITION), expired (NOT_FOUND), or the seat is no longer
  // the computer's: its player came back (PERMISSION_DENIED).
  return code == absl::StatusCode::kAborted || code == absl::StatusCode::kFailedPrecondition ||
         code == absl::StatusCode::kNotFound || code == absl::StatusCode::kPermissionDenied;
}

bool PlaysEasy(const v1::BotJob& job) {
  if (!job.engine_id().empty()) {
    return EngineCatalog::BuiltinLevel(job.engine_id()) == engine::Level::kEasy;
  }
  return job.level() == v1::BOT_LEVEL_EASY;
}

}  // namespace

JobWorkerPool::JobWorkerPool(JobSource* source, const MoveChooser* chooser,
                             MoveSubmitter* submitter, BotMetrics* metrics,
                             JobWorkerPoolOptions options)
    : source_(source),
      chooser_(chooser),
      submitter_(submitter),
      metrics_(metrics),
      options_(std::move(options)) {
  options_.jobs_per_worker = std::max(1, options_.jobs_per_worker);
}

JobWorkerPool::~JobWorkerPool() {
  Stop(absl::ZeroDuration());
}

int JobWorkerPool::held() const {
  std::lock_guard<std::mutex> lock(mu_);
  return static_cast<int>(held_.size());
}

void JobWorkerPool::Start() {
  std::lock_guard<std::mutex> lock(mu_);
  if (started_ || stopping_) return;
  started_ = true;
  for (int i = 0; i < options_.jobs_per_worker; ++i) {
    workers_.emplace_back([this, i] { WorkerLoop(i); });
  }
  reader_ = std::thread([this] { ReaderLoop(); });
}

void JobWorkerPool::Stop(absl::Duration grace) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (stopping_ && !reader_.joinable() && workers_.empty()) return;
    stopping_ = true;
    // Jobs nobody started go back to the group: they stay pending and
    // another worker claims them.
    for (const Job& job : ready_) held_.erase(job.entry_id);
    ready_.clear();
  }
  slots_.notify_all();
  work_.notify_all();
  if (reader_.joinable()) reader_.join();
  // Moves being thought about get `grace`, then their searches are cut
  // (the best move so far is played).
  std::thread cutter;
  std::mutex cut_mu;
  std::condition_variable cut_cv;
  bool workers_done = false;
  cutter = std::thread([&] {
    std::unique_lock<std::mutex> lock(cut_mu);
    if (!cut_cv.wait_for(lock, absl::ToChronoMilliseconds(grace), [&] { return workers_done; })) {
      cut_searches_ = true;
    }
  });
  for (std::thread& worker : workers_) {
    if (worker.joinable()) worker.join();
  }
  {
    std::lock_guard<std::mutex> lock(cut_mu);
    workers_done = true;
  }
  cut_cv.notify_all();
  cutter.join();
  std::lock_guard<std::mutex> lock(mu_);
  workers_.clear();
  if (metrics_ != nullptr) metrics_->InFlight(static_cast<int64_t>(held_.size()));
}

bool JobWorkerPool::SleepUnlessStopping(absl::Duration duration) {
  std::unique_lock<std::mutex> lock(mu_);
  slots_.wait_for(lock, absl::ToChronoMilliseconds(duration), [this] { return stopping_; });
  return !stopping_;
}

void JobWorkerPool::Enqueue(std::vector<JobEntry> entries, bool claimed) {
  int64_t taken = 0;
  {
    std::lock_guard<std::mutex> lock(mu_);
    for (JobEntry& entry : entries) {
      // A job this process already holds (claimed back from itself while it
      // waits for a retry) is not handled twice.
      if (!held_.insert(entry.id).second) continue;
      Job& job = ready_.emplace_back();
      job.entry_id = std::move(entry.id);
      job.data = std::move(entry.data);
      job.queued_at = EntryTime(job.entry_id).value_or(absl::Now());
      ++taken;
    }
    if (metrics_ != nullptr) metrics_->InFlight(static_cast<int64_t>(held_.size()));
  }
  if (claimed && taken > 0) {
    platform::LogInfo("claimed bot jobs of a stopped worker", {{"jobs", taken}});
    if (metrics_ != nullptr) metrics_->Claimed(taken);
  }
  work_.notify_all();
}

absl::Status JobWorkerPool::ReadStep(int free_slots) {
  if (!group_ready_) {
    if (absl::Status created = source_->CreateGroup(); !created.ok()) return created;
    group_ready_ = true;
  }
  const absl::Time now = absl::Now();
  if (now >= next_backlog_) {
    next_backlog_ = now + options_.backlog_every;
    absl::StatusOr<QueueBacklog> backlog = source_->Backlog();
    if (backlog.ok() && metrics_ != nullptr) {
      metrics_->Queue(backlog->pending, backlog->lag, backlog->oldest_age);
    }
  }
  if (!pending_done_) {
    // Jobs this consumer held before a restart under the same name.
    absl::StatusOr<std::vector<JobEntry>> mine = source_->ReadPending(pending_cursor_, free_slots);
    if (!mine.ok()) return mine.status();
    if (mine->empty()) {
      pending_done_ = true;
    } else {
      pending_cursor_ = mine->back().id;
      Enqueue(*std::move(mine), false);
    }
    return absl::OkStatus();
  }
  if (now >= next_claim_) {
    next_claim_ = now + options_.claim_every;
    for (int page = 0; page < kClaimPagesPerRound; ++page) {
      absl::StatusOr<ClaimedJobs> claimed =
          source_->ClaimIdle(claim_cursor_, options_.claim_idle, free_slots);
      if (!claimed.ok()) return claimed.status();
      claim_cursor_ = claimed->next_cursor.empty() ? "0-0" : claimed->next_cursor;
      const bool any = !claimed->entries.empty();
      Enqueue(std::move(claimed->entries), true);
      if (any || claim_cursor_ == "0-0") break;
    }
    return absl::OkStatus();
  }
  absl::StatusOr<std::vector<JobEntry>> fresh = source_->ReadNew(free_slots, options_.block);
  if (!fresh.ok()) return fresh.status();
  Enqueue(*std::move(fresh), false);
  return absl::OkStatus();
}

void JobWorkerPool::ReaderLoop() {
  absl::Duration backoff = options_.initial_backoff;
  while (true) {
    int free_slots = 0;
    {
      std::unique_lock<std::mutex> lock(mu_);
      // Only as many jobs as there are idle threads: what is read is worked
      // on at once, the rest stays in the stream for other workers.
      slots_.wait_for(lock, std::chrono::milliseconds(200), [this] {
        return stopping_ || thinking_ + static_cast<int>(ready_.size()) < options_.jobs_per_worker;
      });
      if (stopping_) return;
      free_slots = options_.jobs_per_worker - thinking_ - static_cast<int>(ready_.size());
    }
    if (free_slots <= 0) continue;
    absl::Status status = ReadStep(free_slots);
    if (status.ok()) {
      backoff = options_.initial_backoff;
      continue;
    }
    group_ready_ = group_ready_ && status.code() != absl::StatusCode::kNotFound;
    platform::LogWarn("bot jobs reader: retrying after a failure",
                      {{"status", status}, {"backoff", absl::FormatDuration(backoff)}});
    if (!SleepUnlessStopping(backoff)) return;
    backoff = std::min(backoff * 2, options_.max_backoff);
  }
}

void JobWorkerPool::Release(const std::string& entry_id) {
  std::lock_guard<std::mutex> lock(mu_);
  held_.erase(entry_id);
  if (metrics_ != nullptr) metrics_->InFlight(static_cast<int64_t>(held_.size()));
}

void JobWorkerPool::Settle(const Job& job, const std::string& outcome) {
  if (absl::Status acked = source_->Ack({job.entry_id}); !acked.ok()) {
    // Still pending: claimed and handled again later, which changes nothing.
    platform::LogWarn("bot job not acknowledged", {{"entry", job.entry_id}, {"status", acked}});
  }
  if (metrics_ != nullptr) metrics_->JobDone(outcome);
  Release(job.entry_id);
}

absl::Duration JobWorkerPool::EasyPause(std::mt19937_64& rng) const {
  if (options_.easy_pause <= absl::ZeroDuration()) return absl::ZeroDuration();
  return options_.easy_pause * std::uniform_real_distribution<double>(0.5, 1.0)(rng);
}

std::optional<JobWorkerPool::Job> JobWorkerPool::Think(Job job, engine::Engine& engine,
                                                       std::mt19937_64& rng) {
  v1::BotJob bot_job;
  if (!job.data.has_value() || !bot_job.ParseFromString(*job.data) || bot_job.game_id().empty() ||
      bot_job.player_token().empty() || bot_job.ply() < 0) {
    platform::LogWarn("malformed bot job acknowledged", {{"entry", job.entry_id}});
    Settle(job, "malformed");
    return std::nullopt;
  }
  absl::StatusOr<rules::GameRecord> record =
      BuildGameRecord(bot_job.variant(), bot_job.options(), bot_job.initial_fen(), bot_job.moves());
  if (!record.ok()) {
    const bool over = record.status().code() == absl::StatusCode::kFailedPrecondition;
    if (!over) {
      platform::LogWarn(
          "bot job with a game that does not replay acknowledged",
          {{"entry", job.entry_id}, {"game", bot_job.game_id()}, {"status", record.status()}});
    }
    Settle(job, over ? "obsolete" : "malformed");
    return std::nullopt;
  }
  MoveQuestion question;
  question.record = &*record;
  question.level = bot_job.level();
  question.engine_id = bot_job.engine_id();
  question.stop = &cut_searches_;
  absl::StatusOr<Choice> choice = chooser_->ChooseForGame(engine, rng, question);
  if (!choice.ok()) {
    platform::LogError(
        "no move for a bot job",
        {{"entry", job.entry_id}, {"game", bot_job.game_id()}, {"status", choice.status()}});
    Settle(job, "malformed");
    return std::nullopt;
  }
  job.submission = MoveSubmission{.game_id = bot_job.game_id(),
                                  .player_token = bot_job.player_token(),
                                  .move = choice->move,
                                  .expected_ply = bot_job.ply()};
  job.engine = choice->engine;
  if (PlaysEasy(bot_job)) {
    const absl::Time due = job.queued_at + EasyPause(rng);
    if (due > absl::Now()) {
      std::lock_guard<std::mutex> lock(mu_);
      if (!stopping_) {
        due_.emplace(due, std::move(job));
        work_.notify_one();
        return std::nullopt;
      }
    }
  }
  return job;
}

void JobWorkerPool::SubmitOrRetry(Job job) {
  const absl::Status status = submitter_->Submit(*job.submission);
  if (status.ok()) {
    if (metrics_ != nullptr) metrics_->MovePlayed(job.engine, absl::Now() - job.queued_at);
    Settle(job, "played");
    return;
  }
  if (IsObsolete(status.code())) {
    Settle(job, "obsolete");
    return;
  }
  if (status.code() == absl::StatusCode::kInvalidArgument) {
    platform::LogError("game-state refused a bot's move", {{"game", job.submission->game_id},
                                                           {"ply", job.submission->expected_ply},
                                                           {"move", job.submission->move},
                                                           {"status", status}});
    Settle(job, "rejected");
    return;
  }
  // Unknown outcome (game-state unreachable): the same move at the same ply
  // again, later; a move that was applied is then answered OK or ABORTED.
  if (metrics_ != nullptr) metrics_->Retried();
  ++job.attempts;
  const absl::Duration backoff =
      std::min(options_.initial_backoff * (1 << std::min(job.attempts, 10)), options_.max_backoff);
  platform::LogWarn("bot move not delivered: retrying",
                    {{"game", job.submission->game_id},
                     {"status", status},
                     {"backoff", absl::FormatDuration(backoff)}});
  std::lock_guard<std::mutex> lock(mu_);
  if (stopping_) {
    // Handed back: another worker claims it.
    held_.erase(job.entry_id);
    return;
  }
  due_.emplace(absl::Now() + backoff, std::move(job));
  work_.notify_one();
}

void JobWorkerPool::WorkerLoop(int index) {
  engine::Engine engine(options_.table_megabytes);
  std::mt19937_64 rng(std::random_device{}() ^ (static_cast<uint64_t>(index) << 32));
  while (true) {
    std::optional<Job> job;
    bool thought = false;
    {
      std::unique_lock<std::mutex> lock(mu_);
      while (true) {
        const absl::Time now = absl::Now();
        // Submissions that are due come first (at shutdown, all of them).
        if (!due_.empty() && (stopping_ || due_.begin()->first <= now)) {
          job = std::move(due_.begin()->second);
          due_.erase(due_.begin());
          thought = true;
          break;
        }
        if (!ready_.empty()) {
          job = std::move(ready_.front());
          ready_.pop_front();
          break;
        }
        if (stopping_) return;
        if (due_.empty()) {
          work_.wait(lock);
        } else {
          work_.wait_for(lock, absl::ToChronoMilliseconds(due_.begin()->first - now));
        }
      }
      ++thinking_;
      if (metrics_ != nullptr) metrics_->Working(thinking_);
    }
    if (!thought) job = Think(*std::move(job), engine, rng);
    if (job.has_value()) SubmitOrRetry(*std::move(job));
    {
      std::lock_guard<std::mutex> lock(mu_);
      --thinking_;
      if (metrics_ != nullptr) metrics_->Working(thinking_);
    }
    slots_.notify_one();
  }
}

}  // namespace draughts::bot
