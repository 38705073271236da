#pragma once

// Moves in notation, against the legal moves of a position.
//
// Reading: a short form "from-to" / "fromxto" is accepted when exactly one
// legal move of that kind goes from `from` to `to`. When several captures
// share them (different pieces taken on the way), the short form is
// ambiguous and the error lists each candidate with every landing square.
// A longer capture path "28x19x10" selects the capture whose landings
// contain the written squares in that order (normally all of them). A flying
// king taking two pieces along one diagonal may be written landing on any
// square between them, since that is the same move.
//
// Writing: the short form when no other legal move of the same kind shares
// origin and destination, else the full path.

#include <string>
#include <string_view>
#include <vector>

#include "rules/move.h"
#include "rules/move_text.h"
#include "rules/movegen.h"
#include "rules/position.h"
#include "rules/result.h"
#include "rules/variant.h"

namespace draughts::rules {

// Every legal move that `text` describes, as MatchMove reads it; when a
// written full path is exactly one move's path, that move alone.
std::vector<Move> FittingMoves(BoardSize board, const MoveList& legal, const MoveText& text);

// `legal` are the legal moves of a position on `board`.
Result<Move> MatchMove(BoardSize board, const MoveList& legal, const MoveText& text);
Result<Move> MatchMove(const Variant& variant, const Position& position, const MoveText& text);
// Parses then matches; syntax errors carry the offset in `text`.
Result<Move> ParseMove(const Variant& variant, const Position& position, std::string_view text);

// Every landing square: "28x19x10", or "32-28" for a quiet move.
std::string FormatMovePath(const Move& move);
MoveText ToMoveText(const Move& move, bool full_path);

// `move` should be one of `legal`; a move that is not is written in full.
std::string FormatMove(const MoveList& legal, const Move& move);
std::string FormatMove(const Variant& variant, const Position& position, const Move& move);

}  // namespace draughts::rules
