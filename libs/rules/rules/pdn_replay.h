#pragma once

// PDN games through the rules: replaying a read game move by move (each
// must be legal) and turning a game record back into a PDN game.

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

// GameType (when the variant has one), FEN (when the start is not the
// initial position), the moves in notation (short form unless ambiguous)
// and the result. `tags` are written first, in order; GameType, FEN and
// Result given there are overwritten.
PdnGame ToPdnGame(const GameRecord& record, std::vector<PdnTag> tags = {});

PdnResult ToPdnResult(const Outcome& outcome);

}  // namespace draughts::rules
