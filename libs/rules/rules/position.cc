#include "rules/position.h"

#include <algorithm>
#include <string>

#include "rules/layout.h"
#include "rules/move.h"
#include "rules/variant.h"
#include "rules/zobrist.h"

namespace draughts::rules {
namespace {

Wide SquareBit(BoardSize board, int square) {
  return BitAt<Wide>(BitOfSquare(board, square));
}

Wide RowBits(BoardSize board, int row) {
  const int per_row = SquaresPerRow(board);
  Wide m = 0;
  for (int s = row * per_row + 1; s <= (row + 1) * per_row; ++s) m |= SquareBit(board, s);
  return m;
}

std::uint64_t ComputeHash(Color side, Wide white, Wide black, Wide kings) {
  std::uint64_t h = side == Color::kBlack ? kZobrist.black_to_move : 0;
  for (Color c : {Color::kWhite, Color::kBlack}) {
    Wide pieces = c == Color::kWhite ? white : black;
    while (pieces) {
      const int bit = LowestBit(pieces);
      pieces &= pieces - 1;
      const PieceKind kind = (kings >> bit) & 1 ? PieceKind::kKing : PieceKind::kMan;
      h ^= kZobrist.piece[ZobristPiece(c, kind)][bit];
    }
  }
  return h;
}

std::string ColorWord(Color c) {
  return c == Color::kWhite ? "white" : "black";
}

}  // namespace

Position Position::FromBits(BoardSize board, Color side, Wide white, Wide black, Wide kings) {
  Position p;
  p.board_ = board;
  p.side_ = side;
  p.white_ = white;
  p.black_ = black;
  p.kings_ = kings;
  p.hash_ = ComputeHash(side, white, black, kings);
  return p;
}

Position Position::Initial(const Variant& variant) {
  const BoardSize board = variant.board;
  const int n = BoardDimension(board);
  // Clamped so a hand-edited variant cannot make the sides overlap;
  // CheckVariant reports such a value.
  const int gap = std::clamp(variant.empty_back_rows, 0, n / 2 - 1);
  const int rows = std::clamp(variant.initial_rows, 0, n / 2 - 1 - gap);
  Wide white = 0;
  Wide black = 0;
  for (int r = gap; r < gap + rows; ++r) {
    black |= RowBits(board, r);
    white |= RowBits(board, n - 1 - r);
  }
  Position p = FromBits(board, variant.first_to_move, white, black, 0);
  p.king_move_limit_ = static_cast<std::uint8_t>(std::clamp(variant.king_move_limit, 0, 255));
  return p;
}

Result<Position> Position::FromSetup(const Variant& variant, const PositionSetup& setup) {
  if (auto error = CheckVariant(variant)) return *error;
  const BoardSize board = variant.board;
  const int n = BoardDimension(board);
  if (setup.side_to_move != Color::kWhite && setup.side_to_move != Color::kBlack)
    return MakeError("side to move is not a colour");
  Wide white = 0;
  Wide black = 0;
  Wide kings = 0;
  const Wide white_promotion = RowBits(board, 0);
  const Wide black_promotion = RowBits(board, n - 1);
  for (const SetupPiece& piece : setup.pieces) {
    const std::string where = "square " + std::to_string(piece.square);
    if (!IsValidSquare(board, piece.square))
      return MakeError(where + " is off the " + std::to_string(n) + "x" + std::to_string(n) +
                       " board (squares 1-" + std::to_string(SquareCount(board)) + ")");
    if (piece.color != Color::kWhite && piece.color != Color::kBlack)
      return MakeError(where + " has no valid colour");
    if (piece.kind != PieceKind::kMan && piece.kind != PieceKind::kKing)
      return MakeError(where + " has no valid piece kind");
    const Wide bit = SquareBit(board, piece.square);
    if ((white | black) & bit) return MakeError(where + " is listed twice");
    if (piece.kind == PieceKind::kMan) {
      const Wide promotion = piece.color == Color::kWhite ? white_promotion : black_promotion;
      if (promotion & bit)
        return MakeError(where + ": a " + ColorWord(piece.color) +
                         " man cannot stand on its own promotion row");
    } else {
      kings |= bit;
    }
    (piece.color == Color::kWhite ? white : black) |= bit;
  }
  const int limit = variant.MenPerSide();
  for (Color c : {Color::kWhite, Color::kBlack}) {
    const int count = PopCount(c == Color::kWhite ? white : black);
    if (count > limit)
      return MakeError(ColorWord(c) + " has " + std::to_string(count) + " pieces, more than the " +
                       std::to_string(limit) + " a side starts with in " + std::string(variant.id));
  }
  Position p = FromBits(board, setup.side_to_move, white, black, kings);
  p.king_move_limit_ = static_cast<std::uint8_t>(std::clamp(variant.king_move_limit, 0, 255));
  return p;
}

PositionSetup Position::ToSetup() const {
  PositionSetup setup;
  setup.side_to_move = side_;
  for (int s = 1; s <= SquareCount(board_); ++s) {
    if (auto piece = PieceAt(s)) setup.pieces.push_back(*piece);
  }
  return setup;
}

std::optional<SetupPiece> Position::PieceAt(int square) const {
  if (!IsValidSquare(board_, square)) return std::nullopt;
  const Wide bit = SquareBit(board_, square);
  if (!((white_ | black_) & bit)) return std::nullopt;
  return SetupPiece{square, (white_ & bit) ? Color::kWhite : Color::kBlack,
                    (kings_ & bit) ? PieceKind::kKing : PieceKind::kMan};
}

Position Position::Play(const Move& move) const {
  if (!IsValidSquare(board_, move.from) || !IsValidSquare(board_, move.to)) return *this;
  const Wide from = SquareBit(board_, move.from);
  const Wide to = SquareBit(board_, move.to);
  if (!(pieces(side_) & from)) return *this;  // not a piece of the side to move
  Position next = *this;
  Wide& own = side_ == Color::kWhite ? next.white_ : next.black_;
  Wide& opp = side_ == Color::kWhite ? next.black_ : next.white_;
  const int from_bit = BitOfSquare(board_, move.from);
  const int to_bit = BitOfSquare(board_, move.to);
  const bool king = (kings_ & from) != 0;
  const int before = ZobristPiece(side_, king ? PieceKind::kKing : PieceKind::kMan);
  const bool crowned = !king && move.promotes;
  const int after = ZobristPiece(side_, king || crowned ? PieceKind::kKing : PieceKind::kMan);
  std::uint64_t h = hash_ ^ kZobrist.black_to_move;
  h ^= kZobrist.piece[before][from_bit] ^ kZobrist.piece[after][to_bit];
  own &= ~from;
  next.kings_ &= ~from;
  for (int i = 0; i < std::min<int>(move.capture_count, Move::kMaxCaptures); ++i) {
    const int square = move.captured[i];
    if (!IsValidSquare(board_, square)) continue;
    const Wide bit = SquareBit(board_, square);
    if (!(opp & bit)) continue;
    const int cbit = BitOfSquare(board_, square);
    h ^= kZobrist.piece[ZobristPiece(Opponent(side_),
                                     (kings_ & bit) ? PieceKind::kKing : PieceKind::kMan)][cbit];
    opp &= ~bit;
    next.kings_ &= ~bit;
  }
  if ((own | opp) & to) return *this;  // destination taken: not a move of this position
  own |= to;
  if (king || crowned) next.kings_ |= to;
  next.side_ = Opponent(side_);
  next.hash_ = h;
  if (king_move_limit_ > 0) {
    // A king moving again without capturing extends its run; anything else
    // (a man, a capture, another king) starts over.
    const auto me = static_cast<std::size_t>(side_);
    if (king && !move.is_capture()) {
      const bool same = run_square_[me] == move.from && run_moves_[me] > 0;
      next.run_moves_[me] = static_cast<std::uint8_t>(same ? std::min(run_moves_[me] + 1, 255) : 1);
      next.run_square_[me] = move.to;
    } else {
      next.run_moves_[me] = 0;
      next.run_square_[me] = 0;
    }
  }
  return next;
}

}  // namespace draughts::rules
