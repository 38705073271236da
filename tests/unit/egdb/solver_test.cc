#include <gtest/gtest.h>

#include "egdb/verify.h"
#include "rules/movegen.h"
#include "test_support.h"

namespace draughts::egdb {
namespace {

using testing::English;
using testing::InternationalKings;
using testing::ProbeFen;
using testing::WdlOf;

TEST(EgdbSolver, EnglishKnownEndgames) {
  const Database& db = English();
  EXPECT_EQ(db.complete_pieces(), 4);
  // Two kings beat one, whoever moves.
  EXPECT_EQ(WdlOf(db, "W:WK1,K3:BK30"), Wdl::kWin);
  EXPECT_EQ(WdlOf(db, "B:WK1,K3:BK30"), Wdl::kLoss);
  // Seen from the other colour: the mirrored slice answers the same.
  EXPECT_EQ(WdlOf(db, "B:WK3:BK30,K32"), Wdl::kWin);
  // One king against one king is a draw when neither can take at once.
  EXPECT_EQ(WdlOf(db, "W:WK1:BK32"), Wdl::kDraw);
  EXPECT_EQ(WdlOf(db, "B:WK1:BK32"), Wdl::kDraw);
  // ... unless one can take the other at once: the white king on 18 is
  // next to the black one on 14 with 23 empty behind it.
  EXPECT_EQ(WdlOf(db, "B:WK18:BK14"), Wdl::kWin);
  const auto lone = ProbeFen(db, "W:WK1,K3:BK30");
  ASSERT_TRUE(lone.has_value());
  EXPECT_GT(lone->plies, 0);
}

TEST(EgdbSolver, EnglishCapturePositionsAreExact) {
  const Database& db = English();
  // Positions with a compulsory capture (22x15, 5x14) get the value of
  // their best capture.
  for (std::string_view fen : {"W:W22,K30:B18", "B:W22,K30:B18", "W:WK5:B9,K1"}) {
    auto position = rules::ParseFen(db.variant(), fen);
    ASSERT_TRUE(position.ok()) << fen;
    auto v = db.Probe(*position);
    ASSERT_TRUE(v.has_value()) << fen;
    // The value is the best over the legal moves of the negated child values.
    Wdl best = Wdl::kLoss;
    for (const rules::Move& m : rules::LegalMoves(db.variant(), *position)) {
      auto child = db.Probe(position->Play(m));
      ASSERT_TRUE(child.has_value());
      best = std::max(best, Flip(child->wdl));
    }
    EXPECT_EQ(v->wdl, best) << fen;
  }
}

TEST(EgdbSolver, EveryEnglishSliceAgreesWithItsSuccessors) {
  const Database& db = English();
  for (const Signature& s : CanonicalSignatures(4)) {
    auto report = VerifySlice(db, s, /*stride=*/7);
    ASSERT_TRUE(report.ok()) << report.error().message;
    EXPECT_GT(report->checked, 0u) << s.Name();
    EXPECT_EQ(report->failure_count, 0u)
        << s.Name() << ": " << (report->failures.empty() ? "" : report->failures.front());
  }
}

TEST(EgdbSolver, InternationalKingEndings) {
  const Database& db = InternationalKings();
  // Flying kings: two kings cannot beat one.
  EXPECT_EQ(WdlOf(db, "W:WK1,K2:BK50"), Wdl::kDraw);
  // Three kings against one holding the long diagonal (46-5): a draw.
  EXPECT_EQ(WdlOf(db, "W:WK1,K2,K3:BK46"), Wdl::kDraw);
  EXPECT_EQ(WdlOf(db, "W:WK1,K2,K3:BK28"), Wdl::kDraw);
  // Off the long diagonal the lone king loses when the kings move first.
  EXPECT_EQ(WdlOf(db, "W:WK1,K2,K3:BK45"), Wdl::kWin);
  for (const Signature& s : {Signature{0, 2, 0, 1}, Signature{0, 3, 0, 1}}) {
    auto report = VerifySlice(db, s, /*stride=*/13);
    ASSERT_TRUE(report.ok());
    EXPECT_EQ(report->failure_count, 0u) << s.Name();
  }
}

TEST(EgdbSolver, InternationalKingAgainstMan) {
  Database db(testing::VariantOrDie("international"));
  ASSERT_TRUE(SolveUpTo(db, 2).ok());
  // A white king against a black man far from its crowning row: the king
  // catches it (the man cannot run past a flying king).
  EXPECT_EQ(WdlOf(db, "W:WK46:B6"), Wdl::kWin);
  // One man each, far apart: both crown, a draw.
  EXPECT_EQ(WdlOf(db, "W:W46:B5"), Wdl::kDraw);
  auto report = VerifySlice(db, {1, 0, 0, 1});
  ASSERT_TRUE(report.ok());
  EXPECT_EQ(report->failure_count, 0u);
}

TEST(EgdbSolver, MissingSmallerSliceIsAnError) {
  Database db(testing::VariantOrDie("english"));
  auto report = SolveSlice(db, {0, 2, 0, 1});
  EXPECT_FALSE(report.ok());
  EXPECT_FALSE(SolveSlice(db, {0, 1, 0, 2}).ok());  // not canonical
}

}  // namespace
}  // namespace draughts::egdb
