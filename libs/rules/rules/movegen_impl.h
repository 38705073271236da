#pragma once

// The templated move generator behind movegen.h and perft.h, public so the
// engine can use it directly in its hot loops: everything is templated on
// the board layout (layout.h: 64-bit words for 8x8 and 10x10, 128-bit for
// 12x12; the full 8x8 board of full_layout.h has its own generator in
// orthogonal_movegen.h) and on the side to move, so forward directions and promotion rows
// are compile-time constants. Rule parameters are runtime flags (RuleFlags)
// that stay constant during a search, so their branches predict perfectly.
//
// Moves reach a Sink, which decides what to keep (Sink::kKeepsPath says
// whether it reads the trail, so the search can skip recording it):
//   sink.Capture(from, to, captured, count, rank, promotes, by_king, trail)
//   sink.Quiet(from, to, promotes, by_king)
// `from`, `to` and `captured` are one-bit / many-bit sets; `trail` gives the
// bit indexes of the landings and of the captured pieces in capture order,
// for sinks that keep the path; `rank` orders captures by the precedence
// rules of the variant. Sinks apply precedence and duplicate rules
// (CaptureFilter below).

#include <cstdint>
#include <cstring>
#include <memory>

#include "rules/bitboard.h"
#include "rules/layout.h"
#include "rules/move.h"
#include "rules/position.h"
#include "rules/variant.h"

namespace draughts::rules::internal {

// The Variant fields the generator reads, flattened.
struct RuleFlags {
  bool men_capture_backward = true;
  bool men_capture_kings = true;
  bool flying_kings = true;
  bool majority = true;
  bool promotion_ends_capture = false;
  bool promotion_continues_as_king = false;
  bool dedupe_by_set = true;
  bool straight_once = false;  // CaptureIdentity::kOrder
  bool mandatory_capture = true;
  // A king lands right behind the piece it takes, pieces leave the board as
  // they are jumped, or a king may turn back: the general king search.
  bool king_lands_behind = false;
  bool remove_at_once = false;
  bool king_turns_back = false;
  // Captures need more than the piece count to be compared (value rule,
  // tie-breaks), and the order of the pieces taken for the last one.
  bool detailed_rank = false;
  bool value_rule = false;
  bool prefer_king = false;
  bool prefer_kings_taken = false;
  bool prefer_early_king = false;
  // Breakthrough: once a king is on the board the game is over.
  bool king_ends_game = false;
  // Frisian: men and kings also capture along rows and columns.
  bool orthogonal = false;

  static RuleFlags From(const Variant& v) {
    const CapturePriority& p = v.capture_priority;
    const bool value = v.capture_choice == CaptureChoice::kValue;
    return {
        .men_capture_backward = v.men_capture_backward,
        .men_capture_kings = v.men_capture_kings,
        .flying_kings = v.king_range == KingRange::kFlying,
        .majority = v.capture_choice == CaptureChoice::kMajority,
        .promotion_ends_capture = v.promotion_in_capture == PromotionInCapture::kEndsMove,
        .promotion_continues_as_king =
            v.promotion_in_capture == PromotionInCapture::kContinuesAsKing,
        .dedupe_by_set = v.capture_identity == CaptureIdentity::kPieceSet,
        .straight_once = v.capture_identity == CaptureIdentity::kOrder,
        .mandatory_capture = v.mandatory_capture,
        .king_lands_behind = v.king_landing == KingLanding::kRightBehind,
        .remove_at_once = v.captured_removal == CapturedRemoval::kAtOnce,
        .king_turns_back = v.captured_removal == CapturedRemoval::kAtOnce && v.king_may_turn_back,
        .detailed_rank = value || p.with_king || p.most_kings || p.earliest_king,
        .value_rule = value,
        .prefer_king = p.with_king,
        .prefer_kings_taken = p.most_kings,
        .prefer_early_king = p.earliest_king,
        .king_ends_game = v.goal == Goal::kFirstKing,
        .orthogonal = v.orthogonal_captures,
    };
  }
};

template <class L>
struct Board {
  using Bits = typename L::Bits;
  Bits white = 0;
  Bits black = 0;
  Bits kings = 0;

