#pragma once

// The move generator of the full 8x8 board (FullLayout8): men and kings
// move and capture along rows and columns only (Turkish draughts). It is
// the Generator specialisation for that layout, so everything built on
// Generator<L, kWhite> (movegen.cc, perft, the engine's search) plays the
// orthogonal games unchanged; the Variant row picks it by its board.
//
// What it reads from RuleFlags:
// - men_capture_backward: men also jump backwards (Turkish men do not);
//   men always move one square forward or sideways and jump forward or
//   sideways.
// - flying_kings, king_lands_behind: a king moves any distance and takes
//   from afar, landing on any free square beyond (or only right behind);
//   a short king steps and jumps one square.
// - remove_at_once: the pieces taken leave the board as they are jumped,
//   so their squares can be crossed and landed on again (Turkish). A king
//   may not then reverse straight back between two captures unless
//   king_turns_back (the Turkish 180-degree rule).
// - majority (rank = pieces taken) or free choice, promotion in capture,
//   mandatory capture, the duplicate rule of the sink.
// The value rule and the capture priorities (with_king, most_kings,
// earliest_king) are not supported here; CheckVariant refuses them on this
// board.

#include <cstdint>

#include "rules/bitboard.h"
#include "rules/full_layout.h"
#include "rules/movegen_impl.h"

namespace draughts::rules::internal {

template <bool kWhite>
class Generator<FullLayout8, kWhite> {
 public:
  using L = FullLayout8;
  using Bits = L::Bits;
  static constexpr Bits kPromotion = L::PromotionRow(kWhite);
  static constexpr Direction kForward = kWhite ? kUp : kDown;
  static constexpr Direction kBackward = kWhite ? kDown : kUp;

  Generator(const Board<L>& b, const RuleFlags& rules)
      : rules_(rules),
        own_(rules.king_ends_game && b.kings ? Bits{0} : (kWhite ? b.white : b.black)),
        opp_(kWhite ? b.black : b.white),
        empty_(b.Empty()),
        men_(own_ & ~b.kings),
        kings_(own_ & b.kings),
        man_prey_(rules.men_capture_kings ? opp_ : opp_ & ~b.kings),
        at_once_(rules.remove_at_once ? ~Bits{0} : Bits{0}) {}

  // ---- cheap queries -------------------------------------------------

  bool HasCapture() const {
    if (MenJumpers()) return true;
    if (!kings_) return false;
    if (!rules_.flying_kings) {
      return (KingJumpers<kUp>() | KingJumpers<kDown>() | KingJumpers<kLeft>() |
              KingJumpers<kRight>()) != 0;
    }
    return FlyingKingCanCapture<kUp>() || FlyingKingCanCapture<kDown>() ||
           FlyingKingCanCapture<kLeft>() || FlyingKingCanCapture<kRight>();
  }

  int CountQuiet() const {
    int n = PopCount(L::Step<kForward>(men_) & empty_) + PopCount(L::Step<kLeft>(men_) & empty_) +
            PopCount(L::Step<kRight>(men_) & empty_);
    if (kings_) {
      n += CountKingSteps<kUp>() + CountKingSteps<kDown>() + CountKingSteps<kLeft>() +
           CountKingSteps<kRight>();
    }
    return n;
  }

  // ---- generation ----------------------------------------------------

  template <class Sink>
  void Captures(Sink& sink) {
    Bits jumpers = MenJumpers();
    while (jumpers) {
      from_ = PopLowest(jumpers);
      dfs_empty_ = empty_ | from_;
      ManJump(sink, from_, 0, 0);
    }
    Bits kings = kings_;
    while (kings) {
      from_ = PopLowest(kings);
      dfs_empty_ = empty_ | from_;
      KingJump(sink, from_, 0, 0, kUp);
    }
  }

  template <class Sink>
  void QuietMoves(Sink& sink) const {
    MenSteps<kForward>(sink);
    MenSteps<kLeft>(sink);
    MenSteps<kRight>(sink);
    Bits kings = kings_;
    while (kings) {
      const Bits k = PopLowest(kings);
      KingSteps<kUp>(sink, k);
      KingSteps<kDown>(sink, k);
      KingSteps<kLeft>(sink, k);
      KingSteps<kRight>(sink, k);
    }
  }

