// The worker pool's rules over an in-memory jobs stream and a scripted
// game-state: a job is acknowledged only once its move is in or obsolete,
// UNAVAILABLE repeats the same move at the same ply, malformed jobs never
// block the group, Easy waits its pause.
#include "bot/job_worker_pool.h"

#include <gtest/gtest.h>

#include <atomic>
#include <condition_variable>
#include <deque>
#include <mutex>

#include "absl/strings/str_cat.h"
#include "bot/engine_catalog.h"
#include "draughts/v1/events.pb.h"

namespace draughts::bot {
namespace {

class FakeJobSource final : public JobSource {
 public:
  void Add(JobEntry entry) {
    std::lock_guard<std::mutex> lock(mu_);
    new_.push_back(std::move(entry));
    cv_.notify_all();
  }
  std::vector<std::string> acked() {
    std::lock_guard<std::mutex> lock(mu_);
    return acked_;
  }

  absl::Status CreateGroup() override { return absl::OkStatus(); }
  absl::StatusOr<std::vector<JobEntry>> ReadPending(const std::string&, int) override {
    return std::vector<JobEntry>{};
  }
  absl::StatusOr<std::vector<JobEntry>> ReadNew(int count, absl::Duration block) override {
    std::unique_lock<std::mutex> lock(mu_);
    cv_.wait_for(lock, absl::ToChronoMilliseconds(block), [&] { return !new_.empty(); });
    std::vector<JobEntry> out;
    while (!new_.empty() && static_cast<int>(out.size()) < count) {
      out.push_back(std::move(new_.front()));
      new_.pop_front();
    }
    return out;
  }
  absl::StatusOr<ClaimedJobs> ClaimIdle(const std::string&, absl::Duration, int) override {
    return ClaimedJobs{};
  }
  absl::Status Ack(const std::vector<std::string>& ids) override {
    std::lock_guard<std::mutex> lock(mu_);
    acked_.insert(acked_.end(), ids.begin(), ids.end());
    return absl::OkStatus();
  }
  absl::StatusOr<QueueBacklog> Backlog() override { return QueueBacklog{}; }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<JobEntry> new_;
  std::vector<std::string> acked_;
};

// Answers with the scripted statuses in order, then OK.
class ScriptedGameState final : public MoveSubmitter {
 public:
  explicit ScriptedGameState(std::vector<absl::Status> answers = {})
      : answers_(answers.begin(), answers.end()) {}
  absl::Status Submit(const MoveSubmission& submission) override {
    std::lock_guard<std::mutex> lock(mu_);
    submissions_.push_back(submission);
    times_.push_back(absl::Now());
    if (answers_.empty()) return absl::OkStatus();
    absl::Status answer = answers_.front();
    answers_.pop_front();
    return answer;
  }
  std::vector<MoveSubmission> submissions() {
    std::lock_guard<std::mutex> lock(mu_);
    return submissions_;
  }
  std::vector<absl::Time> times() {
    std::lock_guard<std::mutex> lock(mu_);
    return times_;
  }

 private:
  std::mutex mu_;
  std::deque<absl::Status> answers_;
  std::vector<MoveSubmission> submissions_;
  std::vector<absl::Time> times_;
};

JobEntry Job(const std::string& game_id, v1::BotLevel level, absl::Time queued = absl::Now()) {
  v1::BotJob job;
  job.set_game_id(game_id);
  job.set_ply(1);
  job.set_variant("english");
  job.set_color(v1::COLOR_BLACK);
  job.set_initial_fen("W:W21,22,30:B5,9,11");
  job.add_moves("21-17");
  job.set_level(level);
  job.set_player_token("secret-token");
  // Distinct entry ids: the pool never holds one entry twice.
  static std::atomic<int> sequence{0};
  return JobEntry{absl::StrCat(absl::ToUnixMillis(queued), "-", sequence++),
                  job.SerializeAsString()};
}

bool WaitFor(const std::function<bool()>& condition, absl::Duration timeout = absl::Seconds(10)) {
  const absl::Time deadline = absl::Now() + timeout;
  while (!condition()) {
    if (absl::Now() > deadline) return false;
    absl::SleepFor(absl::Milliseconds(5));
  }
  return true;
}

class JobWorkerPoolTest : public ::testing::Test {
 protected:
  void Start(std::vector<absl::Status> answers = {}, absl::Duration easy_pause = {}) {
    game_state_ = std::make_unique<ScriptedGameState>(std::move(answers));
    JobWorkerPoolOptions options;
    options.jobs_per_worker = 2;
    options.block = absl::Milliseconds(20);
    options.initial_backoff = absl::Milliseconds(5);
    options.easy_pause = easy_pause;
    options.table_megabytes = 1;
    pool_ =
        std::make_unique<JobWorkerPool>(&source_, &chooser_, game_state_.get(), nullptr, options);
    pool_->Start();
  }
  void TearDown() override {
    if (pool_ != nullptr) pool_->Stop(absl::ZeroDuration());
  }