  static Board FromPosition(const Position& p) {
    return {static_cast<Bits>(p.white()), static_cast<Bits>(p.black()),
            static_cast<Bits>(p.kings())};
  }
  Bits Empty() const { return L::kPlayable & ~(white | black); }
  friend bool operator==(const Board&, const Board&) = default;
};

// A move without its path: enough to play it and to tell duplicates apart.
template <class L>
struct CompactMove {
  using Bits = typename L::Bits;
  Bits from = 0;
  Bits to = 0;
  Bits captured = 0;
  std::uint8_t count = 0;
  bool promotes = false;
  bool by_king = false;
};

template <class L, bool kWhite>
inline Board<L> Apply(const Board<L>& b, const CompactMove<L>& m) {
  Board<L> r = b;
  auto& own = kWhite ? r.white : r.black;
  auto& opp = kWhite ? r.black : r.white;
  own ^= m.from ^ m.to;  // from == to (a loop back home) leaves it in place
  opp &= ~m.captured;
  r.kings &= ~m.captured;
  if (m.by_king) {
    r.kings ^= m.from ^ m.to;
  } else if (m.promotes) {
    r.kings |= m.to;
  }
  return r;
}

// Bit indexes of the landings and of the captured pieces, capture order.
struct Trail {
  const std::uint8_t* landings;
  const std::uint8_t* captured;
};

// Capture precedence: keeps only the sequences of the highest rank (the
// generator ranks each: piece count for the majority rule, 0 for free
// choice, more for the value rule and tie-breaks). Returns whether a
// capture of rank `rank` may be kept, and sets `reset` when everything kept
// so far must be dropped.
class CaptureFilter {
 public:
  bool Accept(std::uint64_t rank, bool& reset) {
    reset = false;
    if (rank < best_) return false;
    if (rank > best_) {
      best_ = rank;
      reset = true;
    }
    return true;
  }

 private:
  std::uint64_t best_ = 0;
};

// Two sequences taking the same set of pieces from the same origin to the
// same square are one move under CaptureIdentity::kPieceSet. A single jump
// has a single path, so only sequences of two or more are compared (two
// already collide: a flying king may land anywhere between two pieces on
// one diagonal before taking the second).
inline constexpr int kMinCountForDuplicates = 2;

// A growable array of CompactMove reused across calls (no allocation once
// it has grown to the largest move count seen).
template <class L>
class MoveBuffer {
 public:
  MoveBuffer() : data_(std::make_unique<CompactMove<L>[]>(256)), capacity_(256) {}
  void clear() { size_ = 0; }
  int size() const { return size_; }
  bool empty() const { return size_ == 0; }
  const CompactMove<L>& operator[](int i) const { return data_[i]; }
  const CompactMove<L>* begin() const { return data_.get(); }
  const CompactMove<L>* end() const { return data_.get() + size_; }
  void push_back(const CompactMove<L>& m) {
    if (size_ == capacity_) Grow();
    data_[size_++] = m;
  }

 private:
  void Grow() {
    auto bigger = std::make_unique<CompactMove<L>[]>(2 * capacity_);
    std::memcpy(static_cast<void*>(bigger.get()), data_.get(), sizeof(CompactMove<L>) * size_);
    data_ = std::move(bigger);
    capacity_ *= 2;
  }
  std::unique_ptr<CompactMove<L>[]> data_;
  int size_ = 0;
  int capacity_ = 0;
};

// Keeps CompactMoves: for perft and search.
template <class L>
class CompactSink {
 public:
  using Bits = typename L::Bits;
  static constexpr bool kKeepsPath = false;
  CompactSink(MoveBuffer<L>& out, const RuleFlags& rules)
      : out_(out), dedupe_(rules.dedupe_by_set) {}

  void Capture(Bits from, Bits to, Bits captured, int count, std::uint64_t rank, bool promotes,
               bool by_king, const Trail&) {
    bool reset;
    if (!filter_.Accept(rank, reset)) return;
    if (reset) out_.clear();
    if (dedupe_ && count >= kMinCountForDuplicates) {
      for (const auto& m : out_)
        if (m.to == to && m.captured == captured && m.from == from) return;
    }
    out_.push_back({from, to, captured, static_cast<std::uint8_t>(count), promotes, by_king});
  }
  void Quiet(Bits from, Bits to, bool promotes, bool by_king) {
    out_.push_back({from, to, 0, 0, promotes, by_king});
  }