  // Every legal move; returns whether captures were generated.
  template <class Sink>
  bool All(Sink& sink) {
    if (HasCapture()) {
      Captures(sink);
      if (rules_.mandatory_capture) return true;
    }
    QuietMoves(sink);
    return false;
  }

 private:
  // ---- bit-parallel helpers -------------------------------------------

  template <Direction D>
  Bits MenJumpersTo() const {
    constexpr Direction R = Reverse(D);
    return men_ & L::Step<R>(man_prey_ & L::Step<R>(empty_));
  }
  Bits MenJumpers() const {
    Bits j = MenJumpersTo<kForward>() | MenJumpersTo<kLeft>() | MenJumpersTo<kRight>();
    if (rules_.men_capture_backward) j |= MenJumpersTo<kBackward>();
    return j;
  }
  template <Direction D>
  Bits KingJumpers() const {
    constexpr Direction R = Reverse(D);
    return kings_ & L::Step<R>(opp_ & L::Step<R>(empty_));
  }

  template <Direction D>
  bool FlyingKingCanCapture() const {
    // Every king's ray at once; `hit` gathers the first piece of each ray
    // when it is an opponent's.
    Bits ray = L::Step<D>(kings_);
    Bits hit = 0;
    while (ray) {
      hit |= ray & opp_;
      ray = L::Step<D>(ray & empty_);
    }
    return (L::Step<D>(hit) & empty_) != 0;
  }

  template <Direction D>
  int CountKingSteps() const {
    Bits ray = L::Step<D>(kings_) & empty_;
    if (!rules_.flying_kings) return PopCount(ray);
    int n = 0;
    while (ray) {
      n += PopCount(ray);
      ray = L::Step<D>(ray) & empty_;
    }
    return n;
  }

  template <Direction D, class Sink>
  void MenSteps(Sink& sink) const {
    constexpr Direction R = Reverse(D);
    Bits targets = L::Step<D>(men_) & empty_;
    while (targets) {
      const Bits to = PopLowest(targets);
      sink.Quiet(L::Step<R>(to), to, (to & kPromotion) != 0, false);
    }
  }

  template <Direction D, class Sink>
  void KingSteps(Sink& sink, Bits king) const {
    Bits to = L::Step<D>(king) & empty_;
    while (to) {
      sink.Quiet(king, to, false, true);
      if (!rules_.flying_kings) return;
      to = L::Step<D>(to) & empty_;
    }
  }

  // ---- capture sequences ---------------------------------------------

  template <class Sink>
  void Record(Sink& sink, Bits to, Bits captured, int count, bool promotes, bool by_king) {
    const std::uint64_t rank = rules_.majority ? static_cast<std::uint64_t>(count) : 0;
    sink.Capture(from_, to, captured, count, rank, promotes, by_king, Trail{landings_, taken_});
  }
  template <class Sink>
  void RecordKing(Sink& sink, Bits to, Bits captured, int count) {
    Record(sink, to, captured, count, crowned_, !crowned_);
  }

  template <class Sink>
  void Note(int n, Bits over, Bits land) {
    if constexpr (Sink::kKeepsPath) {
      taken_[n] = static_cast<std::uint8_t>(LowestBit(over));
      landings_[n] = static_cast<std::uint8_t>(LowestBit(land));
    }
  }

  // The squares a piece may cross or land on, `captured` taken so far: the
  // empty ones and, when pieces leave as they are jumped, theirs.
  Bits FreeSquares(Bits captured) const { return dfs_empty_ | (captured & at_once_); }

  template <class Sink>
  void ManJump(Sink& sink, Bits sq, Bits captured, int n) {
    if (n == Move::kMaxCaptures)
      return Record(sink, sq, captured, n, (sq & kPromotion) != 0, false);
    bool extended = ManJumpTo<kForward>(sink, sq, captured, n);
    extended |= ManJumpTo<kLeft>(sink, sq, captured, n);
    extended |= ManJumpTo<kRight>(sink, sq, captured, n);
    if (rules_.men_capture_backward) extended |= ManJumpTo<kBackward>(sink, sq, captured, n);
    if (!extended && n > 0) Record(sink, sq, captured, n, (sq & kPromotion) != 0, false);
  }

