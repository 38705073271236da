// The presence rule as pure functions of a GameClock and the time: a seat
// is connected while one of its connections beat within the live window
// (3 heartbeat intervals); an absence longer than abandon_after abandons
// the game (the 2-minute rule, PRODUCT.md "Playing").
#ifndef DRAUGHTS_CLOCK_PRESENCE_RULES_H_
#define DRAUGHTS_CLOCK_PRESENCE_RULES_H_

#include <optional>

#include "absl/time/time.h"
#include "clock/clock_types.h"

namespace draughts::clock {

struct PresenceSettings {
  absl::Duration heartbeat_interval = absl::Seconds(10);
  int missed_beats = 3;
  absl::Duration abandon_after = absl::Minutes(2);

  absl::Duration LiveWindow() const { return heartbeat_interval * missed_beats; }
};

// The latest beat of the seat's open connections; nullopt if none.
std::optional<absl::Time> LastBeat(const GameClock& game, v1::Color color);

bool SeatConnected(const GameClock& game, v1::Color color, absl::Time now,
                   const PresenceSettings& settings);

// When the 2-minute rule ends the seat's game, for a seat away and not yet
// declared abandoned; nullopt otherwise.
std::optional<absl::Time> AbandonDeadline(const GameClock& game, const SeatPresenceState& seat,
                                          absl::Time now, const PresenceSettings& settings);

// When a presence check is next needed: a connection that would expire, an
// unreported change, an absence reaching the limit. nullopt: none.
std::optional<absl::Time> NextPresenceCheck(const GameClock& game, absl::Time now,
                                            const PresenceSettings& settings);

}  // namespace draughts::clock

#endif  // DRAUGHTS_CLOCK_PRESENCE_RULES_H_