 private:
  MoveBuffer<L>& out_;
  CaptureFilter filter_;
  bool dedupe_;
};

template <class L, bool kWhite>
class Generator {
 public:
  using Bits = typename L::Bits;
  static constexpr Bits kPromotion = L::PromotionRow(kWhite);
  static constexpr Direction kForwardLeft = kWhite ? kUpLeft : kDownLeft;
  static constexpr Direction kForwardRight = kWhite ? kUpRight : kDownRight;

  Generator(const Board<L>& b, const RuleFlags& rules)
      : rules_(rules),
        own_(Movable(b, rules, kWhite ? b.white : b.black)),
        opp_(kWhite ? b.black : b.white),
        empty_(b.Empty()),
        men_(own_ & ~b.kings),
        kings_(own_ & b.kings),
        opp_kings_(opp_ & b.kings),
        man_prey_(rules.men_capture_kings ? opp_ : opp_ & ~b.kings),
        at_once_(rules.remove_at_once ? ~Bits{0} : Bits{0}),
        dirs_(rules.orthogonal ? 8 : 4) {}

  // ---- cheap queries -------------------------------------------------

  // The pieces that may move: none once a king has ended the game
  // (breakthrough), so the side to move has lost.
  static Bits Movable(const Board<L>& b, const RuleFlags& rules, Bits own) {
    return rules.king_ends_game && b.kings ? Bits{0} : own;
  }

  bool HasCapture() const {
    if (rules_.men_capture_backward) {
      if (MenJumpers<kUpLeft>() | MenJumpers<kUpRight>() | MenJumpers<kDownLeft>() |
          MenJumpers<kDownRight>())
        return true;
    } else if (MenJumpers<kForwardLeft>() | MenJumpers<kForwardRight>()) {
      return true;
    }
    if (rules_.orthogonal && (OrthogonalMenJumpers() || OrthogonalKingCanCapture())) return true;
    if (!kings_) return false;
    if (rules_.flying_kings) {
      return FlyingKingCanCapture<kUpLeft>() || FlyingKingCanCapture<kUpRight>() ||
             FlyingKingCanCapture<kDownLeft>() || FlyingKingCanCapture<kDownRight>();
    }
    return (Jumpers<kUpLeft>(kings_) | Jumpers<kUpRight>(kings_) | Jumpers<kDownLeft>(kings_) |
            Jumpers<kDownRight>(kings_)) != 0;
  }

  int CountQuiet() const {
    int n = PopCount(L::template Step<kForwardLeft>(men_) & empty_) +
            PopCount(L::template Step<kForwardRight>(men_) & empty_);
    if (kings_) {
      n += CountKingSteps<kUpLeft>() + CountKingSteps<kUpRight>() + CountKingSteps<kDownLeft>() +
           CountKingSteps<kDownRight>();
    }
    return n;
  }

  // ---- generation ----------------------------------------------------

  template <class Sink>
  void Captures(Sink& sink) {
    Bits jumpers = rules_.men_capture_backward
                       ? MenJumpers<kUpLeft>() | MenJumpers<kUpRight>() | MenJumpers<kDownLeft>() |
                             MenJumpers<kDownRight>()
                       : MenJumpers<kForwardLeft>() | MenJumpers<kForwardRight>();
    if (rules_.orthogonal) jumpers |= OrthogonalMenJumpers();
    while (jumpers) {
      from_ = PopLowest(jumpers);
      dfs_empty_ = empty_ | from_;
      ManJump(sink, from_, 0, 0);
    }
    Bits kings = kings_;
    while (kings) {
      from_ = PopLowest(kings);
      dfs_empty_ = empty_ | from_;
      KingJumpFrom(sink, from_, 0, 0, kUpLeft);
    }
  }

