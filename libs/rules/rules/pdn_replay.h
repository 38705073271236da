#pragma once

// PDN games through the rules: replaying a read game move by move (each
// must be legal) and turning a game record back into a PDN game, in the
// notation of the rule set's federation (square_notation.h).
//
// Replaying reads each move in numbers or coordinates (see pdn.h) and is
// lenient where the meaning is not in doubt:
//   - a capture written with '-' or a plain move with 'x' (some English
//     sources) is read as the move that fits;
//   - a move that fits several legal moves (a partial capture path) is the
//     one with which the most of the following moves replay;
//   - Italian and Spanish numbers are read in the federation's numbering,
//     else (when the game then replays) in the library's;
//   - moves that go on after the library's draw rules ended the game (the
//     players' rules may differ) are replayed without those draw rules.
// Each guess is a note.

#include <string>
#include <vector>

#include "rules/game.h"
#include "rules/pdn.h"
#include "rules/result.h"
#include "rules/variant.h"

namespace draughts::rules {

// The built-in rule set whose PDN game type the GameType tag names (20
// international, 21 English, 27 Canadian), or `fallback` when there is no
// GameType tag. An unknown or unreadable GameType is an error.
Result<Variant> VariantForPdn(const PdnGame& game, const Variant& fallback);

// Starts from the FEN tag if there is one, else from the variant's initial
// position, and plays every move. Errors name the move by number and
// notation and carry its offset and line:column in the PDN text. The
// result written in the PDN is not checked against the final position
// (resignations and agreed draws leave no trace in the moves).
Result<GameRecord> ReplayPdnGame(const PdnGame& game, const Variant& fallback);

struct PdnReplay {
  GameRecord record;
  // How the game ended: as the moves end it when they do, else the PDN's
  // result (a resignation or a loss on time leaves no trace in the moves).
  PdnResult result = PdnResult::kUnknown;
  std::vector<std::string> notes;  // each guess made, with where
};

// ReplayPdnGame with the result and the notes.
Result<PdnReplay> ReplayPdn(const PdnGame& game, const Variant& fallback);

// GameType (when the variant has one), FEN (when the start is not the
// initial position), the moves in the federation's notation (short form
// unless ambiguous; PdnMove::text, and PdnMove::move when they are numbers)
// and the result. `tags` are written first, in order; GameType, FEN and
// Result given there are overwritten.
PdnGame ToPdnGame(const GameRecord& record, std::vector<PdnTag> tags = {});

PdnResult ToPdnResult(const Outcome& outcome);

}  // namespace draughts::rules
