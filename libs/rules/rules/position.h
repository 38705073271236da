#pragma once

// A position: who is to move and where the pieces are, as bit sets in the
// padded layout of its board (layout.h). A small value: playing a move
// returns a new Position and leaves this one unchanged.
//
// The bit sets are Wide for every board so one type serves all rule sets;
// the move generator narrows them to 64 bits for 8x8 and 10x10.

#include <array>
#include <cstdint>
#include <optional>

#include "rules/bitboard.h"
#include "rules/geometry.h"
#include "rules/result.h"
#include "rules/setup.h"

namespace draughts::rules {

struct Move;
struct Variant;

class Position {
 public:
  // The start position of the rule set: `initial_rows` rows of men each,
  // Black on squares 1.., White on the highest squares, `first_to_move` to move.
  static Position Initial(const Variant& variant);

  // Checks the setup against the board: squares 1..N, each at most once, no
  // man on its own promotion row, at most MenPerSide() pieces per side.
  static Result<Position> FromSetup(const Variant& variant, const PositionSetup& setup);

  // Pieces in increasing square order.
  PositionSetup ToSetup() const;

  // Plays a move generated for this position (movegen.h). A move that was
  // not generated for it gives an unspecified but valid position; squares
  // outside the board are ignored.
  Position Play(const Move& move) const;

  BoardSize board() const { return board_; }
  Color side_to_move() const { return side_; }

  Wide white() const { return white_; }
  Wide black() const { return black_; }
  Wide kings() const { return kings_; }
  Wide pieces(Color c) const { return c == Color::kWhite ? white_ : black_; }
  Wide occupied() const { return white_ | black_; }

  int CountPieces(Color c) const { return PopCount(pieces(c)); }
  int CountKings(Color c) const { return PopCount(pieces(c) & kings_); }
  int CountMen(Color c) const { return PopCount(pieces(c) & ~kings_); }

  // The piece on a square (1-based), or nullopt if empty or off the board.
  std::optional<SetupPiece> PieceAt(int square) const;

  // Zobrist hash of the pieces and the side to move (zobrist.h); equal
  // positions have equal hashes on every run and machine.
  std::uint64_t hash() const { return hash_; }

  // Variant::king_move_limit bookkeeping (Frisian): the king of `side`
  // that made the last moves of that side without capturing, and how many
  // in a row (0: none; counts start at 0 from a setup, which carries none).
  struct KingRun {
    int square = 0;
    int moves = 0;
    friend bool operator==(const KingRun&, const KingRun&) = default;
  };
  KingRun king_run(Color side) const {
    const auto i = static_cast<std::size_t>(side);
    return {run_square_[i], run_moves_[i]};
  }
  // Whether the king on `square` may not move now without capturing.
  bool KingMoveBarred(int square) const {
    const KingRun run = king_run(side_);
    return king_move_limit_ > 0 && run.square == square && run.moves >= king_move_limit_ &&
           CountMen(side_) > 0;
  }

  friend bool operator==(const Position& a, const Position& b) {
    return a.board_ == b.board_ && a.side_ == b.side_ && a.white_ == b.white_ &&
           a.black_ == b.black_ && a.kings_ == b.kings_ && a.run_square_ == b.run_square_ &&
           a.run_moves_ == b.run_moves_;
  }

  // For the templated fast paths (movegen_impl.h) and tests; does not check
  // consistency (disjoint colours, kings a subset of the pieces).
  static Position FromBits(BoardSize board, Color side, Wide white, Wide black, Wide kings);

 private:
  Wide white_ = 0;
  Wide black_ = 0;
  Wide kings_ = 0;
  std::uint64_t hash_ = 0;
  BoardSize board_ = BoardSize::k10x10;
  Color side_ = Color::kWhite;
  std::uint8_t king_move_limit_ = 0;  // Variant::king_move_limit, 0 = not tracked
  std::array<std::uint8_t, 2> run_square_{};
  std::array<std::uint8_t, 2> run_moves_{};
};

}  // namespace draughts::rules
