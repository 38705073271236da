#pragma once

// Static evaluation on the full 8x8 board (rules::FullLayout8, Turkish
// draughts), the Evaluator specialisation for that layout: the diagonal
// formations of evaluator.h mean nothing where pieces move along rows and
// columns. Terms: material, the advance of each man (more in the ending),
// central columns, a man covered from behind (an opponent jumping it
// forwards would land there) or on both sides, a man one step from
// crowning with the way clear, king centralisation and mobility, man
// mobility. Every term is mirrored for the two colours (a position and its
// colour-swapped, half-turned image score opposite).

#include <algorithm>
#include <array>
#include <cstdint>

#include "engine/eval_params.h"
#include "rules/bitboard.h"
#include "rules/full_layout.h"
#include "rules/movegen_impl.h"

namespace draughts::engine {

template <class L>
class Evaluator;

template <>
class Evaluator<rules::FullLayout8> {
 public:
  using L = rules::FullLayout8;
  using Bits = L::Bits;
  using Board = rules::internal::Board<L>;

  explicit Evaluator(const EvalParams& params) : p_(params) { BuildTables(); }

  const EvalParams& params() const { return p_; }

  // From the point of view of the side to move.
  int Evaluate(const Board& b, bool white_to_move) const {
    const int white_view = EvaluateForWhite(b);
    return white_to_move ? white_view : -white_view;
  }

  int EvaluateForWhite(const Board& b) const {
    const Bits empty = b.Empty();
    const Bits wm = b.white & ~b.kings;
    const Bits bm = b.black & ~b.kings;
    const Bits wk = b.white & b.kings;
    const Bits bk = b.black & b.kings;
    const int wm_n = rules::PopCount(wm);
    const int bm_n = rules::PopCount(bm);
    const int wk_n = rules::PopCount(wk);
    const int bk_n = rules::PopCount(bk);
    if (wm_n + bm_n == 0 && wk_n == bk_n) return 0;  // equal kings alone cannot win

    const int phase = std::min(64, 64 * (wm_n + bm_n) / std::max(1, 2 * p_.men_per_side));
    int mg = 0;
    int eg = 0;
    int both = p_.man * (wm_n - bm_n) + p_.king * (wk_n - bk_n);
    SideTerms<true>(b, wm, wk, empty, mg, eg, both);
    int mg_b = 0, eg_b = 0, both_b = 0;
    SideTerms<false>(b, bm, bk, empty, mg_b, eg_b, both_b);
    mg -= mg_b;
    eg -= eg_b;
    both -= both_b;
    return both + (mg * phase + eg * (64 - phase)) / 64;
  }

 private:
  template <bool kWhite>
  void SideTerms(const Board& b, Bits men, Bits kings, Bits empty, int& mg, int& eg,
                 int& both) const {
    constexpr int c = kWhite ? 0 : 1;
    constexpr rules::Direction kForward = kWhite ? rules::kUp : rules::kDown;
    constexpr rules::Direction kBackward = kWhite ? rules::kDown : rules::kUp;
    const Bits own = kWhite ? b.white : b.black;
    const Bits opp = kWhite ? b.black : b.white;

    for (Bits m = men; m;) {
      const int bit = rules::LowestBit(m);
      m &= m - 1;
      mg += man_mg_[c][bit];
      eg += man_eg_[c][bit];
    }
    for (Bits k = kings; k;) {
      const int bit = rules::LowestBit(k);
      k &= k - 1;
      both += king_sq_[bit];
    }

    // An opponent jumps a man forwards (its forwards) onto the square
    // behind it, and sideways onto the square beside it: covered squares
    // (own pieces or the board's edge) make the man safe that way.
    const Bits behind_covered = L::Step<kForward>(own) | back_row_[c];
    const Bits sides_covered = (L::Step<rules::kRight>(own) | L::kLeftColumn) &
                               (L::Step<rules::kLeft>(own) | L::kRightColumn);
    mg += p_.protected_man * rules::PopCount(men & behind_covered);
    mg += p_.supported * rules::PopCount(men & sides_covered);

    // A man one step from crowning with the square ahead free and no
    // opponent beside it to take it first.
    const Bits about_to_crown = men & last_but_one_[c] & L::Step<kBackward>(empty) &
                                ~L::Step<rules::kLeft>(opp) & ~L::Step<rules::kRight>(opp);
    both += runaway_ * rules::PopCount(about_to_crown);

    const int man_moves = rules::PopCount(L::Step<kForward>(men) & empty) +
                          rules::PopCount(L::Step<rules::kLeft>(men) & empty) +
                          rules::PopCount(L::Step<rules::kRight>(men) & empty);
    both += p_.man_mobility * man_moves;
    if (kings) {
      both += p_.king_mobility *
              (KingSteps<rules::kUp>(kings, empty) + KingSteps<rules::kDown>(kings, empty) +
               KingSteps<rules::kLeft>(kings, empty) + KingSteps<rules::kRight>(kings, empty));
    }
  }

  template <rules::Direction D>
  int KingSteps(Bits kings, Bits empty) const {
    Bits ray = L::Step<D>(kings) & empty;
    int n = 0;
    while (ray) {
      n += rules::PopCount(ray);
      ray = L::Step<D>(ray) & empty;
    }
    return n;
  }

  void BuildTables() {
    runaway_ = (p_.king - p_.man) * p_.runaway_percent / 100 / 2;
    for (int c = 0; c < 2; ++c) {
      back_row_[c] = L::RowMask(c == 0 ? 7 : 0);
      last_but_one_[c] = L::RowMask(c == 0 ? 1 : 6);
    }
    for (int bit = 0; bit < 64; ++bit) {
      const int row = bit / 8;
      const int column = bit % 8;
      const int centre = std::min(column, 7 - column);  // 0 on a side column
      king_sq_[bit] =
          static_cast<std::int16_t>(p_.king_centre * std::min(centre, std::min(row, 7 - row)));
      for (int c = 0; c < 2; ++c) {
        const int advance = c == 0 ? 7 - row : row;  // 0 on its own back row
        int mg = p_.advance_mg * advance + p_.centre_mg * std::min(centre, 2) / 2;
        if (centre == 0) mg += p_.edge_man_mg;
        int eg = p_.advance_eg * advance;
        if (advance >= 4) eg += p_.advance_eg * (advance - 3);
        man_mg_[c][bit] = static_cast<std::int16_t>(mg);
        man_eg_[c][bit] = static_cast<std::int16_t>(eg);
      }
    }
  }

  EvalParams p_;
  int runaway_ = 0;
  std::array<std::array<std::int16_t, 64>, 2> man_mg_{};
  std::array<std::array<std::int16_t, 64>, 2> man_eg_{};
  std::array<std::int16_t, 64> king_sq_{};
  std::array<Bits, 2> back_row_{};
  std::array<Bits, 2> last_but_one_{};
};

}  // namespace draughts::engine
