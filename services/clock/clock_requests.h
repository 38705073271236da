// ArmDeadline requests and deadlines stream entries turned into the
// store's commands, with the checks clock.proto documents. One place, so
// the RPC and the stream follow exactly the same rules.
#ifndef DRAUGHTS_CLOCK_CLOCK_REQUESTS_H_
#define DRAUGHTS_CLOCK_CLOCK_REQUESTS_H_

#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "clock/clock_types.h"
#include "draughts/v1/clock.pb.h"
#include "draughts/v1/events.pb.h"

namespace draughts::clock {

// Game ids end up in Redis keys: 1-64 bytes.
absl::Status CheckGameId(std::string_view game_id);

// INVALID_ARGUMENT as documented for ArmDeadline.
absl::StatusOr<ArmCommand> ArmCommandFrom(const v1::ArmDeadlineRequest& request, absl::Time now);

// A ClockUpdate's command: an ArmCommand, or (game_over) nullopt meaning
// cancel. INVALID_ARGUMENT for an update no game-state writes.
absl::StatusOr<std::optional<ArmCommand>> ArmCommandFrom(const v1::ClockUpdate& update,
                                                         absl::Time now);

}  // namespace draughts::clock

#endif  // DRAUGHTS_CLOCK_CLOCK_REQUESTS_H_
