#pragma once

// A position described by square numbers only, independent of any board
// geometry: what a FEN string says. Position::FromSetup turns it into the
// bitboard form for a given Variant and checks it fits that board.

#include <cstdint>
#include <vector>

namespace draughts::rules {

// White is the side whose men start on the highest-numbered squares (the
// bottom of the diagram) and move towards square 1; Black starts on square 1
// upwards. Which of them moves first, and what they are called on screen
// (Red, for instance), is a property of the Variant.
enum class Color : std::uint8_t { kWhite = 0, kBlack = 1 };

constexpr Color Opponent(Color c) {
  return c == Color::kWhite ? Color::kBlack : Color::kWhite;
}

enum class PieceKind : std::uint8_t { kMan = 0, kKing = 1 };

struct SetupPiece {
  int square = 0;  // 1-based playable-square number as written in notation
  Color color = Color::kWhite;
  PieceKind kind = PieceKind::kMan;

  friend bool operator==(const SetupPiece&, const SetupPiece&) = default;
};

struct PositionSetup {
  Color side_to_move = Color::kWhite;
  std::vector<SetupPiece> pieces;  // any order; squares are unique once validated

  friend bool operator==(const PositionSetup&, const PositionSetup&) = default;
};

}  // namespace draughts::rules
