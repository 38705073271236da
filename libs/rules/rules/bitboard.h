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
#if defined(__POPCNT__) || !(defined(__x86_64__) || defined(__i386__))
  return std::popcount(b);
#else
  // Without -mpopcnt, std::popcount is a call into libgcc; this inline
  // SWAR count is several times faster in the move generator.
  b = b - ((b >> 1) & 0x5555555555555555ull);
  b = (b & 0x3333333333333333ull) + ((b >> 2) & 0x3333333333333333ull);
  b = (b + (b >> 4)) & 0x0F0F0F0F0F0F0F0Full;
  return static_cast<int>((b * 0x0101010101010101ull) >> 56);
#endif
}
inline int PopCount(Wide b) {
  return PopCount(static_cast<std::uint64_t>(b)) + PopCount(static_cast<std::uint64_t>(b >> 64));
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