  template <class Sink>
  void QuietMoves(Sink& sink) const {
    MenSteps<kForwardLeft>(sink);
    MenSteps<kForwardRight>(sink);
    Bits kings = kings_;
    while (kings) {
      const Bits k = PopLowest(kings);
      KingSteps<kUpLeft>(sink, k);
      KingSteps<kUpRight>(sink, k);
      KingSteps<kDownLeft>(sink, k);
      KingSteps<kDownRight>(sink, k);
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
  // Pieces of `pieces` that can jump an adjacent opponent in direction D.
  template <Direction D>
  Bits Jumpers(Bits pieces) const {
    constexpr Direction R = Reverse(D);
    return pieces & L::template Step<R>(opp_ & L::template Step<R>(empty_));
  }
  template <Direction D>
  Bits MenJumpers() const {
    constexpr Direction R = Reverse(D);
    return men_ & L::template Step<R>(man_prey_ & L::template Step<R>(empty_));
  }

  // ---- orthogonal captures (Frisian) ----------------------------------
  // Forward, left and right always; backward when men capture backwards.
  static constexpr Direction kForward = kWhite ? kUp : kDown;
  static constexpr Direction kBackward = kWhite ? kDown : kUp;

  Bits OrthogonalMenJumpers() const {
    Bits j = MenJumpers<kForward>() | MenJumpers<kLeft>() | MenJumpers<kRight>();
    if (rules_.men_capture_backward) j |= MenJumpers<kBackward>();
    return j;
  }

  bool OrthogonalKingCanCapture() const {
    if (!kings_) return false;
    if (!rules_.flying_kings)
      return (Jumpers<kUp>(kings_) | Jumpers<kDown>(kings_) | Jumpers<kLeft>(kings_) |
              Jumpers<kRight>(kings_)) != 0;
    return FlyingKingCanCapture<kUp>() || FlyingKingCanCapture<kDown>() ||
           FlyingKingCanCapture<kLeft>() || FlyingKingCanCapture<kRight>();
  }

  template <Direction D>
  bool FlyingKingCanCapture() const {
    // Advance every king's ray at once; `hit` collects the first occupied
    // square of each ray when it is an opponent.
    Bits ray = L::template Step<D>(kings_);
    Bits hit = 0;
    while (ray) {
      hit |= ray & opp_;
      ray = L::template Step<D>(ray & empty_);
    }
    return (L::template Step<D>(hit) & empty_) != 0;
  }

  template <Direction D>
  int CountKingSteps() const {
    // Rays of different kings in one direction never overlap: each stops at
    // the next piece.
    Bits ray = L::template Step<D>(kings_) & empty_;
    if (!rules_.flying_kings) return PopCount(ray);
    int n = 0;
    while (ray) {
      n += PopCount(ray);
      ray = L::template Step<D>(ray) & empty_;
    }
    return n;
  }

  template <Direction D, class Sink>
  void MenSteps(Sink& sink) const {
    constexpr Direction R = Reverse(D);
    Bits targets = L::template Step<D>(men_) & empty_;
    while (targets) {
      const Bits to = PopLowest(targets);
      sink.Quiet(L::template Step<R>(to), to, (to & kPromotion) != 0, false);
    }
  }

  template <Direction D, class Sink>
  void KingSteps(Sink& sink, Bits king) const {
    Bits to = L::template Step<D>(king) & empty_;
    while (to) {
      sink.Quiet(king, to, false, true);
      if (!rules_.flying_kings) return;
      to = L::template Step<D>(to) & empty_;
    }
  }

  // ---- capture sequences ---------------------------------------------
  // Jumped pieces stay on the board (they block and cannot be jumped again)
  // until the sequence ends; the origin square counts as empty.

  template <class Sink>
  void Record(Sink& sink, Bits to, Bits captured, int count, bool promotes, bool by_king) {
    const std::uint64_t rank = rules_.detailed_rank ? DetailedRank(captured, count, by_king)
                               : rules_.majority    ? static_cast<std::uint64_t>(count)
                                                    : 0;
    sink.Capture(from_, to, captured, count, rank, promotes, by_king, Trail{landings_, taken_});
  }

  // A king ends the capture: crowned_ when it is a man crowned on the way
  // (PromotionInCapture::kContinuesAsKing), which moved as a man.
  template <class Sink>
  void RecordKing(Sink& sink, Bits to, Bits captured, int count) {
    Record(sink, to, captured, count, crowned_, !crowned_);
  }

  // Precedence as one number, most significant first: the piece count (or
  // the value: a king counts 65 + 64, a man 65, so n kings weigh between
  // 2n-1 and 2n men), capture by a king, kings taken, and a bit per jump,
  // first jump highest, set where a king was taken.
  std::uint64_t DetailedRank(Bits captured, int count, bool by_king) const {
    const int kings = PopCount(captured & opp_kings_);
    const std::uint64_t primary = rules_.value_rule ? 65 * count + 64 * kings
                                  : rules_.majority ? count
                                                    : 0;
    std::uint64_t rank = primary << 40;
    if (rules_.prefer_king && by_king) rank |= std::uint64_t{1} << 39;
    if (rules_.prefer_kings_taken) rank |= static_cast<std::uint64_t>(kings) << 32;
    if (rules_.prefer_early_king) {
      for (int i = 0; i < count && i < 32; ++i) {
        if ((opp_kings_ >> taken_[i]) & 1) rank |= std::uint64_t{1} << (31 - i);
      }
    }
    return rank;
  }

  // Captures of the king on `sq` (or of a man crowned there mid-capture),
  // n pieces taken so far, having arrived along `came`.
  template <class Sink>
  void KingJumpFrom(Sink& sink, Bits sq, Bits captured, int n, Direction came) {
    if (!rules_.flying_kings) {
      ShortKingJump(sink, sq, captured, n);
    } else if (rules_.king_lands_behind || rules_.remove_at_once) {
      GeneralKingJump(sink, sq, captured, n, came);
    } else {
      FlyingKingJump(sink, sq, captured, n, came);
    }
  }

  template <class Sink>
  void ManJump(Sink& sink, Bits sq, Bits captured, int n) {
    if (n == Move::kMaxCaptures) return Record(sink, sq, captured, n, false, false);
    // Forward directions always; backward ones when men capture backwards.
    const bool back = rules_.men_capture_backward;
    bool extended = false;
    if (back || kForwardLeft == kUpLeft) extended |= ManJumpTo<kUpLeft>(sink, sq, captured, n);
    if (back || kForwardRight == kUpRight) extended |= ManJumpTo<kUpRight>(sink, sq, captured, n);
    if (back || kForwardLeft == kDownLeft) extended |= ManJumpTo<kDownLeft>(sink, sq, captured, n);
    if (back || kForwardRight == kDownRight)
      extended |= ManJumpTo<kDownRight>(sink, sq, captured, n);
    if (rules_.orthogonal) {
      extended |= ManJumpTo<kForward>(sink, sq, captured, n);
      extended |= ManJumpTo<kLeft>(sink, sq, captured, n);
      extended |= ManJumpTo<kRight>(sink, sq, captured, n);
      if (back) extended |= ManJumpTo<kBackward>(sink, sq, captured, n);
    }
    if (!extended && n > 0) Record(sink, sq, captured, n, (sq & kPromotion) != 0, false);
  }

  template <Direction D, class Sink>
  bool ManJumpTo(Sink& sink, Bits sq, Bits captured, int n) {
    const Bits over = L::template Step<D>(sq) & man_prey_ & ~captured;
    if (!over) return false;
    // With CapturedRemoval::kAtOnce the squares of the pieces taken are free.
    const Bits land = L::template Step<D>(over) & (dfs_empty_ | (captured & at_once_));
    if (!land) return false;
    Note<Sink>(n, over, land);
    if ((land & kPromotion) &&
        (rules_.promotion_ends_capture || rules_.promotion_continues_as_king)) {
      if (rules_.promotion_ends_capture) {
        Record(sink, land, captured | over, n + 1, true, false);
      } else {
        // Crowned on the spot: the capture goes on as a king's, if it can.
        crowned_ = true;
        KingJumpFrom(sink, land, captured | over, n + 1, D);
        crowned_ = false;
      }
    } else {
      ManJump(sink, land, captured | over, n + 1);
    }
    return true;
  }

  template <class Sink>
  void ShortKingJump(Sink& sink, Bits sq, Bits captured, int n) {
    if (n == Move::kMaxCaptures) return RecordKing(sink, sq, captured, n);
    bool extended = ShortKingJumpTo<kUpLeft>(sink, sq, captured, n);
    extended |= ShortKingJumpTo<kUpRight>(sink, sq, captured, n);
    extended |= ShortKingJumpTo<kDownLeft>(sink, sq, captured, n);
    extended |= ShortKingJumpTo<kDownRight>(sink, sq, captured, n);
    if (rules_.orthogonal) {
      extended |= ShortKingJumpTo<kUp>(sink, sq, captured, n);
      extended |= ShortKingJumpTo<kDown>(sink, sq, captured, n);
      extended |= ShortKingJumpTo<kLeft>(sink, sq, captured, n);
      extended |= ShortKingJumpTo<kRight>(sink, sq, captured, n);
    }
    if (!extended && n > 0) RecordKing(sink, sq, captured, n);
  }

  template <Direction D, class Sink>
  bool ShortKingJumpTo(Sink& sink, Bits sq, Bits captured, int n) {
    const Bits over = L::template Step<D>(sq) & opp_ & ~captured;
    if (!over) return false;
    const Bits land = L::template Step<D>(over) & (dfs_empty_ | (captured & at_once_));
    if (!land) return false;
    Note<Sink>(n, over, land);
    ShortKingJump(sink, land, captured | over, n + 1);
    return true;
  }

  // Remembers the n-th jump for sinks that keep the path (the pieces taken
  // also when the rank needs their order).
  template <class Sink>
  void Note(int n, Bits over, Bits land) {
    if constexpr (Sink::kKeepsPath) {
      taken_[n] = static_cast<std::uint8_t>(LowestBit(over));
      landings_[n] = static_cast<std::uint8_t>(LowestBit(land));
    } else {
      if (rules_.prefer_early_king) taken_[n] = static_cast<std::uint8_t>(LowestBit(over));
    }
  }

  // The first piece met from `sq` along d, if it can be jumped.
  Bits FlyingTarget(Bits sq, Direction d, Bits captured) const {
    Bits s = L::Step(sq, d);
    while (s & dfs_empty_) s = L::Step(s, d);
    const Bits over = s & opp_ & ~captured;
    if (!over || !(L::Step(over, d) & dfs_empty_)) return 0;
    return over;
  }

  // Whether a king that arrived at `sq` moving along `came` can jump again.
  // Going back along `came` only meets the piece just jumped.
  bool FlyingKingCanContinue(Bits sq, Bits captured, Direction came) const {
    for (int i = 0; i < dirs_; ++i) {
      const Direction d = static_cast<Direction>(i);
      if (d != Reverse(came) && FlyingTarget(sq, d, captured)) return true;
    }
    return false;
  }

  // `skip_straight`: going on along `came` is left to another landing on
  // the same line, which meets the same piece (CaptureIdentity::kOrder).
  template <class Sink>
  void FlyingKingJump(Sink& sink, Bits sq, Bits captured, int n, Direction came,
                      bool skip_straight = false) {
    if (n == Move::kMaxCaptures) return RecordKing(sink, sq, captured, n);
    bool extended = false;
    for (int i = 0; i < dirs_; ++i) {
      const Direction d = static_cast<Direction>(i);
      if (n > 0 && d == Reverse(came)) continue;
      const Bits over = FlyingTarget(sq, d, captured);
      if (!over) continue;
      extended = true;
      if (skip_straight && d == came) continue;
      const Bits now_captured = captured | over;
      if (Sink::kKeepsPath || rules_.prefer_early_king)
        taken_[n] = static_cast<std::uint8_t>(LowestBit(over));
      // Any empty square beyond may be the landing, but when the capture can
      // go on from some of them it must: only those remain.
      Bits all = 0;
      Bits continuing = 0;
      for (Bits l = L::Step(over, d) & dfs_empty_; l; l = L::Step(l, d) & dfs_empty_) {
        all |= l;
        if (FlyingKingCanContinue(l, now_captured, d)) continuing |= l;
      }
      if (continuing) {
        bool first = true;
        while (continuing) {
          const Bits l = PopLowest(continuing);
          if constexpr (Sink::kKeepsPath) landings_[n] = static_cast<std::uint8_t>(LowestBit(l));
          FlyingKingJump(sink, l, now_captured, n + 1, d, rules_.straight_once && !first);
          first = false;
        }
      } else {
        while (all) {
          const Bits l = PopLowest(all);
          if constexpr (Sink::kKeepsPath) landings_[n] = static_cast<std::uint8_t>(LowestBit(l));
          RecordKing(sink, l, now_captured, n + 1);
        }
      }
    }
    if (!extended && n > 0) RecordKing(sink, sq, captured, n);
  }

  // ---- the general flying king ------------------------------------------
  // For KingLanding::kRightBehind and CapturedRemoval::kAtOnce: squares of
  // pieces already taken may be free, a king may turn back, and the landing
  // may be fixed. Slower than FlyingKingJump, which covers the usual rules.

  // The squares a king may cross or land on, `captured` taken so far.
  Bits FreeSquares(Bits captured) const { return dfs_empty_ | (captured & at_once_); }

  bool MayGo(Direction d, Direction came, int n) const {
    return n == 0 || rules_.king_turns_back || d != Reverse(came);
  }

  Bits GeneralTarget(Bits sq, Direction d, Bits captured) const {
    const Bits free = FreeSquares(captured);
    Bits s = L::Step(sq, d);
    while (s & free) s = L::Step(s, d);
    const Bits over = s & opp_ & ~captured;
    if (!over || !(L::Step(over, d) & free)) return 0;
    return over;
  }

  bool GeneralCanContinue(Bits sq, Bits captured, Direction came) const {
    for (int i = 0; i < dirs_; ++i) {
      const Direction d = static_cast<Direction>(i);
      if (MayGo(d, came, 1) && GeneralTarget(sq, d, captured)) return true;
    }
    return false;
  }

  template <class Sink>
  void GeneralKingJump(Sink& sink, Bits sq, Bits captured, int n, Direction came,
                       bool skip_straight = false) {
    if (n == Move::kMaxCaptures) return RecordKing(sink, sq, captured, n);
    bool extended = false;
    for (int i = 0; i < dirs_; ++i) {
      const Direction d = static_cast<Direction>(i);
      if (!MayGo(d, came, n)) continue;
      const Bits over = GeneralTarget(sq, d, captured);
      if (!over) continue;
      extended = true;
      if (skip_straight && n > 0 && d == came) continue;
      const Bits now_captured = captured | over;
      const Bits free = FreeSquares(now_captured) & ~over;
      taken_[n] = static_cast<std::uint8_t>(LowestBit(over));
      Bits all = 0;
      Bits continuing = 0;
      for (Bits l = L::Step(over, d) & free; l; l = L::Step(l, d) & free) {
        all |= l;
        if (GeneralCanContinue(l, now_captured, d)) continuing |= l;
        if (rules_.king_lands_behind) break;
      }
      Bits lands = continuing ? continuing : all;
      bool first = true;
      while (lands) {
        const Bits l = PopLowest(lands);
        landings_[n] = static_cast<std::uint8_t>(LowestBit(l));
        if (continuing) {
          GeneralKingJump(sink, l, now_captured, n + 1, d, rules_.straight_once && !first);
          first = false;
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
  const Bits opp_kings_;
  const Bits man_prey_;  // the pieces a man may jump
  const Bits at_once_;   // all ones with CapturedRemoval::kAtOnce, else none
  const int dirs_;       // capture directions: 4 diagonal, 8 with orthogonal ones

  // State of the capture search in progress. Sequences longer than
  // Move::kMaxCaptures need more pieces than a side can have (FromSetup
  // checks); for hand-made bit sets they are cut there rather than overflow.
  Bits from_ = 0;
  Bits dfs_empty_ = 0;
  bool crowned_ = false;  // the capturing man was crowned on the way
  std::uint8_t landings_[Move::kMaxCaptures + 1] = {};
  std::uint8_t taken_[Move::kMaxCaptures + 1] = {};
};

}  // namespace draughts::rules::internal

// The full 8x8 board's generator: a specialisation of Generator.
#include "rules/orthogonal_movegen.h"  // IWYU pragma: export

namespace draughts::rules::internal {

// Calls f.template operator()<Layout>() with the layout of `board`.
template <class F>
decltype(auto) WithLayout(BoardSize board, F&& f) {
  switch (board) {
    case BoardSize::k8x8:
      return f.template operator()<Layout8>();
    case BoardSize::kFull8x8:
      return f.template operator()<FullLayout8>();
    case BoardSize::k12x12:
      return f.template operator()<Layout12>();
    case BoardSize::k10x10:
    default:
      return f.template operator()<Layout10>();
  }
}

}  // namespace draughts::rules::internal
