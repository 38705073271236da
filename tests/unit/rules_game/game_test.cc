#include "rules/game.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "rules/fen.h"
#include "rules/move_notation.h"

namespace draughts::rules {
namespace {

using ::testing::HasSubstr;

Variant Named(std::string_view id) {
  auto variant = FindVariant(id);
  EXPECT_TRUE(variant.ok()) << id;
  return *variant;
}

GameRecord FromFen(const Variant& variant, std::string_view fen) {
  auto position = ParseFen(variant, fen);
  EXPECT_TRUE(position.ok()) << fen << ": " << position.error().ToString();
  return GameRecord(variant, *position);
}

GameRecord MustPlay(const GameRecord& record, std::string_view move) {
  auto next = record.Play(move);
  EXPECT_TRUE(next.ok()) << move << ": " << next.error().ToString();
  return next.ok() ? *next : record;
}

TEST(GameRecord, StartsOngoingFromTheInitialPosition) {
  const GameRecord record(Named("international"));
  EXPECT_FALSE(record.is_over());
  EXPECT_EQ(record.outcome().ToString(), "ongoing");
  EXPECT_EQ(record.ply_count(), 0);
  EXPECT_EQ(record.legal_moves().size(), 9u);  // 31..35 each one or two steps up
  EXPECT_TRUE(record.start() == Position::Initial(Named("international")));
  EXPECT_EQ(record.positions().size(), 1u);
}

TEST(GameRecord, PlayReturnsANewRecordAndLeavesTheOldOne) {
  const GameRecord start(Named("international"));
  const GameRecord after = MustPlay(start, "32-28");
  EXPECT_EQ(start.ply_count(), 0);
  EXPECT_EQ(after.ply_count(), 1);
  EXPECT_EQ(FormatFen(after.position()), "B:W28,31,33-50:B1-20");
  EXPECT_TRUE(after.positions()[0] == start.position());
  ASSERT_EQ(after.moves().size(), 1u);
  EXPECT_EQ(after.moves()[0].from, 32);
  EXPECT_EQ(after.moves()[0].to, 28);
}

TEST(GameRecord, IllegalMovesChangeNothing) {
  GameRecord record(Named("international"));
  auto bad_text = record.Play("32-27x");
  EXPECT_FALSE(bad_text.ok());
  auto illegal = record.Play("19-23");  // Black's move, White to play
  ASSERT_FALSE(illegal.ok());
  EXPECT_THAT(illegal.error().message, HasSubstr("not legal"));

  Move forged;  // not generated for this position
  forged.from = 32;
  forged.to = 23;
  forged.landings[0] = 23;
  EXPECT_TRUE(record.Apply(forged).has_value());
  EXPECT_EQ(record.ply_count(), 0);
  EXPECT_EQ(record.legal_moves().size(), 9u);
}

TEST(GameRecord, CapturingTheLastPieceWins) {
  const GameRecord record = MustPlay(FromFen(Named("international"), "W:W32,45:B27"), "32x21");
  EXPECT_EQ(record.outcome(), (Outcome{GameStatus::kWhiteWins, OutcomeReason::kNoPieces}));
  EXPECT_EQ(record.outcome().winner(), Color::kWhite);
  EXPECT_EQ(record.outcome().ToString(), "white wins: no pieces left");
  EXPECT_TRUE(record.legal_moves().empty());
  auto more = record.Play("45-40");
  ASSERT_FALSE(more.ok());
  EXPECT_THAT(more.error().message, HasSubstr("over"));
}

TEST(GameRecord, BlockedSideLoses) {
  // Black's man on 36 (left edge, row 7) can only step to 41; after 46-41 it
  // cannot, and cannot jump 41 either because 47 is occupied.
  const GameRecord before = FromFen(Named("international"), "W:W46,47:B36");
  EXPECT_FALSE(before.is_over());
  const GameRecord record = MustPlay(before, "46-41");
  EXPECT_EQ(record.outcome(), (Outcome{GameStatus::kWhiteWins, OutcomeReason::kNoLegalMoves}));
}

TEST(GameRecord, StartingPositionCanAlreadyBeOver) {
  const GameRecord record = FromFen(Named("international"), "B:W45:B");
  EXPECT_EQ(record.outcome(), (Outcome{GameStatus::kWhiteWins, OutcomeReason::kNoPieces}));
}

TEST(GameRecord, ServiceDecisions) {
  const GameRecord record = MustPlay(GameRecord(Named("international")), "32-28");

  auto resigned = record.DecideResignation(Color::kBlack);
  ASSERT_TRUE(resigned.ok());
  EXPECT_EQ(resigned->outcome(), (Outcome{GameStatus::kWhiteWins, OutcomeReason::kResignation}));
  EXPECT_TRUE(resigned->legal_moves().empty());
  EXPECT_FALSE(resigned->Play("19-23").ok());
  EXPECT_FALSE(resigned->DecideAgreedDraw().ok());
  auto undo = resigned->TakeBack(1);
  ASSERT_FALSE(undo.ok());
  EXPECT_THAT(undo.error().message, HasSubstr("resignation"));

  auto agreed = record.DecideAgreedDraw();
  ASSERT_TRUE(agreed.ok());
  EXPECT_EQ(agreed->outcome(), (Outcome{GameStatus::kDraw, OutcomeReason::kAgreement}));
  EXPECT_EQ(agreed->outcome().winner(), std::nullopt);

  auto flagged = record.DecideTimeForfeit(Color::kWhite);
  ASSERT_TRUE(flagged.ok());
  EXPECT_EQ(flagged->outcome(), (Outcome{GameStatus::kBlackWins, OutcomeReason::kTimeForfeit}));

  auto left = record.DecideAbandonment(Color::kBlack);
  ASSERT_TRUE(left.ok());
  EXPECT_EQ(left->outcome(), (Outcome{GameStatus::kWhiteWins, OutcomeReason::kAbandonment}));
}

TEST(GameRecord, TakeBack) {
  const GameRecord start(Named("international"));
  const GameRecord two = MustPlay(MustPlay(start, "32-28"), "19-23");
  auto back = two.TakeBack(2);
  ASSERT_TRUE(back.ok());
  EXPECT_EQ(back->ply_count(), 0);
  EXPECT_TRUE(back->position() == start.position());
  EXPECT_EQ(back->legal_moves().size(), 9u);
  EXPECT_FALSE(two.TakeBack(3).ok());
  EXPECT_FALSE(two.TakeBack(-1).ok());

  // An end the rules reached is undone with the move.
  const GameRecord won = MustPlay(FromFen(Named("international"), "W:W32,45:B27"), "32x21");
  auto undone = won.TakeBack(1);
  ASSERT_TRUE(undone.ok());
  EXPECT_FALSE(undone->is_over());
  EXPECT_EQ(undone->legal_moves().size(), 1u);
}

}  // namespace
}  // namespace draughts::rules