  FakeJobSource source_;
  EngineCatalog catalog_{{}, nullptr};
  MoveChooser chooser_{&catalog_, {}, nullptr};
  std::unique_ptr<ScriptedGameState> game_state_;
  std::unique_ptr<JobWorkerPool> pool_;
};

TEST_F(JobWorkerPoolTest, AJobIsAcknowledgedOnceItsMoveIsIn) {
  Start();
  const JobEntry job = Job("g1", v1::BOT_LEVEL_MEDIUM);
  source_.Add(job);
  ASSERT_TRUE(WaitFor([&] { return !source_.acked().empty(); }));
  const std::vector<MoveSubmission> submissions = game_state_->submissions();
  ASSERT_EQ(submissions.size(), 1u);
  const MoveSubmission& sent = submissions[0];
  EXPECT_EQ(sent.game_id, "g1");
  EXPECT_EQ(sent.player_token, "secret-token");
  EXPECT_EQ(sent.expected_ply, 1);
  EXPECT_FALSE(sent.move.empty());
  EXPECT_EQ(source_.acked(), std::vector<std::string>{job.id});
  EXPECT_TRUE(WaitFor([&] { return pool_->held() == 0; }));
}

TEST_F(JobWorkerPoolTest, ObsoleteJobsAreAcknowledgedAndDropped) {
  Start({absl::AbortedError("stale ply"), absl::FailedPreconditionError("game over"),
         absl::NotFoundError("gone"), absl::PermissionDeniedError("player is back"),
         absl::InvalidArgumentError("illegal")});
  for (int i = 0; i < 5; ++i) source_.Add(Job(absl::StrCat("g", i), v1::BOT_LEVEL_EASY));
  ASSERT_TRUE(WaitFor([&] { return source_.acked().size() == 5; }));
  EXPECT_EQ(game_state_->submissions().size(), 5u) << "an obsolete job was submitted again";
}

TEST_F(JobWorkerPoolTest, UnavailableRepeatsTheSameMoveAtTheSamePlyBeforeTheAck) {
  Start({absl::UnavailableError("down"), absl::DeadlineExceededError("slow"),
         absl::UnavailableError("down")});
  const JobEntry job = Job("g1", v1::BOT_LEVEL_MEDIUM);
  source_.Add(job);
  ASSERT_TRUE(WaitFor([&] { return game_state_->submissions().size() == 4; }));
  ASSERT_TRUE(WaitFor([&] { return !source_.acked().empty(); }));
  const std::vector<MoveSubmission> sent = game_state_->submissions();
  for (const MoveSubmission& again : sent) {
    EXPECT_EQ(again.move, sent[0].move);
    EXPECT_EQ(again.expected_ply, 1);
  }
  EXPECT_EQ(source_.acked(), std::vector<std::string>{job.id});
}

TEST_F(JobWorkerPoolTest, AnEntryAlreadyHeldIsNotHandledTwice) {
  Start({}, absl::Milliseconds(300));
  const JobEntry job = Job("g1", v1::BOT_LEVEL_EASY);
  source_.Add(job);
  source_.Add(job);  // e.g. claimed back while it waits for its pause
  ASSERT_TRUE(WaitFor([&] { return !source_.acked().empty(); }));
  absl::SleepFor(absl::Milliseconds(100));
  EXPECT_EQ(game_state_->submissions().size(), 1u);
}

TEST_F(JobWorkerPoolTest, MalformedJobsAreAcknowledgedWithoutAMove) {
  Start();
  source_.Add(JobEntry{"1-1", std::nullopt});
  source_.Add(JobEntry{"1-2", std::string("\xff\xff not a proto")});
  v1::BotJob broken;
  broken.set_game_id("g");
  broken.set_player_token("t");
  broken.set_variant("english");
  broken.add_moves("99-98");
  source_.Add(JobEntry{"1-3", broken.SerializeAsString()});
  ASSERT_TRUE(WaitFor([&] { return source_.acked().size() == 3; }));
  EXPECT_TRUE(game_state_->submissions().empty());
}

TEST_F(JobWorkerPoolTest, EasyWaitsItsPauseFromTheJobsQueueing) {
  // A pause well above Medium's 200 ms search, so that Medium finishing
  // first does not depend on how loaded the machine is.
  Start({}, absl::Milliseconds(2000));
  const absl::Time queued = absl::Now();
  source_.Add(Job("easy", v1::BOT_LEVEL_EASY, queued));
  source_.Add(Job("medium", v1::BOT_LEVEL_MEDIUM, queued));
  ASSERT_TRUE(WaitFor([&] { return source_.acked().size() == 2; }));
  const std::vector<MoveSubmission> sent = game_state_->submissions();
  const std::vector<absl::Time> times = game_state_->times();
  ASSERT_EQ(sent.size(), 2u);
  // Medium is not held back; Easy comes at least half the pause after.
  EXPECT_EQ(sent[0].game_id, "medium");
  EXPECT_EQ(sent[1].game_id, "easy");
  EXPECT_GE(times[1] - queued, absl::Milliseconds(999));
}

}  // namespace
}  // namespace draughts::bot
