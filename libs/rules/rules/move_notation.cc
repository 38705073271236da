#include "rules/move_notation.h"

#include <algorithm>
#include <vector>

namespace draughts::rules {
namespace {

// Beyond this many, error messages summarise instead of listing every move.
constexpr std::size_t kMaxListedMoves = 12;

// The origin followed by every landing square.
std::vector<int> Path(const Move& move) {
  std::vector<int> path{move.from};
  for (std::uint8_t square : move.landing_squares()) path.push_back(square);
  return path;
}

// Whether `text` lists squares of `move` in order, starting at its origin
// and ending on its destination.
bool FitsPath(const Move& move, const MoveText& text) {
  const std::vector<int> path = Path(move);
  if (text.squares.front() != path.front() || text.squares.back() != path.back()) return false;
  std::size_t next = 1;
  for (std::size_t i = 1; i + 1 < text.squares.size(); ++i) {
    while (next + 1 < path.size() && path[next] != text.squares[i]) ++next;
    if (next + 1 >= path.size()) return false;
    ++next;
  }
  return true;
}

bool SameShortForm(const Move& a, const Move& b) {
  return a.from == b.from && a.to == b.to && a.is_capture() == b.is_capture();
}

std::string ListMoves(const std::vector<Move>& moves, bool full_paths, const MoveList& legal) {
  std::string out;
  for (std::size_t i = 0; i < moves.size() && i < kMaxListedMoves; ++i) {
    if (i > 0) out += ", ";
    out += full_paths ? FormatMovePath(moves[i]) : FormatMove(legal, moves[i]);
  }
  if (moves.size() > kMaxListedMoves) {
    out += " and " + std::to_string(moves.size() - kMaxListedMoves) + " more";
  }
  return out;
}

}  // namespace

std::string FormatMovePath(const Move& move) {
  return FormatMoveText(ToMoveText(move, true));
}

MoveText ToMoveText(const Move& move, bool full_path) {
  MoveText text;
  text.capture = move.is_capture();
  text.squares = full_path ? Path(move) : std::vector<int>{move.from, move.to};
  return text;
}

std::string FormatMove(const MoveList& legal, const Move& move) {
  int sharing = 0;
  bool listed = false;
  for (const Move& other : legal) {
    if (SameShortForm(other, move)) ++sharing;
    listed = listed || other == move;
  }
  const bool short_form = listed && sharing == 1;
  return FormatMoveText(ToMoveText(move, !short_form));
}

std::string FormatMove(const Variant& variant, const Position& position, const Move& move) {
  return FormatMove(LegalMoves(variant, position), move);
}

Result<Move> MatchMove(const MoveList& legal, const MoveText& text) {
  const std::string written = FormatMoveText(text);
  std::vector<Move> fits;
  for (const Move& move : legal) {
    if (move.is_capture() == text.capture && FitsPath(move, text)) fits.push_back(move);
  }
  if (fits.size() == 1) return fits.front();
  if (fits.size() > 1) {
    // A written full path that is exactly one move's path wins over moves
    // whose longer paths merely contain it.
    for (const Move& move : fits) {
      if (Path(move) == text.squares) return move;
    }
    return MakeError("move " + written +
                     " is ambiguous; write the full path: " + ListMoves(fits, true, legal));
  }
  if (legal.empty()) return MakeError("move " + written + " is not legal: there is no legal move");
  // Explain the most likely mistake before falling back to the list.
  std::vector<Move> other_kind;
  for (const Move& move : legal) {
    if (move.is_capture() != text.capture && move.from == text.from() && move.to == text.to()) {
      other_kind.push_back(move);
    }
  }
  if (!other_kind.empty()) {
    return MakeError("move " + written + " is written as a " +
                     (text.capture ? "capture but is not one: " : "plain move but captures: ") +
                     ListMoves(other_kind, false, legal));
  }
  const bool all_capture =
      std::all_of(legal.begin(), legal.end(), [](const Move& m) { return m.is_capture(); });
  if (!text.capture && all_capture) {
    std::vector<Move> captures(legal.begin(), legal.end());
    return MakeError("move " + written + " is not legal: a capture is compulsory (" +
                     ListMoves(captures, false, legal) + ")");
  }
  std::vector<Move> all(legal.begin(), legal.end());
  return MakeError("move " + written +
                   " is not legal; legal moves: " + ListMoves(all, false, legal));
}

Result<Move> MatchMove(const Variant& variant, const Position& position, const MoveText& text) {
  return MatchMove(LegalMoves(variant, position), text);
}

Result<Move> ParseMove(const Variant& variant, const Position& position, std::string_view text) {
  auto parsed = ParseMoveText(text);
  if (!parsed.ok()) return parsed.error();
  return MatchMove(variant, position, *parsed);
}

}  // namespace draughts::rules
