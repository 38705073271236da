// The bot workers of one process: a reader thread takes BotJob entries
// from the jobs stream's consumer group (its own pending ones after a
// restart, jobs of stopped workers idle past claim_idle, then new ones) and
// `jobs_per_worker` threads think about them, each with its own engine, and
// answer with SubmitMove at the job's ply. The reader never holds more jobs
// than there are free threads, so what it takes is worked on at once and a
// crash strands little.
//
// A job is acknowledged only once its move was accepted or found obsolete
// (the game moved on, ended, or the seat is no longer the computer's):
// delivery is at least once, and SubmitMove's expected_ply makes a second
// answer harmless. A job whose SubmitMove failed for want of game-state
// (UNAVAILABLE) is kept and submitted again with backoff.
//
// Easy waits a human-looking moment: its move is submitted no sooner than
// a random 50-100% of easy_pause after the job was queued (the thread is
// free meanwhile).
//
// Stop: reading stops; jobs not started are handed back (left pending, so
// another worker claims them after claim_idle); moves being thought about
// are finished and submitted, the search cut after `grace`.
#ifndef DRAUGHTS_BOT_JOB_WORKER_POOL_H_
#define DRAUGHTS_BOT_JOB_WORKER_POOL_H_

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <map>
#include <mutex>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "absl/status/status.h"
#include "absl/time/time.h"
#include "bot/bot_metrics.h"
#include "bot/job_source.h"
#include "bot/move_chooser.h"
#include "bot/move_submitter.h"
#include "engine/engine.h"

namespace draughts::bot {

struct JobWorkerPoolOptions {
  int jobs_per_worker = 4;
  // How long one read waits for new jobs (also bounds how fast Stop is).
  absl::Duration block = absl::Milliseconds(500);
  // Jobs pending this long with another worker are taken over; well above
  // the longest think (Hard: 2.5 s, an external engine: its move-time).
  absl::Duration claim_idle = absl::Seconds(15);
  absl::Duration claim_every = absl::Seconds(5);
  // How often the queue's backlog is read for the metrics.
  absl::Duration backlog_every = absl::Seconds(5);
  // Easy's human-looking pause (the longest); zero: none.
  absl::Duration easy_pause;
  absl::Duration initial_backoff = absl::Milliseconds(100);
  absl::Duration max_backoff = absl::Seconds(5);
  std::size_t table_megabytes = 16;
};

class JobWorkerPool {
 public:
  // Pointers must outlive the pool; `metrics` may be null.
  JobWorkerPool(JobSource* source, const MoveChooser* chooser, MoveSubmitter* submitter,
                BotMetrics* metrics, JobWorkerPoolOptions options);
  ~JobWorkerPool();  // Stop(0)
  JobWorkerPool(const JobWorkerPool&) = delete;
  JobWorkerPool& operator=(const JobWorkerPool&) = delete;

  void Start();
  // Idempotent; returns once every thread has ended.
  void Stop(absl::Duration grace);

  // Jobs held now (queued, thinking, pausing or waiting for a retry).
  int held() const;

 private:
  struct Job {
    std::string entry_id;
    std::optional<std::string> data;
    absl::Time queued_at;
    // Set once thought about.
    std::optional<MoveSubmission> submission;
    std::string engine;
    int attempts = 0;
  };

  void ReaderLoop();
  absl::Status ReadStep(int free_slots);
  void Enqueue(std::vector<JobEntry> entries, bool claimed);
  void WorkerLoop(int index);
  // Thinks about a job; returns it with its submission, or nullopt when it
  // was settled (acknowledged) without a move.
  std::optional<Job> Think(Job job, engine::Engine& engine, std::mt19937_64& rng);
  void SubmitOrRetry(Job job);
  void Settle(const Job& job, const std::string& outcome);
  void Release(const std::string& entry_id);
  absl::Duration EasyPause(std::mt19937_64& rng) const;
  bool SleepUnlessStopping(absl::Duration duration);

  JobSource* source_;
  const MoveChooser* chooser_;
  MoveSubmitter* submitter_;
  BotMetrics* metrics_;
  JobWorkerPoolOptions options_;

  mutable std::mutex mu_;
  std::condition_variable work_;   // workers: a job or a due submission
  std::condition_variable slots_;  // reader: a thread became free, or stop
  std::deque<Job> ready_;
  std::multimap<absl::Time, Job> due_;
  std::set<std::string> held_;  // entry ids of every job this process holds
  int thinking_ = 0;
  bool stopping_ = false;
  std::atomic<bool> cut_searches_{false};

  // Reader state (reader thread only).
  bool group_ready_ = false;
  bool pending_done_ = false;
  std::string pending_cursor_ = "0";
  std::string claim_cursor_ = "0-0";
  absl::Time next_claim_ = absl::InfinitePast();
  absl::Time next_backlog_ = absl::InfinitePast();

  std::thread reader_;
  std::vector<std::thread> workers_;
  bool started_ = false;
};

}  // namespace draughts::bot

#endif  // DRAUGHTS_BOT_JOB_WORKER_POOL_H_
