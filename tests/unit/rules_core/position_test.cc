#include "rules/position.h"

#include <gtest/gtest.h>

#include "rules/movegen.h"
#include "test_support.h"

namespace draughts::rules {
namespace {

using ::draughts::rules::testing::FromFen;
using ::draughts::rules::testing::GetVariant;

TEST(Position, InitialPositions) {
  for (const Variant& v : AllVariants()) {
    const Position p = Position::Initial(v);
    EXPECT_EQ(p.board(), v.board);
    EXPECT_EQ(p.side_to_move(), v.first_to_move);
    EXPECT_EQ(p.CountPieces(Color::kWhite), v.MenPerSide()) << v.id;
    EXPECT_EQ(p.CountPieces(Color::kBlack), v.MenPerSide()) << v.id;
    EXPECT_EQ(p.CountKings(Color::kWhite) + p.CountKings(Color::kBlack), 0);
    // Black fills squares 1..M, White the last M squares, each after the
    // back rows left empty (Turkish: one).
    const int m = v.MenPerSide();
    const int gap = v.empty_back_rows * SquaresPerRow(v.board);
    EXPECT_EQ(p.PieceAt(gap + 1), (SetupPiece{gap + 1, Color::kBlack, PieceKind::kMan}));
    EXPECT_EQ(p.PieceAt(gap + m), (SetupPiece{gap + m, Color::kBlack, PieceKind::kMan}));
    EXPECT_FALSE(p.PieceAt(gap + m + 1).has_value());
    EXPECT_EQ(p.CountPieces(Color::kWhite) + p.CountPieces(Color::kBlack), 2 * m);
    if (gap > 0) {
      EXPECT_FALSE(p.PieceAt(gap).has_value()) << v.id;
    }
    const int last = SquareCount(v.board) - gap;
    EXPECT_EQ(p.PieceAt(last - m + 1), (SetupPiece{last - m + 1, Color::kWhite, PieceKind::kMan}));
    EXPECT_EQ(p.PieceAt(last), (SetupPiece{last, Color::kWhite, PieceKind::kMan}));
    EXPECT_FALSE(p.PieceAt(last - m).has_value());
    if (gap > 0) {
      EXPECT_FALSE(p.PieceAt(last + 1).has_value()) << v.id;
    }
  }
}

TEST(Position, SetupRoundTrip) {
  const Variant v = GetVariant("international");
  PositionSetup setup;
  setup.side_to_move = Color::kBlack;
  setup.pieces = {{3, Color::kWhite, PieceKind::kKing},
                  {27, Color::kWhite, PieceKind::kMan},
                  {30, Color::kBlack, PieceKind::kMan},
                  {48, Color::kBlack, PieceKind::kKing}};
  auto p = Position::FromSetup(v, setup);
  ASSERT_TRUE(p.ok()) << p.error().ToString();
  EXPECT_EQ(p->ToSetup(), setup);
  EXPECT_EQ(p->CountKings(Color::kWhite), 1);
  EXPECT_EQ(p->CountMen(Color::kBlack), 1);
  EXPECT_EQ(p->side_to_move(), Color::kBlack);
}

TEST(Position, SetupErrors) {
  const Variant v = GetVariant("english");
  auto error_of = [&](PositionSetup s) {
    auto p = Position::FromSetup(v, s);
    return p.ok() ? std::string() : p.error().message;
  };
  PositionSetup s;
  s.pieces = {{33, Color::kWhite, PieceKind::kMan}};
  EXPECT_NE(error_of(s).find("off the 8x8 board"), std::string::npos) << error_of(s);
  s.pieces = {{0, Color::kWhite, PieceKind::kMan}};
  EXPECT_NE(error_of(s).find("square 0"), std::string::npos);
  s.pieces = {{12, Color::kWhite, PieceKind::kMan}, {12, Color::kBlack, PieceKind::kMan}};
  EXPECT_NE(error_of(s).find("twice"), std::string::npos);
  s.pieces = {{2, Color::kWhite, PieceKind::kMan}};  // White is crowned on 1-4
  EXPECT_NE(error_of(s).find("promotion row"), std::string::npos);
  s.pieces = {{30, Color::kBlack, PieceKind::kMan}};  // Black is crowned on 29-32
  EXPECT_NE(error_of(s).find("promotion row"), std::string::npos);
  s.pieces = {{2, Color::kWhite, PieceKind::kKing}, {30, Color::kBlack, PieceKind::kMan}};
  EXPECT_FALSE(error_of(s).empty());
  s.pieces = {{2, Color::kWhite, PieceKind::kKing}, {30, Color::kBlack, PieceKind::kKing}};
  EXPECT_TRUE(error_of(s).empty());
  s.pieces.clear();
  for (int sq = 5; sq <= 17; ++sq) s.pieces.push_back({sq, Color::kBlack, PieceKind::kMan});
  EXPECT_NE(error_of(s).find("13 pieces"), std::string::npos) << error_of(s);
}

TEST(Position, SetupWithOutOfRangeEnumsIsAnError) {
  const Variant v = GetVariant("international");
  PositionSetup s;
  s.pieces = {{20, static_cast<Color>(7), PieceKind::kMan}};
  EXPECT_FALSE(Position::FromSetup(v, s).ok());
  s.pieces = {{20, Color::kBlack, static_cast<PieceKind>(9)}};
  EXPECT_FALSE(Position::FromSetup(v, s).ok());
  s.pieces = {{20, Color::kBlack, PieceKind::kMan}};
  s.side_to_move = static_cast<Color>(3);
  EXPECT_FALSE(Position::FromSetup(v, s).ok());
  Variant broken = v;
  broken.initial_rows = 5;
  s.side_to_move = Color::kWhite;
  EXPECT_FALSE(Position::FromSetup(broken, s).ok());
}

TEST(Position, PlayReturnsANewPositionAndKeepsTheOld) {
  const Variant v = GetVariant("international");
  const Position start = Position::Initial(v);
  const MoveList moves = LegalMoves(v, start);
  ASSERT_EQ(moves.size(), 9u);
  const Position after = start.Play(moves[0]);
  EXPECT_EQ(start, Position::Initial(v));
  EXPECT_NE(after, start);
  EXPECT_EQ(after.side_to_move(), Color::kBlack);
  EXPECT_EQ(after.CountPieces(Color::kWhite), 20);
  EXPECT_FALSE(after.PieceAt(moves[0].from).has_value());
  EXPECT_EQ(after.PieceAt(moves[0].to)->color, Color::kWhite);
}

TEST(Position, CaptureRemovesPiecesAndUpdatesHash) {
  const Variant v = GetVariant("international");
  const Position p = FromFen(v, "W:W47,33:BK28,42,32");
  const MoveList moves = LegalMoves(v, p);
  ASSERT_EQ(moves.size(), 1u);
  const Position after = p.Play(moves[0]);
  EXPECT_EQ(after.ToSetup(), FromFen(v, "B:W27,33:BK28").ToSetup());
  EXPECT_EQ(after.hash(), FromFen(v, "B:W27,33:BK28").hash());
}

TEST(Position, HashDependsOnPiecesKindsAndSide) {
  const Variant v = GetVariant("international");
  const Position a = FromFen(v, "W:W33:B18");
  EXPECT_EQ(a.hash(), FromFen(v, "W:W33:B18").hash());
  EXPECT_NE(a.hash(), FromFen(v, "B:W33:B18").hash());
  EXPECT_NE(a.hash(), FromFen(v, "W:WK33:B18").hash());
  EXPECT_NE(a.hash(), FromFen(v, "W:W18:B33").hash());
  // Transpositions reach the same hash by different move orders.
  const Position s = Position::Initial(v);
  auto play = [&](Position p, std::initializer_list<std::pair<int, int>> seq) {
    for (auto [from, to] : seq) {
      bool found = false;
      for (const Move& m : LegalMoves(v, p)) {
        if (m.from == from && m.to == to && !found) {
          p = p.Play(m);
          found = true;
        }
      }
      EXPECT_TRUE(found) << from << "-" << to;
    }
    return p;
  };
  // White on the left, Black on the right: the moves cannot interact.
  const Position x = play(s, {{31, 26}, {19, 24}, {32, 27}, {20, 25}});
  const Position y = play(s, {{32, 27}, {20, 25}, {31, 26}, {19, 24}});
  EXPECT_EQ(x, y);
  EXPECT_EQ(x.hash(), y.hash());
  EXPECT_EQ(x.CountPieces(Color::kWhite), 20);
}

TEST(Position, PlayIgnoresMovesThatDoNotFit) {
  const Variant v = GetVariant("international");
  const Position p = Position::Initial(v);
  Move bogus;
  bogus.from = 99;
  bogus.to = 3;
  EXPECT_EQ(p.Play(bogus), p);
  bogus.from = 1;  // a black man, but White is to move
  EXPECT_EQ(p.Play(bogus), p);
  bogus.from = 31;
  bogus.to = 32;  // occupied
  EXPECT_EQ(p.Play(bogus), p);
}

}  // namespace
}  // namespace draughts::rules
