// The game a bot is asked to move in, rebuilt with the rules library from
// what a BotJob or a ChooseMoveRequest carries: rule set, options, starting
// FEN and the moves since. The record (not only the position) goes to the
// engine so it sees repetitions and the draw-rule counters.
#ifndef DRAUGHTS_BOT_POSITION_REQUEST_H_
#define DRAUGHTS_BOT_POSITION_REQUEST_H_

#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "draughts/v1/common.pb.h"
#include "google/protobuf/repeated_ptr_field.h"
#include "rules/game.h"

namespace draughts::bot {

// INVALID_ARGUMENT for an unknown rule set or option, a bad FEN (empty:
// the rule set's start), or a move that is not legal where it is played
// (the message names it and its number); FAILED_PRECONDITION when the side
// to move has no legal move (the game is over).
absl::StatusOr<rules::GameRecord> BuildGameRecord(
    std::string_view variant_id, const v1::VariantOptions& options, std::string_view fen,
    const google::protobuf::RepeatedPtrField<std::string>& moves);

}  // namespace draughts::bot

#endif  // DRAUGHTS_BOT_POSITION_REQUEST_H_
