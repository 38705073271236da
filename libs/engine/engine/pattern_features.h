#pragma once

// The features of the learned (pattern) evaluation on the diagonal 8x8 and
// 10x10 boards, shared by the engine (pattern_evaluator.h) and the trainer
// (tools/train), so both read a position the same way.
//
// The board is covered by overlapping 4x4 windows whose top-left corner is
// on an even row and an even column (16 windows on 10x10, 9 on 8x8); each
// holds 8 playable squares, every one empty, an own man or an opponent man
// (kings count as empty: terms of their own cover them), so a window has
// 3^8 = 6561 states, each with its own learned weight per window and game
// phase. Kings have a weight per square they stand on, a bonus for having
// one at all, and the count difference. In the ghost-square layout
// (rules/layout.h) the two squares of a window on one row are adjacent
// bits, so a window's index is four shifts per colour and a base-3 table,
// with no PEXT.
//
// Both colours use the same weights: black's windows are read on the board
// turned half a turn (a bit reversal in this layout) with the colours
// swapped, and subtracted, so a position and its colour-swapped mirror
// image always get opposite scores.

#include <array>
#include <cstdint>
#include <cstdlib>
#include <type_traits>

#include "rules/bitboard.h"
#include "rules/geometry.h"
#include "rules/layout.h"
#include "rules/movegen_impl.h"

namespace draughts::engine::pattern {

inline constexpr int kWindowSquares = 8;
inline constexpr int kWindowStates = 6561;  // 3^8

// Weights after the pattern tables, in this order (each for the opening
// and the ending phase): a man and a king more than the opponent, the
// hand-set evaluation (evaluator.h) scaled by value / kClassicScale, having
// a king when the opponent has none (the first king is worth more than the
// next), and the balance of the men between the wings (|black's skew| -
// |white's skew|, a skew being the sum of each man's column offset from the
// board's centre, in half columns) scaled by value / kBalanceScale.
// A king-square table follows the scalars: one weight per square, read from
// each side's own side of the board.
enum Scalar : int {
  kManDiff = 0,
  kKingDiff = 1,
  kClassic = 2,
  kFirstKing = 3,
  kBalance = 4,
  kScalarCount = 5
};
inline constexpr int kClassicScale = 1024;
inline constexpr int kBalanceScale = 16;
// Files of the first layout stop after kClassic (no king terms, no
// balance); they are read with those weights at 0 (pattern_weights.h).
inline constexpr int kLegacyScalarCount = 3;
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
  // Weights: per window and state an (opening, ending) pair, then the
  // scalars, then the king squares.
  static constexpr int kPatternWeights = kWindows * kWindowStates * 2;
  static constexpr int kKingSquareWeights = kPatternWeights + 2 * kScalarCount;
  static constexpr int kWeightCount = kKingSquareWeights + 2 * L::kSquares;
  static constexpr int kLegacyWeightCount = kPatternWeights + 2 * kLegacyScalarCount;

  // The squares of each column, for the men's skew.
  static constexpr std::array<Bits, L::kSize> kColumn = [] {
    std::array<Bits, L::kSize> columns{};
    for (int square = 1; square <= L::kSquares; ++square) {
      columns[rules::SquareToRowColumn(L::kBoard, square).column] |=
          rules::BitAt<Bits>(L::BitOfSquare(square));
    }
    return columns;
  }();

  // Sum over `men` of (2 * column - (size - 1)): negative when they lean
  // to the left wing.
  static int Skew(Bits men) {
    int skew = 0;
    for (int c = 0; c < L::kSize; ++c) {
      skew += (2 * c - (L::kSize - 1)) * rules::PopCount(men & kColumn[c]);
    }
    return skew;
  }

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
  int first_king = 0;  // (white has a king) - (black has a king)
  int balance = 0;     // |black's skew| - |white's skew|
  // The kings, black's on the board turned half a turn, so that both are
  // read from their own side (king-square weights).
  typename L::Bits white_kings = 0;
  typename L::Bits black_kings_turned = 0;
};

// Each king's square index (0-based) from its own side.
template <class L, class Visit>
void ForEachKingSquare(typename L::Bits kings, Visit&& visit) {
  while (kings != 0) visit(L::kSquareOfBit[rules::LowestBit(rules::PopLowest(kings))] - 1);
}

// Positions the patterns know nothing about (no man left) or where the
// hand-set evaluation's draw knowledge must decide (a side with a single
// piece): the pattern evaluation returns the hand-set score there, and the
// trainer skips them.
inline bool ClassicOnly(int white_men, int white_kings, int black_men, int black_kings) {
  return white_men + black_men == 0 || white_men + white_kings <= 1 || black_men + black_kings <= 1;
}

// `king_and_balance` false leaves first_king, balance and the king sets at
// 0, for weights that give those terms nothing (they then cost nothing).
template <class L>
Features<L> ExtractFeatures(const rules::internal::Board<L>& b, int men_per_side,
                            bool king_and_balance = true) {
  using S = Shape<L>;
  Features<L> f;
  const auto wm = b.white & ~b.kings;
  const auto bm = b.black & ~b.kings;
  const int wm_n = rules::PopCount(wm);
  const int bm_n = rules::PopCount(bm);
  f.man_diff = wm_n - bm_n;
  const auto wk = b.white & b.kings;
  const auto bk = b.black & b.kings;
  f.king_diff = rules::PopCount(wk) - rules::PopCount(bk);
  if (king_and_balance) {
    f.first_king = (wk != 0 ? 1 : 0) - (bk != 0 ? 1 : 0);
    f.balance = std::abs(S::Skew(bm)) - std::abs(S::Skew(wm));
    f.white_kings = wk;
    f.black_kings_turned = S::Turn(bk);
  }
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
