// The goals that make antidraughts and breakthrough: who has won when the
// game ends (10x10: row r holds squares 5r+1..5r+5, in columns 1,3,5,7,9 on
// even rows and 0,2,4,6,8 on odd rows).

#include <gtest/gtest.h>

#include "rules/fen.h"
#include "rules/game.h"
#include "test_support.h"

namespace draughts::rules {
namespace {

using testing::FromFen;
using testing::GetVariant;

GameRecord After(std::string_view id, std::string_view fen, std::string_view move) {
  const Variant v = GetVariant(id);
  GameRecord record(v, FromFen(v, fen));
  auto next = record.Play(move);
  EXPECT_TRUE(next.ok()) << id << " " << move << ": " << next.error().ToString();
  return next.ok() ? *next : record;
}

// White man 32 takes Black's last piece, 27, landing on 21.
constexpr std::string_view kLastPiece = "W:W32:B27";

TEST(Antidraughts, LosingEveryPieceWins) {
  const GameRecord game = After("antidraughts", kLastPiece, "32x21");
  EXPECT_EQ(game.outcome(), (Outcome{GameStatus::kBlackWins, OutcomeReason::kNoPieces}));
  EXPECT_EQ(After("international", kLastPiece, "32x21").outcome(),
            (Outcome{GameStatus::kWhiteWins, OutcomeReason::kNoPieces}));
}

TEST(Antidraughts, BeingBlockedWins) {
  // Black man 45 (row 8, col 9): its only step is 50, held by White, and
  // 50 cannot be jumped (nothing behind it). Black to move cannot move.
  const Variant v = GetVariant("antidraughts");
  GameRecord record(v, FromFen(v, "B:W50,7:B45"));
  EXPECT_TRUE(record.legal_moves().empty());
  EXPECT_EQ(record.outcome(), (Outcome{GameStatus::kBlackWins, OutcomeReason::kNoLegalMoves}));
}

TEST(Breakthrough, TheFirstKingWins) {
  // White man 6 steps onto 1, the last row.
  const GameRecord game = After("breakthrough", "W:W6:B45", "6-1");
  EXPECT_EQ(game.outcome(), (Outcome{GameStatus::kWhiteWins, OutcomeReason::kFirstKing}));
  EXPECT_TRUE(game.legal_moves().empty());
  EXPECT_FALSE(After("international", "W:W6:B45", "6-1").is_over());
  // A move after the end is refused.
  EXPECT_FALSE(game.Play("45-50").ok());
}

TEST(Breakthrough, BlockedStillLoses) {
  const Variant v = GetVariant("breakthrough");
  GameRecord record(v, FromFen(v, "B:W50,7:B45"));
  EXPECT_EQ(record.outcome(), (Outcome{GameStatus::kWhiteWins, OutcomeReason::kNoLegalMoves}));
}

TEST(Breakthrough, NoMovesOnceAKingIsOnTheBoard) {
  const Variant v = GetVariant("breakthrough");
  EXPECT_TRUE(LegalMoves(v, FromFen(v, "B:WK1:B20,30")).empty());
  EXPECT_FALSE(LegalMoves(GetVariant("international"), FromFen(v, "B:WK1:B20,30")).empty());
}

TEST(Breakthrough, MovesAsInternationalUntilThen) {
  const Variant v = GetVariant("breakthrough");
  const Variant intl = GetVariant("international");
  const Position p = FromFen(v, "W:W6,28,31:B12,17,22");
  EXPECT_EQ(testing::SetTexts(LegalMoves(v, p)), testing::SetTexts(LegalMoves(intl, p)));
}

}  // namespace
}  // namespace draughts::rules
