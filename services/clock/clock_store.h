// What the clock needs from its storage, in its own words. Any number of
// replicas share one store; every method is atomic on its own, and the
// claim of a due timer is exclusive (one replica gets it) until its lease
// ends. The one adapter is redis_clock_store.h.
#ifndef DRAUGHTS_CLOCK_CLOCK_STORE_H_
#define DRAUGHTS_CLOCK_CLOCK_STORE_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "clock/clock_types.h"

namespace draughts::clock {

struct BeatCommand {
  std::string game_id;
  v1::Color color = v1::COLOR_UNSPECIFIED;
  std::string connection_id;
  bool closing = false;
  absl::Time now;
  // A connection is live while its last beat is younger than this.
  absl::Duration live_window;
};

// A presence check's outcome, saved in one step.
struct PresenceUpdate {
  std::vector<SeatPresenceState> seats;
  // Whether each seat looked connected to the check (same order as seats):
  // a beat that changed that meanwhile makes the store schedule another
  // check at once.
  std::vector<bool> observed_connected;
  // The next check; nullopt: none needed.
  std::optional<absl::Time> next_check;
  absl::Time now;
  absl::Duration live_window;
};

// One deadlines-stream entry as the store applies it: arm `arm`, or, when
// it is empty (the game is over), cancel the game at `game_version`.
struct DeadlineChange {
  std::string game_id;
  int64_t game_version = 0;
  std::optional<ArmCommand> arm;
};

enum class ChangeOutcome {
  kArmed,
  kRepeated,  // the same game_version was armed already
  kStale,     // a higher game_version is armed: Arm's ABORTED
  kCancelled,
};

class ClockStore {
 public:
  virtual ~ClockStore() = default;

  // Sets the game's deadline and turn unless a higher game_version is
  // already known (ABORTED). The first arming of a game starts the absence
  // of every human seat (none has connected yet).
  virtual absl::StatusOr<ArmOutcome> Arm(const ArmCommand& command, absl::Time now) = 0;

  // The game is over: forgets its timers and connections, and remembers
  // that it ended so an older arming arriving late changes nothing. With a
  // game_version lower than the armed one, nothing changes.
  virtual absl::Status Cancel(const std::string& game_id, std::optional<int64_t> game_version) = 0;

  // Applies `changes` in their order, each exactly as Arm or Cancel would;
  // one result per change (a change that failed has its status). The Redis
  // store sends them in one round trip; this default calls Arm and Cancel.
  // Fails as a whole only when the store cannot be reached; then some
  // changes may have been applied, which repeating them undoes nothing
  // (the versions decide).
  virtual absl::StatusOr<std::vector<absl::StatusOr<ChangeOutcome>>> ApplyChanges(
      const std::vector<DeadlineChange>& changes, absl::Time now);

  // nullopt when the game is unknown or over.
  virtual absl::StatusOr<std::optional<GameClock>> Load(const std::string& game_id) = 0;

  // Records a beat (or a closing connection); returns whether the seat is
  // connected after it. NOT_FOUND: unknown or over game; FAILED_PRECONDITION:
  // not a human seat. A change of the seat's presence schedules a check now.
  virtual absl::StatusOr<bool> Beat(const BeatCommand& command) = 0;

  // Claims up to `limit` timers due at `now`, each until `lease_until`.
  virtual absl::StatusOr<std::vector<DueTimer>> ClaimDue(absl::Time now, absl::Time lease_until,
                                                         int limit) = 0;

  // The claimed move timer is handled: removed, or due again at `retry_at`.
  // Nothing changes if the game was armed again since the claim.
  virtual absl::Status FinishMove(const DueTimer& timer, std::optional<absl::Time> retry_at) = 0;

  // Saves a presence check's outcome and schedules the next one (keeping an
  // earlier one a beat scheduled meanwhile).
  virtual absl::Status SavePresence(const DueTimer& timer, const PresenceUpdate& update) = 0;

  // Drops everything about a game game-state does not know (any more).
  virtual absl::Status Forget(const std::string& game_id) = 0;
};

}  // namespace draughts::clock

#endif  // DRAUGHTS_CLOCK_CLOCK_STORE_H_