  template <Direction D, class Sink>
  bool ManJumpTo(Sink& sink, Bits sq, Bits captured, int n) {
    const Bits over = L::Step<D>(sq) & man_prey_ & ~captured;
    if (!over) return false;
    const Bits land = L::Step<D>(over) & FreeSquares(captured);
    if (!land) return false;
    Note<Sink>(n, over, land);
    if ((land & kPromotion) &&
        (rules_.promotion_ends_capture || rules_.promotion_continues_as_king)) {
      if (rules_.promotion_ends_capture) {
        Record(sink, land, captured | over, n + 1, true, false);
      } else {
        crowned_ = true;
        KingJump(sink, land, captured | over, n + 1, D);
        crowned_ = false;
      }
    } else {
      ManJump(sink, land, captured | over, n + 1);
    }
    return true;
  }

  bool MayGo(Direction d, Direction came, int n) const {
    return n == 0 || rules_.king_turns_back || d != Reverse(came);
  }

  // The piece a king on `sq` can take along d, or 0.
  Bits Target(Bits sq, Direction d, Bits captured) const {
    const Bits free = FreeSquares(captured);
    Bits s = L::Step(sq, d);
    if (rules_.flying_kings) {
      while (s & free) s = L::Step(s, d);
    }
    const Bits over = s & opp_ & ~captured;
    if (!over || !(L::Step(over, d) & free)) return 0;
    return over;
  }

  bool CanContinue(Bits sq, Bits captured, Direction came) const {
    for (Direction d : {kUp, kDown, kLeft, kRight}) {
      if (MayGo(d, came, 1) && Target(sq, d, captured)) return true;
    }
    return false;
  }

  // Captures of the king on `sq` (or of a man crowned there mid-capture),
  // n pieces taken so far, having arrived along `came`. Any free square
  // beyond the piece taken may be the landing, but when the capture can go
  // on from some of them it must go on: only those remain.
  template <class Sink>
  void KingJump(Sink& sink, Bits sq, Bits captured, int n, Direction came) {
    if (n == Move::kMaxCaptures) return RecordKing(sink, sq, captured, n);
    bool extended = false;
    for (Direction d : {kUp, kDown, kLeft, kRight}) {
      if (!MayGo(d, came, n)) continue;
      const Bits over = Target(sq, d, captured);
      if (!over) continue;
      extended = true;
      const Bits now_captured = captured | over;
      const Bits free = FreeSquares(now_captured) & ~over;
      taken_[n] = static_cast<std::uint8_t>(LowestBit(over));
      Bits all = 0;
      Bits continuing = 0;
      for (Bits l = L::Step(over, d) & free; l; l = L::Step(l, d) & free) {
        all |= l;
        if (CanContinue(l, now_captured, d)) continuing |= l;
        if (rules_.king_lands_behind || !rules_.flying_kings) break;
      }
      Bits lands = continuing ? continuing : all;
      while (lands) {
        const Bits l = PopLowest(lands);
        landings_[n] = static_cast<std::uint8_t>(LowestBit(l));
        if (continuing) {
          KingJump(sink, l, now_captured, n + 1, d);
        } else {
          RecordKing(sink, l, now_captured, n + 1);
        }
      }
    }
    if (!extended && n > 0) RecordKing(sink, sq, captured, n);
  }

  const RuleFlags rules_;
  const Bits own_;
  const Bits opp_;
  const Bits empty_;
  const Bits men_;
  const Bits kings_;
  const Bits man_prey_;  // the pieces a man may jump
  const Bits at_once_;   // all ones with CapturedRemoval::kAtOnce, else none

  // State of the capture search in progress (as in the diagonal generator).
  Bits from_ = 0;
  Bits dfs_empty_ = 0;
  bool crowned_ = false;
  std::uint8_t landings_[Move::kMaxCaptures + 1] = {};
  std::uint8_t taken_[Move::kMaxCaptures + 1] = {};
};

}  // namespace draughts::rules::internal
