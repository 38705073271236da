// Games turned into what the replay board shows (draughts.v1.Replay: every
// position and every move in the federation's notation), from the archive's
// record or from an uploaded PDN file read by the rules library's
// recovering reader. Pure: no I/O.
#ifndef DRAUGHTS_GATEWAY_HISTORY_REPLAY_H_
#define DRAUGHTS_GATEWAY_HISTORY_REPLAY_H_

#include <cstddef>
#include <string_view>

#include "absl/status/statusor.h"
#include "draughts/v1/events.pb.h"
#include "draughts/v1/web_history.pb.h"
#include "rules/game.h"

namespace draughts::gateway {

// An uploaded file's games are answered up to this many; the rest are
// reported as failures (the answer has to stay a reasonable size).
inline constexpr int kMaxUploadedGames = 200;

// Every position and move of `record`.
v1::Replay ReplayOf(const rules::GameRecord& record);

// The archived game played again from its start: INVALID_ARGUMENT when the
// record does not replay (unknown rule set, an illegal move).
absl::StatusOr<rules::GameRecord> ReplayRecord(const v1::ResultRecord& record);

// Every game of a PDN text: those that replay with their moves, those that
// do not with the reason, and those that cannot be read with where.
v1::PdnUploadResult ReadUploadedPdn(std::string_view text);

}  // namespace draughts::gateway

#endif  // DRAUGHTS_GATEWAY_HISTORY_REPLAY_H_
