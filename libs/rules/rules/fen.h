#pragma once

// Draughts FEN as in PDN 3.0: "W:W31-50:B1-20".
//
//   fen     := turn { ':' side } [ '.' ]
//   turn    := 'W' | 'B'
//   side    := colour [ item { ',' item } ]      colour := 'W' | 'B'
//   item    := [ 'K' ] square [ '-' [ 'K' ] square ]
//
// Whitespace is tolerated between tokens, the two colours may come in either
// order, a colour may be missing or listed with no squares (that side has no
// pieces), and 'K' before a range makes every square of it a king. Letters
// are accepted in either case. The text is checked without a board: square
// numbers only have to be 1..kMaxFenSquare and appear once. Whether they fit
// a given board is checked when the setup becomes a Position.

#include <string>
#include <string_view>

#include "rules/position.h"
#include "rules/result.h"
#include "rules/setup.h"
#include "rules/variant.h"

namespace draughts::rules {

// Larger than any board's playable-square count (12x12 has 72); bounds the
// work a range like "1-99999" could ask for.
inline constexpr int kMaxFenSquare = 255;

Result<PositionSetup> ParseFen(std::string_view text);

// Canonical form: side to move, then White's squares, then Black's, each in
// increasing order; runs of consecutive men collapsed to "a-b", kings listed
// one by one with 'K'. A side without pieces is written as its bare colour
// letter ("B:W:B1-20"). ParseFen(FormatFen(s)) gives s back, pieces sorted.
std::string FormatFen(const PositionSetup& setup);

// Parses and places the pieces on the variant's board: a square beyond the
// board is reported at its offset; the other board checks (a man on its
// own promotion row, too many pieces) come from Position::FromSetup.
Result<Position> ParseFen(const Variant& variant, std::string_view text);
std::string FormatFen(const Position& position);

}  // namespace draughts::rules
