// The checks acting calls share, each with the status code and message
// game.proto prescribes, in the order it prescribes (malformed request,
// unknown game, wrong token, game over, stale ply, not allowed now).
#ifndef DRAUGHTS_GAME_STATE_REQUEST_CHECKS_H_
#define DRAUGHTS_GAME_STATE_REQUEST_CHECKS_H_

#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "draughts/v1/game.pb.h"
#include "game_state/stored_game.pb.h"

namespace draughts::game_state {

// Move text is refused unread beyond this (game.proto).
inline constexpr std::size_t kMaxMoveTextBytes = 200;

// INVALID_ARGUMENT: malformed game_id or a negative expected_ply.
absl::Status CheckGameAndPly(std::string_view game_id, int expected_ply);
// INVALID_ARGUMENT: an acting call without a player_token. A missing
// required field is a malformed request (fix it); only a token that is
// there but belongs to no seat of the game is PERMISSION_DENIED.
absl::Status CheckTokenPresent(std::string_view player_token);
// INVALID_ARGUMENT: a colour that is neither white nor black.
absl::Status CheckColor(v1::Color color, std::string_view field = "color");
// INVALID_ARGUMENT: empty, longer than kMaxMoveTextBytes, or not notation.
absl::Status CheckMoveText(std::string_view move);

// The seat `token` belongs to; PERMISSION_DENIED for a token that is no
// seat's (callers refuse an empty one first, with CheckTokenPresent). A seat the computer plays for
// an absent person also accepts its stand-in token.
absl::StatusOr<v1::Color> AuthenticateSeat(const StoredGame& game, std::string_view token);

// FAILED_PRECONDITION naming the result once the game is over.
absl::Status CheckOngoing(const v1::GameState& state);
// ABORTED unless expected_ply is the game's ply.
absl::Status CheckPly(const v1::GameState& state, int expected_ply);

// "White", "Black", or the rule set's names ("Red" in English checkers).
std::string ColorName(const v1::GameState& state, v1::Color color);
// "White wins (resignation)", "draw (threefold repetition)".
std::string DescribeResult(const v1::GameState& state);

}  // namespace draughts::game_state

#endif  // DRAUGHTS_GAME_STATE_REQUEST_CHECKS_H_
