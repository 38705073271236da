#include "egdb/solver.h"

#include <algorithm>
#include <chrono>

#include "rules/layout.h"

namespace draughts::egdb {
namespace {

using rules::internal::Board;
using rules::internal::CompactMove;
using rules::internal::CompactSink;
using rules::internal::Generator;
using rules::internal::MoveBuffer;
using rules::internal::RuleFlags;

// Waiting positions keep their count of inside moves in the low 7 bits
// and, in the top bit, whether a leaving move draws.
constexpr std::uint8_t kLeavingDraw = 0x80;

template <class L>
class SliceSolver {
 public:
  using Bits = typename L::Bits;
  using Ix = Indexing<L>;
  using B = Board<L>;

  SliceSolver(Database& db, Signature signature)
      : db_(db),
        flags_(RuleFlags::From(db.variant())),
        flying_(db.variant().king_range == rules::KingRange::kFlying),
        slice_{SliceShape(signature, L::kSquares, L::kHalf), {}} {}

  rules::Result<Slice> Run() {
    const std::uint64_t size = slice_.shape.size;
    for (int side = 0; side < 2; ++side) {
      slice_.codes[side].assign(size, code::kUnknown);
      waiting_[side].assign(size, 0);
    }
    for (int side = 0; side < 2; ++side) {
      for (std::uint64_t i = 0; i < size; ++i) {
        if (auto error = Classify(side == 0, i)) return *error;
      }
    }
    for (int plies = 0; !current_.empty() || !next_.empty(); ++plies) {
      for (std::uint64_t entry : current_) Spread(entry, plies);
      current_.swap(next_);
      next_.clear();
    }
    for (auto& side : slice_.codes)
      std::replace(side.begin(), side.end(), code::kUnknown, code::kDraw);
    for (auto& side : waiting_) std::vector<std::uint8_t>().swap(side);
    return std::move(slice_);
  }

 private:
  static std::uint64_t Entry(bool white, std::uint64_t index) {
    return index << 1 | (white ? 0 : 1);
  }

  template <bool kWhite>
  void Generate(const B& b) {
    moves_.clear();
    CompactSink<L> sink(moves_, flags_);
    Generator<L, kWhite>(b, flags_).All(sink);
  }

  // Step 1 for one position; an error when a slice it leads to is missing.
  std::optional<rules::Error> Classify(bool white, std::uint64_t index) {
    const int side = white ? 0 : 1;
    B b;
    if (!Ix::Decode(slice_.shape, index, b)) {
      slice_.codes[side][index] = code::kInvalid;
      return std::nullopt;
    }
    if (white) {
      Generate<true>(b);
    } else {
      Generate<false>(b);
    }
    if (moves_.empty()) return Resolve(white, index, code::Loss(0), 0);
    int inside = 0;
    bool leaving_draw = false;
    for (const CompactMove<L>& m : moves_) {
      if (m.count == 0 && !m.promotes) {
        ++inside;
        continue;
      }
      const B child =
          white ? rules::internal::Apply<L, true>(b, m) : rules::internal::Apply<L, false>(b, m);
      const std::uint8_t c = db_.ProbeCode<L>(child, !white);
      if (c == code::kUnknown || c == code::kInvalid) {
        return rules::MakeError("slice " + Ix::SignatureOf(child).Name() + " is needed before " +
                                slice_.shape.signature.Name());
      }
      if (code::IsLoss(c)) return Resolve(white, index, code::Win(1), 1);
      if (c == code::kDraw) leaving_draw = true;
    }
    if (inside == 0) {
      if (leaving_draw) {
        slice_.codes[side][index] = code::kDraw;
        return std::nullopt;
      }
      return Resolve(white, index, code::Loss(1), 1);
    }
    waiting_[side][index] = static_cast<std::uint8_t>(inside | (leaving_draw ? kLeavingDraw : 0));
    return std::nullopt;
  }

  // Records a win or a loss at distance `plies`, to be spread in that round.
  std::optional<rules::Error> Resolve(bool white, std::uint64_t index, std::uint8_t c, int plies) {
    slice_.codes[white ? 0 : 1][index] = c;
    (plies == round_ ? current_ : next_).push_back(Entry(white, index));
    return std::nullopt;
  }

