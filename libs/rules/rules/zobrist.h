#pragma once

// Zobrist keys: one fixed pseudo-random 64-bit key per (bit of the layout,
// piece kind) and one for "black to move". The keys are a pure function of
// their index (SplitMix64 of a constant seed), so hashes are identical on
// every run, machine and replica, which repetition detection across
// processes relies on.

#include <array>
#include <cstdint>

#include "rules/setup.h"

namespace draughts::rules {

inline constexpr int kZobristBits = 128;

// Piece kind index: 0 white man, 1 black man, 2 white king, 3 black king.
constexpr int ZobristPiece(Color c, PieceKind k) {
  return static_cast<int>(c) + 2 * static_cast<int>(k);
}

struct ZobristKeys {
  std::array<std::array<std::uint64_t, kZobristBits>, 4> piece;
  std::uint64_t black_to_move;
};

constexpr std::uint64_t SplitMix64(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

constexpr ZobristKeys MakeZobristKeys() {
  ZobristKeys keys{};
  std::uint64_t state = 0x6472617567687473ull;  // "draughts"
  for (auto& kind : keys.piece)
    for (auto& key : kind) key = SplitMix64(state);
  keys.black_to_move = SplitMix64(state);
  return keys;
}

inline constexpr ZobristKeys kZobrist = MakeZobristKeys();

}  // namespace draughts::rules
