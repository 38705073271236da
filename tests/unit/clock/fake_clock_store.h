// An in-memory ClockStore for the unit tests: games in a map, and a record
// of what the logic asked of it (arms, finished timers, saved presence
// checks, forgotten games), so tests assert the decisions without Redis.
#ifndef DRAUGHTS_TESTS_UNIT_CLOCK_FAKE_CLOCK_STORE_H_
#define DRAUGHTS_TESTS_UNIT_CLOCK_FAKE_CLOCK_STORE_H_

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "clock/clock_store.h"

namespace draughts::clock::testing {

class FakeClockStore final : public ClockStore {
 public:
  absl::StatusOr<ArmOutcome> Arm(const ArmCommand& command, absl::Time now) override;
  absl::Status Cancel(const std::string& game_id, std::optional<int64_t> game_version) override;
  absl::StatusOr<std::optional<GameClock>> Load(const std::string& game_id) override;
  absl::StatusOr<bool> Beat(const BeatCommand& command) override;
  absl::StatusOr<std::vector<DueTimer>> ClaimDue(absl::Time now, absl::Time lease_until,
                                                 int limit) override;
  absl::Status FinishMove(const DueTimer& timer, std::optional<absl::Time> retry_at) override;
  absl::Status SavePresence(const DueTimer& timer, const PresenceUpdate& update) override;
  absl::Status Forget(const std::string& game_id) override;

  // Every call fails with this while set.
  absl::Status failure;
  std::map<std::string, GameClock> games;
  std::map<std::string, int64_t> over;  // game id -> version at its end
  std::vector<std::pair<std::string, std::optional<absl::Time>>> finished_moves;
  std::vector<PresenceUpdate> saved;
  std::vector<std::string> forgotten;
};

}  // namespace draughts::clock::testing

#endif  // DRAUGHTS_TESTS_UNIT_CLOCK_FAKE_CLOCK_STORE_H_
