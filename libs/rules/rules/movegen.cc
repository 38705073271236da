#include "rules/movegen.h"

#include <algorithm>

#include "rules/movegen_impl.h"

namespace draughts::rules {
namespace {

using internal::Board;
using internal::CaptureFilter;
using internal::Generator;
using internal::RuleFlags;
using internal::Trail;
using internal::WithLayout;

// Builds public Moves (square numbers, full path), applying the precedence
// and duplicate rules like CompactSink.
template <class L>
class FullSink {
 public:
  using Bits = typename L::Bits;
  static constexpr bool kKeepsPath = true;
  FullSink(MoveList& out, const RuleFlags& rules) : out_(out), dedupe_(rules.dedupe_by_set) {}

  void Capture(Bits from, Bits to, Bits captured, int count, std::uint64_t rank, bool promotes,
               bool by_king, const Trail& trail) {
    bool reset;
    if (!filter_.Accept(rank, reset)) return;
    if (reset) {
      out_.clear();
      captured_sets_.clear();
    }
    const int first_capture =
        static_cast<int>(out_.size()) - static_cast<int>(captured_sets_.size());
    if (dedupe_ && count >= internal::kMinCountForDuplicates) {
      for (std::size_t i = 0; i < captured_sets_.size(); ++i) {
        const Move& m = out_[first_capture + i];
        if (captured_sets_[i] == captured && m.from == Square(from) && m.to == Square(to)) return;
      }
    }
    Move m;
    m.from = Square(from);
    m.to = Square(to);
    m.capture_count = static_cast<std::uint8_t>(count);
    m.promotes = promotes;
    m.by_king = by_king;
    for (int i = 0; i < count; ++i) {
      m.landings[i] = static_cast<std::uint8_t>(L::SquareOfBit(trail.landings[i]));
      m.captured[i] = static_cast<std::uint8_t>(L::SquareOfBit(trail.captured[i]));
    }
    out_.push_back(m);
    captured_sets_.push_back(captured);
  }

  void Quiet(Bits from, Bits to, bool promotes, bool by_king) {
    Move m;
    m.from = Square(from);
    m.to = Square(to);
    m.promotes = promotes;
    m.by_king = by_king;
    m.landings[0] = m.to;
    out_.push_back(m);
  }

 private:
  static std::uint8_t Square(Bits one_bit) {
    return static_cast<std::uint8_t>(L::SquareOfBit(LowestBit(one_bit)));
  }

  MoveList& out_;
  CaptureFilter filter_;
  bool dedupe_;
  std::vector<Bits> captured_sets_;  // of the captures in out_, in order
};

bool Playable(const Variant& variant, const Position& position) {
  return position.board() == variant.board && !CheckVariant(variant).has_value();
}

enum class What { kAll, kCapturesOnly };

void Generate(const Variant& variant, const Position& position, MoveList& moves, What what) {
  moves.clear();
  if (!Playable(variant, position)) return;
  const RuleFlags rules = RuleFlags::From(variant);
  WithLayout(position.board(), [&]<class L>() {
    const Board<L> board = Board<L>::FromPosition(position);
    FullSink<L> sink(moves, rules);
    auto run = [&](auto& gen) {
      if (what == What::kAll) {
        gen.All(sink);
      } else if (gen.HasCapture()) {
        gen.Captures(sink);
      }
    };
    if (position.side_to_move() == Color::kWhite) {
      Generator<L, true> gen(board, rules);
      run(gen);
    } else {
      Generator<L, false> gen(board, rules);
      run(gen);
    }
  });
}

}  // namespace

void GenerateMoves(const Variant& variant, const Position& position, MoveList& moves) {
  Generate(variant, position, moves, What::kAll);
  // Variant::king_move_limit: the king that has moved its limit in a row
  // may still capture, not move.
  if (variant.king_move_limit > 0) {
    std::erase_if(moves, [&](const Move& m) {
      return !m.is_capture() && m.by_king && position.KingMoveBarred(m.from);
    });
  }
}

MoveList LegalMoves(const Variant& variant, const Position& position) {
  MoveList moves;
  GenerateMoves(variant, position, moves);
  return moves;
}

void GenerateCaptures(const Variant& variant, const Position& position, MoveList& moves) {
  Generate(variant, position, moves, What::kCapturesOnly);
}

bool HasCapture(const Variant& variant, const Position& position) {
  if (!Playable(variant, position)) return false;
  const RuleFlags rules = RuleFlags::From(variant);
  return WithLayout(position.board(), [&]<class L>() {
    const Board<L> board = Board<L>::FromPosition(position);
    if (position.side_to_move() == Color::kWhite)
      return Generator<L, true>(board, rules).HasCapture();
    return Generator<L, false>(board, rules).HasCapture();
  });
}

int CountLegalMoves(const Variant& variant, const Position& position) {
  if (!Playable(variant, position)) return 0;
  if (variant.king_move_limit > 0) return static_cast<int>(LegalMoves(variant, position).size());
  const RuleFlags rules = RuleFlags::From(variant);
  return WithLayout(position.board(), [&]<class L>() {
    const Board<L> board = Board<L>::FromPosition(position);
    auto count = [&](auto gen) {
      if (!gen.HasCapture()) return gen.CountQuiet();
      internal::MoveBuffer<L> buffer;
      internal::CompactSink<L> sink(buffer, rules);
      gen.Captures(sink);
      return buffer.size() + (rules.mandatory_capture ? 0 : gen.CountQuiet());
    };
    if (position.side_to_move() == Color::kWhite) return count(Generator<L, true>(board, rules));
    return count(Generator<L, false>(board, rules));
  });
}

bool IsLegalMove(const Variant& variant, const Position& position, const Move& move) {
  if (move.capture_count > Move::kMaxCaptures) return false;
  const bool by_order = variant.capture_identity == CaptureIdentity::kOrder;
  auto sorted_captures = [by_order](const Move& m) {
    std::vector<int> s(m.captured.begin(), m.captured.begin() + m.capture_count);
    if (!by_order) std::sort(s.begin(), s.end());
    return s;
  };
  const bool by_path = variant.capture_identity == CaptureIdentity::kPath;
  for (const Move& legal : LegalMoves(variant, position)) {
    if (legal.from != move.from || legal.to != move.to || legal.capture_count != move.capture_count)
      continue;
    if (sorted_captures(legal) != sorted_captures(move)) continue;
    if (by_path && !std::equal(legal.landing_squares().begin(), legal.landing_squares().end(),
                               move.landing_squares().begin()))
      continue;
    return true;
  }
  return false;
}

}  // namespace draughts::rules