  // Step 2: the predecessors of a position solved at distance `plies`.
  void Spread(std::uint64_t entry, int plies) {
    round_ = plies;
    const bool white = (entry & 1) == 0;
    const std::uint64_t index = entry >> 1;
    const bool lost = code::IsLoss(slice_.codes[white ? 0 : 1][index]);
    B b;
    Ix::Decode(slice_.shape, index, b);
    // The side that moved into `b` is the other one.
    const bool mover_white = !white;
    const Bits own = mover_white ? b.white : b.black;
    const Bits empty = L::kPlayable & ~(b.white | b.black);
    Bits kings = own & b.kings;
    while (kings) {
      const Bits k = rules::PopLowest(kings);
      UnmoveKing<rules::kUpLeft>(b, k, empty, mover_white, lost, plies);
      UnmoveKing<rules::kUpRight>(b, k, empty, mover_white, lost, plies);
      UnmoveKing<rules::kDownLeft>(b, k, empty, mover_white, lost, plies);
      UnmoveKing<rules::kDownRight>(b, k, empty, mover_white, lost, plies);
    }
    Bits men = own & ~b.kings;
    while (men) {
      const Bits m = rules::PopLowest(men);
      // A man came from one step behind it: White moves up, so from below.
      const Bits back =
          mover_white
              ? (L::template Step<rules::kDownLeft>(m) | L::template Step<rules::kDownRight>(m))
              : (L::template Step<rules::kUpLeft>(m) | L::template Step<rules::kUpRight>(m));
      Bits origins = back & empty;
      while (origins) {
        const Bits o = rules::PopLowest(origins);
        B p = b;
        (mover_white ? p.white : p.black) ^= m | o;
        Predecessor(p, mover_white, lost, plies);
      }
    }
  }

  template <rules::Direction D>
  void UnmoveKing(const B& b, Bits king, Bits empty, bool mover_white, bool lost, int plies) {
    Bits o = L::template Step<D>(king) & empty;
    while (o) {
      B p = b;
      (mover_white ? p.white : p.black) ^= king | o;
      p.kings ^= king | o;
      Predecessor(p, mover_white, lost, plies);
      if (!flying_) break;
      o = L::template Step<D>(o) & empty;
    }
  }

  void Predecessor(const B& p, bool white, bool child_lost, int plies) {
    const int side = white ? 0 : 1;
    const std::uint64_t index = Ix::Index(slice_.shape, p);
    if (slice_.codes[side][index] != code::kUnknown) return;
    if (child_lost) {
      slice_.codes[side][index] = code::Win(plies + 1);
      next_.push_back(Entry(white, index));
      return;
    }
    std::uint8_t& w = waiting_[side][index];
    --w;
    if ((w & ~kLeavingDraw) != 0) return;
    if (w & kLeavingDraw) {
      slice_.codes[side][index] = code::kDraw;
    } else {
      slice_.codes[side][index] = code::Loss(plies + 1);
      next_.push_back(Entry(white, index));
    }
  }

  Database& db_;
  RuleFlags flags_;
  bool flying_;
  Slice slice_;
  std::array<std::vector<std::uint8_t>, 2> waiting_;
  MoveBuffer<L> moves_;
  std::vector<std::uint64_t> current_, next_;
  int round_ = 0;
};

SliceReport Count(const Slice& slice) {
  SliceReport r;
  r.signature = slice.shape.signature;
  for (const auto& side : slice.codes) {
    for (std::uint8_t c : side) {
      if (c == code::kInvalid) continue;
      ++r.positions;
      if (code::IsWin(c)) {
        ++r.wins;
      } else if (code::IsLoss(c)) {
        ++r.losses;
      } else {
        ++r.draws;
      }
      r.max_plies = std::max(r.max_plies, code::Plies(c));
    }
  }
  return r;
}

}  // namespace

rules::Result<SliceReport> SolveSlice(Database& db, Signature signature) {
  if (!signature.IsCanonical() || signature.pieces() > Database::kMaxPieces ||
      signature.white_men + signature.white_kings == 0 ||
      signature.black_men + signature.black_kings == 0) {
    return rules::MakeError("cannot solve slice " + signature.Name());
  }
  const auto start = std::chrono::steady_clock::now();
  rules::Result<Slice> slice = db.variant().board == rules::BoardSize::k8x8
                                   ? SliceSolver<rules::Layout8>(db, signature).Run()
                                   : SliceSolver<rules::Layout10>(db, signature).Run();
  if (!slice.ok()) return slice.error();
  SliceReport report = Count(*slice);
  db.AddSlice(std::move(slice).value());
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return report;
}

rules::Result<std::vector<SliceReport>> SolveUpTo(
    Database& db, int max_pieces,
    const std::function<rules::Result<bool>(const Slice&, const SliceReport&)>& on_slice) {
  std::vector<SliceReport> reports;
  for (const Signature& s : CanonicalSignatures(max_pieces)) {
    if (db.FindSlice(s)) continue;
    auto report = SolveSlice(db, s);
    if (!report.ok()) return report.error();
    if (on_slice) {
      auto saved = on_slice(*db.FindSlice(s), *report);
      if (!saved.ok()) return saved.error();
    }
    reports.push_back(*report);
  }
  return reports;
}

}  // namespace draughts::egdb
