#include "clock/presence_rules.h"

#include <algorithm>

namespace draughts::clock {

std::optional<absl::Time> LastBeat(const GameClock& game, v1::Color color) {
  std::optional<absl::Time> last;
  for (const Connection& connection : game.connections) {
    if (connection.color != color) continue;
    if (!last.has_value() || connection.last_beat > *last) last = connection.last_beat;
  }
  return last;
}

bool SeatConnected(const GameClock& game, v1::Color color, absl::Time now,
                   const PresenceSettings& settings) {
  const std::optional<absl::Time> last = LastBeat(game, color);
  // Same rule as the store's scripts: live while now < last beat + window.
  return last.has_value() && *last + settings.LiveWindow() > now;
}

std::optional<absl::Time> AbandonDeadline(const GameClock& game, const SeatPresenceState& seat,
                                          absl::Time now, const PresenceSettings& settings) {
  if (seat.abandoned || SeatConnected(game, seat.color, now, settings)) return std::nullopt;
  absl::Time away = seat.away_since;
  if (seat.reported.value_or(false)) {
    // Gone but not reported yet: away since its last connection expired.
    const std::optional<absl::Time> last = seat.last_seen;
    away = last.has_value() ? std::min(now, *last + settings.LiveWindow()) : now;
  }
  if (away == absl::InfinitePast()) away = now;
  return away + settings.abandon_after;
}

std::optional<absl::Time> NextPresenceCheck(const GameClock& game, absl::Time now,
                                            const PresenceSettings& settings) {
  std::optional<absl::Time> next;
  auto consider = [&](absl::Time t) {
    if (!next.has_value() || t < *next) next = t;
  };
  for (const SeatPresenceState& seat : game.seats) {
    const bool connected = SeatConnected(game, seat.color, now, settings);
    const bool reported = seat.reported.value_or(false);
    if (connected != reported) {
      consider(now);
    } else if (connected) {
      consider(*LastBeat(game, seat.color) + settings.LiveWindow());
    } else if (!seat.abandoned) {
      const absl::Time away = seat.away_since == absl::InfinitePast() ? now : seat.away_since;
      consider(away + settings.abandon_after);
    }
  }
  return next;
}

}  // namespace draughts::clock
