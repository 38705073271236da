#include "rules/pdn_replay.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "rules/fen.h"
#include "rules/move_notation.h"

namespace draughts::rules {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;

Variant Named(std::string_view id) {
  auto variant = FindVariant(id);
  EXPECT_TRUE(variant.ok()) << id;
  return *variant;
}

PdnGame ReadOne(std::string_view text) {
  auto games = ReadPdn(text);
  EXPECT_TRUE(games.ok()) << games.error().ToString();
  EXPECT_EQ(games->size(), 1u);
  return games->front();
}

TEST(PdnReplay, InternationalOpeningWithCaptures) {
  // 32-28 19-23 28x19 (takes 23) 14x23 (takes 19): White lost 32's man,
  // Black's 19 and 14 are gone and a black man stands on 23.
  const PdnGame game = ReadOne("[GameType \"20\"]\n1. 32-28 19-23 2. 28x19 14x23 *");
  auto record = ReplayPdnGame(game, Named("english"));
  ASSERT_TRUE(record.ok()) << record.error().ToString();
  EXPECT_EQ(record->variant().id, "international");
  EXPECT_EQ(record->ply_count(), 4);
  EXPECT_EQ(record->positions().size(), 5u);
  EXPECT_EQ(FormatFen(record->position()), "W:W31,33-50:B1-13,15-18,20,23");
  EXPECT_EQ(FormatFen(record->positions()[1]), "B:W28,31,33-50:B1-20");
}

TEST(PdnReplay, EnglishGameTypeBlackMovesFirst) {
  const PdnGame game = ReadOne("[GameType \"21\"]\n1. 11-15 23-19 2. 8-11 22-17 *");
  auto record = ReplayPdnGame(game, Named("international"));
  ASSERT_TRUE(record.ok()) << record.error().ToString();
  EXPECT_EQ(record->variant().id, "english");
  EXPECT_EQ(FormatFen(record->position()), "B:W17,19,21,24-32:B1-7,9-12,15");
}

TEST(PdnReplay, FallbackVariantWithoutGameType) {
  const PdnGame game = ReadOne("1. 32-28 *");
  auto record = ReplayPdnGame(game, Named("international"));
  ASSERT_TRUE(record.ok()) << record.error().ToString();
  EXPECT_EQ(record->variant().id, "international");
}

TEST(PdnReplay, StartsFromTheFenTag) {
  const PdnGame game = ReadOne("[FEN \"B:W45:B27,5\"]\n1... 27-31 *");
  auto record = ReplayPdnGame(game, Named("international"));
  ASSERT_TRUE(record.ok()) << record.error().ToString();
  EXPECT_EQ(FormatFen(record->start()), "B:W45:B5,27");
  EXPECT_EQ(FormatFen(record->position()), "W:W45:B5,31");
}

TEST(PdnReplay, IllegalMoveNamesNumberAndPlace) {
  const PdnGame game = ReadOne("[GameType \"20\"]\n1. 32-28 19-23\n2. 28-22 *");
  auto record = ReplayPdnGame(game, Named("international"));
  ASSERT_FALSE(record.ok());
  // 28-22 is not legal: 28x19 is compulsory.
  EXPECT_THAT(record.error().message,
              AllOf(HasSubstr("line 3, column 4: move 3 (28-22)"), HasSubstr("compulsory")));
  EXPECT_EQ(record.error().offset, 34u);
}

TEST(PdnReplay, AmbiguousMoveInAGame) {
  const PdnGame game = ReadOne("[GameType \"21\"][FEN \"W:W26:B14,15,22,23\"]\n1... 26x10 *");
  // Both jumps end the game as far as it goes: the first is taken, noted.
  auto replay = ReplayPdn(game, Named("international"));
  ASSERT_TRUE(replay.ok()) << replay.error().ToString();
  ASSERT_EQ(replay->notes.size(), 1u);
  EXPECT_THAT(replay->notes[0], AllOf(HasSubstr("fits 2 moves"), HasSubstr("26x")));
}

TEST(PdnReplay, MovesAfterTheEndAreRejected) {
  // 32x21 takes Black's last piece; nothing can follow.
  const PdnGame game = ReadOne("[FEN \"W:W32,45:B27\"]\n1. 32x21 27-31 *");
  auto record = ReplayPdnGame(game, Named("international"));
  ASSERT_FALSE(record.ok());
  EXPECT_THAT(record.error().message, AllOf(HasSubstr("move 2"), HasSubstr("over")));
}

TEST(PdnReplay, BadTagsAreErrors) {
  EXPECT_FALSE(ReplayPdnGame(ReadOne("[GameType \"99\"] *"), Named("international")).ok());
  EXPECT_FALSE(ReplayPdnGame(ReadOne("[GameType \"x\"] *"), Named("international")).ok());
  auto bad_fen = ReplayPdnGame(ReadOne("[FEN \"W:W99:B1\"] *"), Named("international"));
  ASSERT_FALSE(bad_fen.ok());
  EXPECT_THAT(bad_fen.error().message, HasSubstr("FEN tag"));
}

TEST(PdnReplay, RecordToPdnAndBack) {
  const Variant english = Named("english");
  GameRecord record(english, *ParseFen(english, "W:W26,30:B14,15,22,23,3"));
  for (const char* move : {"26x17x10", "3-7", "10x3"}) {
    auto next = record.Play(move);
    ASSERT_TRUE(next.ok()) << move << ": " << next.error().ToString();
    record = *next;
  }
  PdnGame game = ToPdnGame(record, {{"Event", "Test"}, {"Result", "?"}});
  EXPECT_EQ(*game.FindTag("GameType"), "21");
  EXPECT_EQ(*game.FindTag("FEN"), "W:W26,30:B3,14-15,22-23");
  ASSERT_EQ(game.moves.size(), 3u);
  EXPECT_EQ(FormatMoveText(game.moves[0].move), "26x17x10");  // ambiguous short form
  EXPECT_EQ(FormatMoveText(game.moves[2].move), "10x3");
  // Black moves first in English; this game starts with White to move.
  EXPECT_TRUE(game.first_move_by_second_player);
  const std::string text = WritePdn(game);
  EXPECT_THAT(text, HasSubstr("1... 26x17x10 2. 3-7 10x3"));
  auto again = ReadPdn(text);
  ASSERT_TRUE(again.ok()) << again.error().ToString();
  auto replayed = ReplayPdnGame(again->front(), Named("international"));
  ASSERT_TRUE(replayed.ok()) << replayed.error().ToString();
  EXPECT_EQ(replayed->positions(), record.positions());
  EXPECT_EQ(replayed->moves(), record.moves());
}

}  // namespace
}  // namespace draughts::rules
