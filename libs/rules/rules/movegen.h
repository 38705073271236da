#pragma once

// Legal move generation for any Variant. Every function here is exact: the
// moves are the complete legal moves of the rule set (mandatory and
// majority capture, maximal sequences, no piece jumped twice, pieces removed
// at the end, promotion rules, duplicate handling per capture_identity).
//
// Moves come in a deterministic order: captures before quiet moves, then by
// origin square bit order. Callers that show moves should not rely on it.
//
// Search code that needs raw speed can use the templated generator in
// movegen_impl.h directly (bit sets, compact moves, no allocation). It sees
// only the pieces: Variant::king_move_limit (Frisian), which depends on the
// moves before, is applied here, on the Position's record of them.
//
// Preconditions: CheckVariant(variant) passes (always true for built-in
// rule sets and their table-option copies), and `position` was made for
// variant.board; otherwise no move is generated.

#include <vector>

#include "rules/move.h"
#include "rules/position.h"
#include "rules/variant.h"

namespace draughts::rules {

using MoveList = std::vector<Move>;

// Clears `moves` and fills it with every legal move.
void GenerateMoves(const Variant& variant, const Position& position, MoveList& moves);
MoveList LegalMoves(const Variant& variant, const Position& position);

// Clears `moves` and fills it with the legal captures only (with
// mandatory_capture off: every capture; quiet moves are left out).
void GenerateCaptures(const Variant& variant, const Position& position, MoveList& moves);

// Whether the side to move can capture something (cheap: no sequence search).
bool HasCapture(const Variant& variant, const Position& position);

// The number of legal moves, equal to LegalMoves(...).size() but much
// cheaper when there is no capture.
int CountLegalMoves(const Variant& variant, const Position& position);

// Whether a legal move has the same origin, destination and set of captured
// squares (and, for CaptureIdentity::kPath, the same landings) as `move`:
// for checking a move built elsewhere against the rules.
bool IsLegalMove(const Variant& variant, const Position& position, const Move& move);

}  // namespace draughts::rules
