#pragma once

// A 32-bit name for a move of the generator, for the transposition table,
// killers and root bookkeeping: origin and destination bits plus a 16-bit
// fingerprint of the captured set. Two different moves of one position
// could only share a key if their captured sets collide in 16 bits; a key
// is only ever used to pick which generated move to try first, so such a
// collision costs ordering quality, never legality.

#include <cstdint>

#include "rules/bitboard.h"
#include "rules/movegen_impl.h"

namespace draughts::engine {

using MoveKey = std::uint32_t;
inline constexpr MoveKey kNoMove = 0;

template <class L>
MoveKey KeyOf(const rules::internal::CompactMove<L>& m) {
  std::uint64_t captured = static_cast<std::uint64_t>(m.captured) ^
                           static_cast<std::uint64_t>(static_cast<rules::Wide>(m.captured) >> 64);
  captured *= 0x9E3779B97F4A7C15ull;
  const auto fingerprint = static_cast<std::uint32_t>(captured >> 48);
  const auto from = static_cast<std::uint32_t>(rules::LowestBit(m.from));
  const auto to = static_cast<std::uint32_t>(rules::LowestBit(m.to));
  // +1 keeps every real move different from kNoMove.
  return ((fingerprint << 16) | (from << 8) | to) + 1;
}

inline int FromBitOf(MoveKey key) {
  return static_cast<int>(((key - 1) >> 8) & 0xFF);
}
inline int ToBitOf(MoveKey key) {
  return static_cast<int>((key - 1) & 0xFF);
}

}  // namespace draughts::engine
