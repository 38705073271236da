// The consumer of the results stream (consumer group "rating"): hands each
// batch of entries read to the Archiver (one store transaction per batch)
// and acknowledges an entry only once the store has it (or it was found
// malformed). On start, and after any failure, it first
// re-reads its own pending entries, then new ones; now and then it claims
// the entries a stopped consumer left pending for longer than claim_idle.
// An entry whose write failed stays pending and is retried with backoff,
// so nothing is lost, and the archive's once-per-game write makes a repeat
// harmless.
#ifndef DRAUGHTS_RATING_RESULTS_CONSUMER_H_
#define DRAUGHTS_RATING_RESULTS_CONSUMER_H_

#include <condition_variable>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "absl/status/status.h"
#include "absl/time/time.h"
#include "rating/archive_metrics.h"
#include "rating/archiver.h"
#include "rating/result_source.h"

namespace draughts::rating {

struct ResultsConsumerOptions {
  // Entries read (and recorded in one transaction) at a time.
  int batch_size = 100;
  // How long one read waits for new entries (also bounds how long Stop waits).
  absl::Duration block = absl::Seconds(1);
  // Entries pending this long for another consumer are taken over.
  absl::Duration claim_idle = absl::Minutes(1);
  // How often to look for such entries.
  absl::Duration claim_every = absl::Seconds(30);
  // Retry delays after a failure (Redis or PostgreSQL down), doubling.
  absl::Duration initial_backoff = absl::Milliseconds(100);
  absl::Duration max_backoff = absl::Seconds(10);
};

class ResultsConsumer {
 public:
  // Pointers must outlive the consumer; `metrics` may be null; null `now`
  // means the system clock.
  ResultsConsumer(ResultSource* source, Archiver* archiver, ArchiveMetrics* metrics,
                  ResultsConsumerOptions options, std::function<absl::Time()> now = {});
  ~ResultsConsumer();
  ResultsConsumer(const ResultsConsumer&) = delete;
  ResultsConsumer& operator=(const ResultsConsumer&) = delete;

  // One step of the loop (create the group, claim, pending, or new
  // entries). An error means the step stopped early; what it did not
  // acknowledge stays pending and a later step retries it.
  absl::Status Step();

  // Runs Step in a thread, with backoff after errors, until Stop().
  void Start();
  // Idempotent; returns once the thread has ended (within about `block`).
  void Stop();

 private:
  // Handles entries in order and acknowledges those that are done; stops at
  // the first that must be retried and returns why.
  absl::Status Process(const std::vector<ResultEntry>& entries);
  absl::Status ClaimIdleEntries();
  void RefreshBacklog();
  void Loop();
  // Sleeps up to `duration`; false if Stop() was called meanwhile.
  bool SleepUnlessStopped(absl::Duration duration);

  ResultSource* source_;
  Archiver* archiver_;
  ArchiveMetrics* metrics_;
  ResultsConsumerOptions options_;
  std::function<absl::Time()> now_;

  bool group_ready_ = false;
  // Own pending entries are re-read (from pending_cursor_) until none are
  // left, at start and after every failure.
  bool pending_done_ = false;
  std::string pending_cursor_ = "0";
  absl::Time next_claim_ = absl::InfinitePast();

  std::mutex mu_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace draughts::rating

#endif  // DRAUGHTS_RATING_RESULTS_CONSUMER_H_
