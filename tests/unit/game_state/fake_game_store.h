// In-memory GameStore and EventFeed for the service's unit tests. Honours
// the same contract as the Redis adapter, including the version check:
// a Commit computed from an old version is ABORTED and writes nothing.
#ifndef DRAUGHTS_TESTS_UNIT_GAME_STATE_FAKE_GAME_STORE_H_
#define DRAUGHTS_TESTS_UNIT_GAME_STATE_FAKE_GAME_STORE_H_

#include <condition_variable>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "draughts/v1/events.pb.h"
#include "game_state/game_store.h"

namespace draughts::game_state::testing {

class FakeGameStore final : public GameStore, public EventFeed {
 public:
  absl::StatusOr<StoredGame> Load(const std::string& game_id) override;
  absl::StatusOr<CreateResult> Create(const std::string& game_id, const NewGame& game) override;
  absl::StatusOr<std::vector<std::string>> Commit(const std::string& game_id, const Change& change,
                                                  std::optional<StoredGame>* current) override;
  absl::StatusOr<std::vector<ListCursor>> List(const ListQuery& query) override;
  absl::StatusOr<std::vector<std::optional<StoredGame>>> LoadMany(
      const std::vector<std::string>& game_ids) override;
  absl::StatusOr<std::unique_ptr<EventSubscription>> Subscribe(
      const std::string& game_id, const std::string& after_event_id) override;

  // Runs once, inside the next Commit, before the version check: a test
  // makes "another replica" change the game there (e.g. via CommitDirect).
  void BeforeNextCommit(std::function<void()> hook);
  // The next store call fails with `status` (e.g. UNAVAILABLE).
  void FailNext(absl::Status status);

  // Inspection.
  std::vector<v1::GameEvent> Events(const std::string& game_id) const;
  // Subscriptions' ready callbacks, called whenever events are appended.
  void AddReadyCallback(const void* subscription, std::function<void()> ready) const;
  void ForgetReadyCallback(const void* subscription) const;
  std::vector<v1::BotJob> BotJobs() const;
  std::vector<v1::ResultRecord> Results() const;
  std::vector<v1::ClockUpdate> ClockUpdates() const;
  std::vector<v1::ChatNoticeRecord> ChatNotices() const;
  int commits() const;
  // Load calls so far (to see which changes were decided without one).
  int loads() const;
  // The stored record, secrets included (to check what is kept).
  StoredGame Raw(const std::string& game_id) const;
  // Drops a game as expiry would.
  void Expire(const std::string& game_id);

 private:
  struct Game {
    StoredGame stored;
    std::vector<v1::GameEvent> events;
  };
  std::string NextEventIdLocked();
  void ForwardLocked(const std::vector<OutboxMessage>& outbox);
  absl::Status TakeFailureLocked();

  mutable std::mutex mu_;
  std::condition_variable appended_;
  mutable std::map<const void*, std::function<void()>> ready_;
  std::map<std::string, Game> games_;
  std::vector<v1::BotJob> bot_jobs_;
  std::vector<v1::ResultRecord> results_;
  std::vector<v1::ClockUpdate> clock_updates_;
  std::vector<v1::ChatNoticeRecord> chat_notices_;
  std::function<void()> before_commit_;
  absl::Status fail_next_;
  int64_t event_counter_ = 0;
  int commits_ = 0;
  int loads_ = 0;
};

}  // namespace draughts::game_state::testing

#endif  // DRAUGHTS_TESTS_UNIT_GAME_STATE_FAKE_GAME_STORE_H_
