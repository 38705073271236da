#pragma once

// Bit sets over the padded square layout of layout.h. 8x8 and 10x10 fit in
// 64 bits; 12x12 needs 77, so the hot code is templated on the word type and
// the public Position stores the widest one.

#include <bit>
#include <cstdint>

namespace draughts::rules {

// A GCC/Clang extension, but both compilers we support have it and it keeps
// the 12x12 code identical to the 64-bit code.
__extension__ typedef unsigned __int128 Wide;

inline int PopCount(std::uint64_t b) {
  return std::popcount(b);
}
inline int PopCount(Wide b) {
  return std::popcount(static_cast<std::uint64_t>(b)) +
         std::popcount(static_cast<std::uint64_t>(b >> 64));
}

// Index of the lowest set bit. Precondition: b != 0.
inline int LowestBit(std::uint64_t b) {
  return std::countr_zero(b);
}
inline int LowestBit(Wide b) {
  const auto low = static_cast<std::uint64_t>(b);
  return low != 0 ? std::countr_zero(low)
                  : 64 + std::countr_zero(static_cast<std::uint64_t>(b >> 64));
}

template <typename Bits>
constexpr Bits BitAt(int index) {
  return static_cast<Bits>(1) << index;
}

// Clears the lowest set bit and returns it as a one-bit set.
template <typename Bits>
inline Bits PopLowest(Bits& b) {
  const Bits lowest = b & (~b + 1);
  b ^= lowest;
  return lowest;
}

}  // namespace draughts::rules
