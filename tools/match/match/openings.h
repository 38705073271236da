#pragma once

// Opening positions for a match: each is played twice, colours swapped, so
// an unbalanced opening favours neither engine.
//
// An opening is a start position plus moves played from it before the
// engines take over (the moves stay in the game record and the PDN). The
// built-in ones are short move sequences from the initial position; a file
// gives one opening per line, either a FEN ("W:W31-50:B1-20") or moves from
// the initial position in PDN notation ("32-28 18-23"); blank lines and
// lines starting with '#' are skipped.

#include <string>
#include <string_view>
#include <vector>

#include "rules/move.h"
#include "rules/position.h"
#include "rules/result.h"
#include "rules/variant.h"

namespace draughts::match {

struct Opening {
  std::string name;  // the moves as written, or the FEN
  rules::Position start;
  std::vector<rules::Move> moves;
};

// `count` openings for the rule set: the hand-picked lists for
// international draughts and English checkers (common first moves; for
// English the classic three-move openings), and for other rule sets the
// two-ply sequences from the initial position spread evenly over all of
// them. Fewer than `count` only when the rule set has fewer sequences.
rules::Result<std::vector<Opening>> BuiltInOpenings(const rules::Variant& variant, int count);

// Parses an openings file's text; errors name the line.
rules::Result<std::vector<Opening>> ParseOpenings(const rules::Variant& variant,
                                                  std::string_view text);

// One opening from moves (PDN notation) played from the initial position.
rules::Result<Opening> OpeningFromMoves(const rules::Variant& variant, std::string_view moves);

}  // namespace draughts::match
