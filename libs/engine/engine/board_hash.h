#pragma once

// Zobrist hashing of the generator's boards, equal to rules::Position::hash()
// for the same position (same keys, same bit layout), so hashes from a
// rules::GameRecord can be compared with positions inside the search.

#include <cstdint>

#include "rules/bitboard.h"
#include "rules/movegen_impl.h"
#include "rules/zobrist.h"

namespace draughts::engine {

template <class L>
std::uint64_t HashBoard(const rules::internal::Board<L>& b, bool white_to_move) {
  using rules::Color;
  using rules::PieceKind;
  std::uint64_t h = white_to_move ? 0 : rules::kZobrist.black_to_move;
  for (int c = 0; c < 2; ++c) {
    const Color color = c == 0 ? Color::kWhite : Color::kBlack;
    for (auto pieces = c == 0 ? b.white : b.black; pieces;) {
      const int bit = rules::LowestBit(pieces);
      pieces &= pieces - 1;
      const bool king = ((b.kings >> bit) & 1) != 0;
      h ^= rules::kZobrist
               .piece[rules::ZobristPiece(color, king ? PieceKind::kKing : PieceKind::kMan)][bit];
    }
  }
  return h;
}

// The hash after `m` is played by the side to move of `before` (`h`).
template <class L>
std::uint64_t HashAfter(std::uint64_t h, const rules::internal::Board<L>& before,
                        const rules::internal::CompactMove<L>& m, bool white_to_move) {
  using rules::Color;
  using rules::PieceKind;
  const Color mover = white_to_move ? Color::kWhite : Color::kBlack;
  const Color other = rules::Opponent(mover);
  const auto& keys = rules::kZobrist;
  h ^= keys.black_to_move;
  const PieceKind was = m.by_king ? PieceKind::kKing : PieceKind::kMan;
  const PieceKind now = m.by_king || m.promotes ? PieceKind::kKing : PieceKind::kMan;
  h ^= keys.piece[rules::ZobristPiece(mover, was)][rules::LowestBit(m.from)];
  h ^= keys.piece[rules::ZobristPiece(mover, now)][rules::LowestBit(m.to)];
  for (auto taken = m.captured; taken;) {
    const int bit = rules::LowestBit(taken);
    taken &= taken - 1;
    const bool king = ((before.kings >> bit) & 1) != 0;
    h ^= keys.piece[rules::ZobristPiece(other, king ? PieceKind::kKing : PieceKind::kMan)][bit];
  }
  return h;
}

}  // namespace draughts::engine
