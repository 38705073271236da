#pragma once

// The features of the learned (pattern) evaluation on the diagonal 8x8 and
// 10x10 boards, shared by the engine (pattern_evaluator.h) and the trainer
// (tools/train), so both read a position the same way.
//
// The board is covered by overlapping 4x4 windows whose top-left corner is
// on an even row and an even column (16 windows on 10x10, 9 on 8x8); each
// holds 8 playable squares, every one empty, an own man or an opponent man
// (kings count as empty: material terms cover them), so a window has
// 3^8 = 6561 states, each with its own learned weight per window and game
// phase. In the ghost-square layout (rules/layout.h) the two squares of a
// window on one row are adjacent bits, so a window's index is four shifts
// per colour and a base-3 table, with no PEXT.
//
// Both colours use the same weights: black's windows are read on the board
// turned half a turn (a bit reversal in this layout) with the colours
// swapped, and subtracted, so a position and its colour-swapped mirror
// image always get opposite scores.

#include <array>
#include <cstdint>
#include <type_traits>

#include "rules/bitboard.h"
#include "rules/layout.h"
#include "rules/movegen_impl.h"

namespace draughts::engine::pattern {

inline constexpr int kWindowSquares = 8;
inline constexpr int kWindowStates = 6561;  // 3^8

// Weights after the pattern tables, in this order (each for the opening
// and the ending phase): a man and a king more than the opponent, and the
// hand-set evaluation (evaluator.h) scaled by value / kClassicScale.
enum Scalar : int { kManDiff = 0, kKingDiff = 1, kClassic = 2, kScalarCount = 3 };
inline constexpr int kClassicScale = 1024;
// The phase runs from 64 (every man on the board) to 0 (none).
inline constexpr int kPhaseMax = 64;

template <class L>
inline constexpr bool kHasPatterns =
    std::is_same_v<L, rules::Layout8> || std::is_same_v<L, rules::Layout10>;

template <class L>
struct Shape {
  static_assert(kHasPatterns<L>);
  using Bits = typename L::Bits;
  static constexpr int kBands = (L::kSize - 2) / 2;  // window rows (and columns) 0, 2, .., N-4
  static constexpr int kWindows = kBands * kBands;
  // Weights: per window and state an (opening, ending) pair, then the scalars.
  static constexpr int kPatternWeights = kWindows * kWindowStates * 2;
  static constexpr int kWeightCount = kPatternWeights + 2 * kScalarCount;

  // The bit of the window's left square on each of its four rows: rows
  // 2*band_row .. +3, squares band_column and band_column+1 of each row
  // (on either row parity the dark squares of columns c0..c0+3 are the
  // row's squares c0/2 and c0/2+1).
  static constexpr std::array<std::array<int, 4>, kWindows> kRowShift = [] {
    std::array<std::array<int, 4>, kWindows> shifts{};
    for (int br = 0; br < kBands; ++br) {
      for (int bc = 0; bc < kBands; ++bc) {
        for (int k = 0; k < 4; ++k) {
          shifts[br * kBands + bc][k] = L::BitOfIndex((2 * br + k) * L::kHalf + bc);
        }
      }
    }
    return shifts;
  }();

  // Base 3 value of an 8-bit mask: bit i counts 3^i.
  static constexpr std::array<std::uint16_t, 256> kTernary = [] {
    std::array<std::uint16_t, 256> t{};
    for (int m = 0; m < 256; ++m) {
      int v = 0, p = 1;
      for (int i = 0; i < 8; ++i, p *= 3) v += ((m >> i) & 1) * p;
      t[m] = static_cast<std::uint16_t>(v);
    }
    return t;
  }();

  static int WindowIndex(int window, Bits own, Bits opp) {
    const auto& s = kRowShift[window];
    const unsigned own8 =
        static_cast<unsigned>(((own >> s[0]) & 3) | (((own >> s[1]) & 3) << 2) |
                              (((own >> s[2]) & 3) << 4) | (((own >> s[3]) & 3) << 6));
    const unsigned opp8 =
        static_cast<unsigned>(((opp >> s[0]) & 3) | (((opp >> s[1]) & 3) << 2) |
                              (((opp >> s[2]) & 3) << 4) | (((opp >> s[3]) & 3) << 6));
    return kTernary[own8] + 2 * kTernary[opp8];
  }

  // The board turned half a turn: square s becomes kSquares + 1 - s, which
  // in the ghost layout is bit b -> kBits - 1 - b.
  static Bits Turn(Bits b) {
    std::uint64_t x = b;
    x = ((x >> 1) & 0x5555555555555555ull) | ((x & 0x5555555555555555ull) << 1);
    x = ((x >> 2) & 0x3333333333333333ull) | ((x & 0x3333333333333333ull) << 2);
    x = ((x >> 4) & 0x0F0F0F0F0F0F0F0Full) | ((x & 0x0F0F0F0F0F0F0F0Full) << 4);
    x = __builtin_bswap64(x);
    return x >> (64 - L::kBits);
  }
};

// What the evaluation reads of one position.
template <class L>
struct Features {
  std::array<std::uint16_t, Shape<L>::kWindows> white_index{};  // white's view (added)
  std::array<std::uint16_t, Shape<L>::kWindows> black_index{};  // black's view (subtracted)
  int phase = 0;                                                // 0..kPhaseMax
  int man_diff = 0;                                             // white minus black
  int king_diff = 0;
};

// Positions the patterns know nothing about (no man left) or where the
// hand-set evaluation's draw knowledge must decide (a side with a single
// piece): the pattern evaluation returns the hand-set score there, and the
// trainer skips them.
inline bool ClassicOnly(int white_men, int white_kings, int black_men, int black_kings) {
  return white_men + black_men == 0 || white_men + white_kings <= 1 || black_men + black_kings <= 1;
}

template <class L>
Features<L> ExtractFeatures(const rules::internal::Board<L>& b, int men_per_side) {
  using S = Shape<L>;
  Features<L> f;
  const auto wm = b.white & ~b.kings;
  const auto bm = b.black & ~b.kings;
  const int wm_n = rules::PopCount(wm);
  const int bm_n = rules::PopCount(bm);
  f.man_diff = wm_n - bm_n;
  f.king_diff = rules::PopCount(b.white & b.kings) - rules::PopCount(b.black & b.kings);
  const int men = wm_n + bm_n;
  f.phase = men >= 2 * men_per_side ? kPhaseMax : kPhaseMax * men / (2 * men_per_side);
  const auto bm_turned = S::Turn(bm);
  const auto wm_turned = S::Turn(wm);
  for (int w = 0; w < S::kWindows; ++w) {
    f.white_index[w] = static_cast<std::uint16_t>(S::WindowIndex(w, wm, bm));
    f.black_index[w] = static_cast<std::uint16_t>(S::WindowIndex(w, bm_turned, wm_turned));
  }
  return f;
}

}  // namespace draughts::engine::pattern
