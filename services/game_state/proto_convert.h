// Conversions between the rules library's values and the draughts.v1
// messages: colours, moves, outcomes.
#ifndef DRAUGHTS_GAME_STATE_PROTO_CONVERT_H_
#define DRAUGHTS_GAME_STATE_PROTO_CONVERT_H_

#include <optional>

#include "draughts/v1/common.pb.h"
#include "draughts/v1/events.pb.h"
#include "draughts/v1/game.pb.h"
#include "rules/game.h"
#include "rules/move.h"
#include "rules/movegen.h"

namespace draughts::game_state {

v1::Color ToProto(rules::Color color);
// nullopt for COLOR_UNSPECIFIED and unknown values.
std::optional<rules::Color> FromProto(v1::Color color);
v1::Color OpponentOf(v1::Color color);
// The result "`winner` wins" (white or black).
v1::GameResult WinFor(v1::Color winner);

// A legal move for ListLegalMoves: the notation is the full path, which
// SubmitMove always accepts.
v1::LegalMove ToLegalMove(const rules::Move& move);

// The move as played from a position whose legal moves are `legal`
// (notation as the rules library writes it); `position_after` gives the FEN.
v1::MovePlayed DescribeMove(const rules::MoveList& legal, const rules::Move& move,
                            rules::Color color, const rules::Position& position_after);

// The result and reason of a finished game (ONGOING / UNSPECIFIED while it
// goes on). Rule draws name the rule that applied (25-, 16-, 5- or 40-move).
struct ProtoOutcome {
  v1::GameResult result = v1::GAME_RESULT_ONGOING;
  v1::ResultReason reason = v1::RESULT_REASON_UNSPECIFIED;
};
ProtoOutcome ToProto(const rules::GameRecord& record);

}  // namespace draughts::game_state

#endif  // DRAUGHTS_GAME_STATE_PROTO_CONVERT_H_
