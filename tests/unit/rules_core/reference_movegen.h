#pragma once

// A deliberately simple second move generator for differential tests: a
// square-by-square walk over (row, column) coordinates with no bitboards,
// no templates and no shared code with the real generator beyond the square
// numbering. Slow and obvious; it only has to be right.

#include <string>
#include <vector>

#include "rules/position.h"
#include "rules/variant.h"

namespace draughts::rules::testing {

// Legal moves as PathText (CaptureIdentity::kPath), SetText (kPieceSet) or
// OrderText (kOrder)
// strings, sorted, in the format of test_support.h.
std::vector<std::string> ReferenceMoves(const Variant& variant, const Position& position);

}  // namespace draughts::rules::testing
