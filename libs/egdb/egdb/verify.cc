#include "egdb/verify.h"

#include <algorithm>

#include "rules/fen.h"
#include "rules/layout.h"

namespace draughts::egdb {
namespace {

using rules::internal::Board;

template <class L>
struct Verifier {
  using Ix = Indexing<L>;
  using B = Board<L>;

  // The code the successors imply (value.h).
  template <bool kWhite>
  static std::uint8_t Expected(const Database& db, const Signature& sig,
                               const rules::internal::RuleFlags& flags, const B& b,
                               rules::internal::MoveBuffer<L>& moves) {
    moves.clear();
    rules::internal::CompactSink<L> sink(moves, flags);
    rules::internal::Generator<L, kWhite>(b, flags).All(sink);
    if (moves.empty()) return code::Loss(0);
    int best_win = -1;   // smallest distance of a winning move
    int worst_loss = 0;  // largest distance of a losing move
    bool draw = false;
    for (const auto& m : moves) {
      const B child = rules::internal::Apply<L, kWhite>(b, m);
      const std::uint8_t c = db.ProbeCode<L>(child, !kWhite);
      if (c == code::kUnknown || c == code::kInvalid) return code::kUnknown;
      const bool inside = Ix::SignatureOf(child) == sig;
      const int plies = inside ? code::Plies(c) + 1 : 1;
      if (code::IsLoss(c)) {
        best_win = best_win < 0 ? plies : std::min(best_win, plies);
      } else if (code::IsWin(c)) {
        worst_loss = std::max(worst_loss, plies);
      } else {
        draw = true;
      }
    }
    if (best_win >= 0) return code::Win(best_win);
    if (draw) return code::kDraw;
    return code::Loss(worst_loss);
  }

  static rules::Result<VerifyReport> Run(const Database& db, Signature canonical,
                                         std::uint64_t stride) {
    const Slice* slice = db.FindSlice(canonical);
    if (!slice) return rules::MakeError("slice " + canonical.Name() + " is not loaded");
    const auto flags = rules::internal::RuleFlags::From(db.variant());
    rules::internal::MoveBuffer<L> moves;
    VerifyReport report;
    for (int side = 0; side < 2; ++side) {
      const bool white = side == 0;
      for (std::uint64_t i = 0; i < slice->shape.size; i += std::max<std::uint64_t>(stride, 1)) {
        // Natural positions of the slice, whatever the canonical view.
        B b;
        if (!Ix::Decode(slice->shape, i, b)) continue;
        ++report.checked;
        const std::uint8_t stored = slice->codes[side][i];
        const std::uint8_t expected = white ? Expected<true>(db, canonical, flags, b, moves)
                                            : Expected<false>(db, canonical, flags, b, moves);
        if (stored == expected) continue;
        ++report.failure_count;
        if (report.failures.size() < 10) {
          const auto position = rules::Position::FromBits(
              L::kBoard, white ? rules::Color::kWhite : rules::Color::kBlack, b.white, b.black,
              b.kings);
          report.failures.push_back(rules::FormatFen(position) + ": stored " +
                                    std::to_string(stored) + ", successors say " +
                                    std::to_string(expected));
        }
      }
    }
    return report;
  }
};

}  // namespace

rules::Result<VerifyReport> VerifySlice(const Database& db, Signature canonical,
                                        std::uint64_t stride) {
  if (db.variant().board == rules::BoardSize::k8x8)
    return Verifier<rules::Layout8>::Run(db, canonical, stride);
  return Verifier<rules::Layout10>::Run(db, canonical, stride);
}

}  // namespace draughts::egdb
