#pragma once

// Slices and the index of a position inside its slice.
//
// A slice holds every position with given numbers of white men, white
// kings, black men and black kings, for both sides to move. Inside it a
// position's index combines four combination ranks (colex order): white
// men over the squares a white man may stand on (all but White's crowning
// row), white kings over every square, then the same for Black. Placements
// that put two pieces on one square get an index too and are stored as
// "invalid": that wastes a little space but makes indexing a few table
// lookups, both ways.
//
// A slice and its colour mirror (the board turned half a turn, colours and
// side to move swapped) hold the same results, so only the canonical one
// of each pair is built and stored; probes mirror the others.

#include <compare>
#include <cstdint>
#include <string>
#include <tuple>
#include <vector>

#include "rules/bitboard.h"
#include "rules/movegen_impl.h"

namespace draughts::egdb {

struct Signature {
  int white_men = 0;
  int white_kings = 0;
  int black_men = 0;
  int black_kings = 0;

  int pieces() const { return white_men + white_kings + black_men + black_kings; }
  int men() const { return white_men + black_men; }
  Signature Mirrored() const { return {black_men, black_kings, white_men, white_kings}; }
  // The one of {this, Mirrored()} that is built and stored.
  bool IsCanonical() const {
    return std::tie(white_men, white_kings) >= std::tie(black_men, black_kings);
  }
  // "2m1k-1m0k": white men and kings, then black.
  std::string Name() const;

  friend auto operator<=>(const Signature&, const Signature&) = default;
};

// Every canonical slice with 2..max_pieces pieces and at least one piece a
// side, in an order where each slice comes after those its captures and
// promotions lead to (fewer pieces, then fewer men).
std::vector<Signature> CanonicalSignatures(int max_pieces);

inline constexpr int kMaxSquares = 50;
inline constexpr int kMaxPiecesPerKind = 8;

// Binomial coefficients C(n, k) for n <= kMaxSquares, k <= kMaxPiecesPerKind.
struct Binomials {
  std::uint64_t c[kMaxSquares + 1][kMaxPiecesPerKind + 1];
  constexpr Binomials() : c{} {
    for (int n = 0; n <= kMaxSquares; ++n) {
      c[n][0] = 1;
      for (int k = 1; k <= kMaxPiecesPerKind; ++k)
        c[n][k] = n == 0 ? 0 : c[n - 1][k - 1] + c[n - 1][k];
    }
  }
};
inline constexpr Binomials kBinomial{};

// The sizes of a slice's four ranks on a board with `squares` playable
// squares and `half` of them per row.
struct SliceShape {
  Signature signature;
  std::uint64_t white_kings = 1;  // placements of each kind
  std::uint64_t black_men = 1;
  std::uint64_t black_kings = 1;
  std::uint64_t size = 1;  // positions per side to move

  SliceShape() = default;
  SliceShape(Signature s, int squares, int half);
};

// Indexing over one board layout (rules/layout.h: 8x8 and 10x10).
template <class L>
struct Indexing {
  using Bits = typename L::Bits;
  using Board = rules::internal::Board<L>;
  static constexpr int kSquares = L::kSquares;
  static constexpr int kHalf = L::kHalf;

  static int DenseOfBit(int bit) { return L::SquareOfBit(bit) - 1; }
  static Bits BitOfDense(int dense) { return rules::BitAt<Bits>(L::BitOfIndex(dense)); }

  static std::uint64_t Rank(Bits set, int offset) {
    std::uint64_t r = 0;
    int k = 0;
    while (set) {
      const int dense = DenseOfBit(rules::LowestBit(set)) - offset;
      set &= set - 1;
      r += kBinomial.c[dense][++k];
    }
    return r;
  }

  static Bits Unrank(std::uint64_t r, int count, int offset, int span) {
    Bits set = 0;
    int c = span;
    for (int k = count; k >= 1; --k) {
      do --c;
      while (kBinomial.c[c][k] > r);
      r -= kBinomial.c[c][k];
      set |= BitOfDense(c + offset);
    }
    return set;
  }

  static std::uint64_t Index(const SliceShape& s, const Board& b) {
    const Bits kings = b.kings;
    std::uint64_t i = Rank(b.white & ~kings, kHalf);
    i = i * s.white_kings + Rank(b.white & kings, 0);
    i = i * s.black_men + Rank(b.black & ~kings, 0);
    i = i * s.black_kings + Rank(b.black & kings, 0);
    return i;
  }

  // False when the index puts two pieces on one square.
  static bool Decode(const SliceShape& s, std::uint64_t index, Board& b) {
    const Signature& g = s.signature;
    const Bits bk = Unrank(index % s.black_kings, g.black_kings, 0, kSquares);
    index /= s.black_kings;
    const Bits bm = Unrank(index % s.black_men, g.black_men, 0, kSquares - kHalf);
    index /= s.black_men;
    const Bits wk = Unrank(index % s.white_kings, g.white_kings, 0, kSquares);
    index /= s.white_kings;
    const Bits wm = Unrank(index, g.white_men, kHalf, kSquares - kHalf);
    if ((bk & bm) || ((bk | bm) & (wk | wm)) || (wk & wm)) return false;
    b.white = wm | wk;
    b.black = bm | bk;
    b.kings = wk | bk;
    return true;
  }

  static Bits MirrorBits(Bits set) {
    Bits out = 0;
    while (set) {
      const int bit = rules::LowestBit(set);
      set &= set - 1;
      out |= rules::BitAt<Bits>(L::kBits - 1 - bit);
    }
    return out;
  }
  // The board turned half a turn with the colours swapped: square s goes
  // to squares + 1 - s, which in the padded layout is bit kBits - 1 - bit.
  static Board Mirror(const Board& b) {
    return {MirrorBits(b.black), MirrorBits(b.white), MirrorBits(b.kings)};
  }

  static Signature SignatureOf(const Board& b) {
    return {rules::PopCount(b.white & ~b.kings), rules::PopCount(b.white & b.kings),
            rules::PopCount(b.black & ~b.kings), rules::PopCount(b.black & b.kings)};
  }
};

}  // namespace draughts::egdb
