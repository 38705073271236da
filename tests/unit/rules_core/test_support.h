#pragma once

// Helpers shared by the rules-core tests: positions from FEN text and a
// readable, order-independent form of move lists.

#include <string>
#include <string_view>
#include <vector>

#include "rules/movegen.h"
#include "rules/position.h"
#include "rules/variant.h"

namespace draughts::rules::testing {

Variant GetVariant(std::string_view id);

// Parses FEN and builds the position; fails the test (and returns the
// initial position) on error.
Position FromFen(const Variant& variant, std::string_view fen);

// "32-28", "28x19x10 takes 23,14" (landings in order, captured pieces in
// capture order), with " =K" when the move crowns.
std::string PathText(const Move& move);

// "28x10 takes {14,23}": origin, destination and the captured SET, for
// rule sets where the path is not part of a move's identity.
std::string SetText(const Move& move);

// "28x10 takes 23,14": origin, destination and the captured pieces in
// capture order (CaptureIdentity::kOrder).
std::string OrderText(const Move& move);

// Each move of `moves` through PathText / SetText / OrderText, sorted.
std::vector<std::string> PathTexts(const MoveList& moves);
std::vector<std::string> SetTexts(const MoveList& moves);
std::vector<std::string> OrderTexts(const MoveList& moves);

// The texts that identify moves under the variant's CaptureIdentity.
std::vector<std::string> IdentityTexts(const Variant& variant, const MoveList& moves);

std::vector<std::string> Sorted(std::vector<std::string> texts);

}  // namespace draughts::rules::testing
