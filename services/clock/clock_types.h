// The clock's view of a game, in its own words: what ArmDeadline and the
// deadlines stream set (whose turn, until when), the presence of each human
// seat, and the timers a replica claims when they fall due. Plain values:
// the stores fill them, the logic reads them, nothing here knows Redis.
#ifndef DRAUGHTS_CLOCK_CLOCK_TYPES_H_
#define DRAUGHTS_CLOCK_CLOCK_TYPES_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/time/time.h"
#include "draughts/v1/common.pb.h"

namespace draughts::clock {

// One game's deadline as ArmDeadline (or a ClockUpdate) sets it.
struct ArmCommand {
  std::string game_id;
  int64_t game_version = 0;
  int32_t expected_ply = 0;
  v1::Color color = v1::COLOR_UNSPECIFIED;
  // nullopt: no time limit (the presence rule still applies).
  std::optional<absl::Time> deadline;
  std::vector<v1::Color> human_seats;
};

enum class ArmOutcome {
  kArmed,
  // The same game_version was armed already: nothing changed.
  kRepeated,
};

// One open WebSocket of a seated player, as the gateway's beats describe it.
struct Connection {
  v1::Color color = v1::COLOR_UNSPECIFIED;
  std::string id;
  absl::Time last_beat;
};

// A human seat's presence as the clock has handled it so far.
struct SeatPresenceState {
  v1::Color color = v1::COLOR_UNSPECIFIED;
  // What game-state was last told (RecordPresence); nullopt: nothing yet,
  // which game-state reads as "not connected".
  std::optional<bool> reported;
  // Since when the seat has been away: its disconnection, or the game's
  // first arming if it never connected. Meaningful while not connected.
  absl::Time away_since = absl::InfinitePast();
  // DeclareAbandoned was answered for the current absence.
  bool abandoned = false;
  // The last heartbeat of any of its connections.
  std::optional<absl::Time> last_seen;
};

// Everything the clock keeps about one ongoing game.
struct GameClock {
  std::string game_id;
  int64_t game_version = 0;
  int32_t expected_ply = 0;
  v1::Color color = v1::COLOR_UNSPECIFIED;
  std::optional<absl::Time> deadline;
  std::vector<SeatPresenceState> seats;  // the human seats only
  std::vector<Connection> connections;
};

// A timer a replica claimed: nobody else fires it until `lease_until`; if
// this replica dies before finishing it, it falls due again then.
struct DueTimer {
  enum class Kind {
    // The move deadline: an automatic move is due.
    kMove,
    // A presence check: a connection expired, a seat came or went, or an
    // absence reached the abandon limit.
    kPresence,
  };
  Kind kind = Kind::kMove;
  std::string game_id;
  absl::Time due;
  absl::Time lease_until;
  // kMove only: the armed deadline's game (as armed when claimed).
  int64_t game_version = 0;
  int32_t expected_ply = 0;
  v1::Color color = v1::COLOR_UNSPECIFIED;
};

}  // namespace draughts::clock

#endif  // DRAUGHTS_CLOCK_CLOCK_TYPES_H_
