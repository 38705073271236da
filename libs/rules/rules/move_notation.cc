#include "rules/move_notation.h"

#include <algorithm>
#include <optional>
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

struct Step {
  int row = 0;
  int column = 0;
};

// The unit step from `a` towards `b` along the line a king flies on, or
// nullopt when they are not on one: a diagonal, or on the full board (where
// pieces move orthogonally) a row or a column.
std::optional<Step> DiagonalStep(BoardSize board, int a, int b) {
  const RowColumn from = SquareToRowColumn(board, a);
  const RowColumn to = SquareToRowColumn(board, b);
  const int rows = to.row - from.row;
  const int columns = to.column - from.column;
  auto sign = [](int x) { return x > 0 ? 1 : x < 0 ? -1 : 0; };
  if (AllSquaresPlayable(board)) {
    if ((rows == 0) == (columns == 0)) return std::nullopt;
    return Step{sign(rows), sign(columns)};
  }
  if (rows == 0 || (rows != columns && rows != -columns)) return std::nullopt;
  return Step{sign(rows), sign(columns)};
}

// Whether `square` lies strictly between `a` and `b` on their diagonal.
bool StrictlyBetween(BoardSize board, int a, int b, int square) {
  const auto step = DiagonalStep(board, a, b);
  if (!step) return false;
  RowColumn at = SquareToRowColumn(board, a);
  const RowColumn end = SquareToRowColumn(board, b);
  while (true) {
    at = {at.row + step->row, at.column + step->column};
    if (at == end) return false;
    if (RowColumnToSquare(board, at) == square) return true;
  }
}

bool OnBoard(BoardSize board, const MoveText& text) {
  for (int square : text.squares) {
    if (!IsValidSquare(board, square)) return false;
  }
  return true;
}

// Whether `text` describes `move`. Either it names every landing, or it
// names some of them in order (at least origin and destination).
//
// A flying king that takes two pieces on one diagonal may land anywhere
// between them; move generators that merge captures of the same pieces keep
// one such landing, so a full path written with another landing on that
// stretch still names the move.
bool FitsPath(BoardSize board, const Move& move, const MoveText& text) {
  const std::vector<int> path = Path(move);
  if (text.squares.front() != path.front() || text.squares.back() != path.back()) return false;
  if (text.squares.size() == path.size()) {
    for (std::size_t i = 1; i + 1 < path.size(); ++i) {
      if (text.squares[i] == path[i]) continue;
      const auto in = DiagonalStep(board, path[i - 1], path[i]);
      const auto out = DiagonalStep(board, path[i], path[i + 1]);
      const bool straight = in && out && in->row == out->row && in->column == out->column;
      if (!straight || !move.is_capture()) return false;
      if (!StrictlyBetween(board, move.captured[i - 1], move.captured[i], text.squares[i])) {
        return false;
      }
    }
    return true;
  }
  if (text.squares.size() > path.size()) return false;
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

std::vector<Move> FittingMoves(BoardSize board, const MoveList& legal, const MoveText& text) {
  std::vector<Move> fits;
  if (text.squares.size() < 2 || !OnBoard(board, text)) return fits;
  for (const Move& move : legal) {
    if (move.is_capture() == text.capture && FitsPath(board, move, text)) fits.push_back(move);
  }
  if (fits.size() > 1) {
    // A written full path that is exactly one move's path wins over moves
    // whose longer paths merely contain it.
    for (const Move& move : fits) {
      if (Path(move) == text.squares) return {move};
    }
  }
  return fits;
}

Result<Move> MatchMove(BoardSize board, const MoveList& legal, const MoveText& text) {
  const std::string written = FormatMoveText(text);
  if (!OnBoard(board, text)) {
    return MakeError("move " + written + " names a square that is not on the board (1-" +
                     std::to_string(SquareCount(board)) + ")");
  }
  const std::vector<Move> fits = FittingMoves(board, legal, text);
  if (fits.size() == 1) return fits.front();
  if (fits.size() > 1) {
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
  return MatchMove(variant.board, LegalMoves(variant, position), text);
}

Result<Move> ParseMove(const Variant& variant, const Position& position, std::string_view text) {
  auto parsed = ParseMoveText(text);
  if (!parsed.ok()) return parsed.error();
  return MatchMove(variant, position, *parsed);
}

}  // namespace draughts::rules
