// Each file of data/ holds games as some archive or federation writes them;
// each is compared with the same game written plainly (or played through
// the rules), so the tests say "reads as that game", not which FEN it is.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "rules/fen.h"
#include "rules/game.h"
#include "rules/pdn.h"
#include "rules/pdn_replay.h"
#include "test_files.h"

namespace draughts::pdn_tool::testing {
namespace {

using ::testing::HasSubstr;
using namespace draughts::rules;

Variant Named(std::string_view id) {
  auto variant = FindVariant(id);
  EXPECT_TRUE(variant.ok()) << id;
  return *variant;
}

PdnReplay Replay(const PdnGame& game, std::string_view fallback = "international") {
  auto replay = ReplayPdn(game, Named(fallback));
  EXPECT_TRUE(replay.ok()) << "game " << game.number << ": " << replay.error().ToString();
  if (!replay.ok()) return PdnReplay{GameRecord(Named(fallback)), PdnResult::kUnknown, {}};
  return *replay;
}

// The positions of a game written plainly in PDN.
std::vector<Position> PlainPositions(const std::string& pdn, std::string_view fallback) {
  auto games = ReadPdn(pdn);
  EXPECT_TRUE(games.ok()) << games.error().ToString();
  if (!games.ok() || games->size() != 1) return {};
  return Replay(games->front(), fallback).record.positions();
}

// The positions after playing moves in the library's own notation.
std::vector<Position> PlayedPositions(std::string_view id, const std::vector<std::string>& moves) {
  GameRecord record(Named(id));
  for (const std::string& move : moves) {
    auto next = record.Play(move);
    EXPECT_TRUE(next.ok()) << move << ": " << next.error().ToString();
    if (!next.ok()) break;
    record = *next;
  }
  return record.positions();
}

std::vector<std::string> Texts(const PdnGame& game) {
  std::vector<std::string> out;
  for (const PdnMove& move : game.moves) out.push_back(move.text);
  return out;
}

bool AnyContains(const std::vector<std::string>& notes, const std::string& part) {
  for (const std::string& note : notes) {
    if (note.find(part) != std::string::npos) return true;
  }
  return false;
}

bool AnyProblemContains(const std::vector<PdnProblem>& problems, int game,
                        const std::string& part) {
  for (const PdnProblem& problem : problems) {
    if (problem.game == game && problem.message.find(part) != std::string::npos) return true;
  }
  return false;
}

TEST(PdnFiles, InternationalQuirksAndABrokenGameInTheMiddle) {
  const PdnReadReport read = ReadPdnGames(DataFile("international_quirks.pdn"));
  // Game 2 cannot be read; the games around it are.
  ASSERT_EQ(read.failures.size(), 1u);
  EXPECT_EQ(read.failures[0].game, 2);
  EXPECT_EQ(read.failures[0].line, 12);
  EXPECT_EQ(read.failures[0].column, 10);
  EXPECT_THAT(read.failures[0].message, HasSubstr("unexpected '@'"));
  ASSERT_EQ(read.games.size(), 4u);
  EXPECT_EQ(read.games[0].number, 1);
  EXPECT_EQ(read.games[1].number, 3);

  // Spaces in moves and numbers, "2...", zero-padded "03.", a Dutch Result
  // tag, a tag without a value, "2 - 0", CRLF lines.
  const PdnGame& quirks = read.games[0];
  EXPECT_EQ(Texts(quirks),
            (std::vector<std::string>{"32-28", "19-23", "28x19", "14x23", "33-29", "10-14"}));
  ASSERT_NE(quirks.FindTag("Result"), nullptr);
  EXPECT_EQ(*quirks.FindTag("Result"), "2-0");
  ASSERT_NE(quirks.FindTag("Round"), nullptr);
  EXPECT_EQ(*quirks.FindTag("Round"), "");
  EXPECT_EQ(quirks.result, PdnResult::kWhiteWins);
  EXPECT_EQ(Replay(quirks).record.positions(),
            PlainPositions("1. 32-28 19-23 2. 28x19 14x23 3. 33-29 10-14 2-0", "international"));

  // No result after the moves: the Result tag's.
  EXPECT_EQ(read.games[1].result, PdnResult::kBlackWins);
  const PdnReplay unfinished = Replay(read.games[1]);
  EXPECT_EQ(unfinished.result, PdnResult::kBlackWins);
  EXPECT_FALSE(unfinished.record.is_over());

  // "1-1" after the moves, "0-2" in the tag: the tag, with a note.
  EXPECT_EQ(read.games[2].result, PdnResult::kBlackWins);
  EXPECT_TRUE(AnyProblemContains(read.notes, 4, "differs from the Result tag"));

  // Russian tag names, "-" as the result.
  const PdnGame& foreign = read.games[3];
  ASSERT_NE(foreign.FindTag("White"), nullptr);
  EXPECT_EQ(*foreign.FindTag("White"), "Ivanov");
  ASSERT_NE(foreign.FindTag("Black"), nullptr);
  EXPECT_EQ(foreign.result, PdnResult::kUnknown);
  EXPECT_EQ(foreign.moves.size(), 3u);
}

TEST(PdnFiles, Latin1IsReadAsUtf8) {
  auto games = ReadPdn(DataFile("latin1.pdn"));
  ASSERT_TRUE(games.ok()) << games.error().ToString();
  ASSERT_EQ(games->size(), 1u);
  EXPECT_EQ(*games->front().FindTag("White"), "G\xc3\xa9rard");
  EXPECT_EQ(games->front().leading_comment,
            "Partie jou\xc3\xa9"
            "e \xc3\xa0 Paris");
  // Result tag "1-1", "*" after the moves.
  EXPECT_EQ(games->front().result, PdnResult::kDraw);
}

TEST(PdnFiles, EnglishSignsSwappedAndAPartialCapturePath) {
  auto games = ReadPdn(DataFile("english_quirks.pdn"));
  ASSERT_TRUE(games.ok()) << games.error().ToString();
  ASSERT_EQ(games->size(), 2u);
  // "23-16" is a jump and "22x18" a plain move.
  const PdnReplay swapped = Replay((*games)[0]);
  EXPECT_EQ(swapped.record.positions(),
            PlainPositions("[GameType \"21\"] 1. 11-15 24-20 2. 15-19 23x16 3. 12x19 22-18 *",
                           "english"));
  EXPECT_TRUE(AnyContains(swapped.notes, "a capture written with '-'"));
  // "26x10" fits two jumps; only 26x17x10 leaves the man on 23 that moves next.
  const PdnReplay partial = Replay((*games)[1]);
  EXPECT_EQ(
      partial.record.positions(),
      PlainPositions("[GameType \"21\"] [FEN \"W:W26:B14,15,22,23\"] 1... 26x17x10 2. 23-27 *",
                     "english"));
  EXPECT_TRUE(AnyContains(partial.notes, "26x17x10 lets the game go on"));
}

TEST(PdnFiles, RussianAlgebraicFullAndShortForms) {
  auto games = ReadPdn(DataFile("russian.pdn"));
  ASSERT_TRUE(games.ok()) << games.error().ToString();
  ASSERT_EQ(games->size(), 2u);
  // a1 is square 29, c3 22, h2 28 (White at the bottom, a1 dark).
  const std::vector<Position> full =
      PlayedPositions("russian", {"22-18", "11-15", "18x11", "8x15", "24-19", "15x24", "28x19"});
  const PdnReplay first = Replay((*games)[0]);
  EXPECT_EQ(first.record.positions(), full);
  const PdnReplay short_form = Replay((*games)[1]);
  EXPECT_EQ(short_form.record.positions(), std::vector<Position>(full.begin(), full.begin() + 5));
  // Written back as the federation writes it: coordinates, ':' for captures.
  const std::string written = WritePdn(ToPdnGame(first.record));
  EXPECT_THAT(written, HasSubstr("1. c3-d4 f6-e5 2. d4:f6 g7:e5 3. g3-f4 e5:g3 4. h2:f4"));
  EXPECT_EQ(Replay(ReadPdn(written)->front()).record.positions(), full);
}

TEST(PdnFiles, ItalianInFidNumberingAndInOurs) {
  auto games = ReadPdn(DataFile("italian.pdn"));
  ASSERT_TRUE(games.ok()) << games.error().ToString();
  ASSERT_EQ(games->size(), 2u);
  // FID 23 (Black's dark corner is 1) is our 22 on the mirrored board.
  const std::vector<Position> played =
      PlayedPositions("italian", {"22-18", "11-15", "18x11", "8x15"});
  const PdnReplay fid = Replay((*games)[0]);
  EXPECT_EQ(fid.record.positions(), played);
  EXPECT_TRUE(fid.notes.empty());
  const PdnReplay ours = Replay((*games)[1]);
  EXPECT_EQ(ours.record.positions(), played);
  EXPECT_TRUE(AnyContains(ours.notes, "numbered as in international"));
  const PdnGame written = ToPdnGame(fid.record);
  EXPECT_EQ(Texts(written), (std::vector<std::string>{"23-19", "10-14", "19x10", "5x14"}));
}

TEST(PdnFiles, SpanishNumberedFromWhitesSide) {
  auto games = ReadPdn(DataFile("spanish.pdn"));
  ASSERT_TRUE(games.ok()) << games.error().ToString();
  const std::vector<Position> played = PlayedPositions("spanish", {"22-18", "10-14"});
  const PdnReplay spanish = Replay(games->front());
  EXPECT_EQ(spanish.record.positions(), played);
  EXPECT_EQ(Texts(ToPdnGame(spanish.record)), (std::vector<std::string>{"10-14", "22-18"}));
}

TEST(PdnFiles, AlgebraicFederations) {
  struct Case {
    const char* file;
    const char* variant;
    std::vector<std::string> library_moves;
    std::vector<std::string> federation_text;
  };
  const std::vector<Case> cases = {
      {"brazilian.pdn",
       "brazilian",
       {"22-18", "11-15", "18x11", "8x15"},
       {"c3-d4", "f6-e5", "d4xf6", "g7xe5"}},
      {"czech.pdn",
       "czech",
       {"22-18", "11-15", "18x11", "8x15"},
       {"c3-d4", "f6-e5", "d4xf6", "g7xe5"}},
      // The full board: a8 is 1, d3 44, d8 4.
      {"turkish.pdn", "turkish", {"44-36", "20-28", "36x4"}, {"d3-d4", "d6-d5", "d4xd8"}},
  };
  for (const Case& c : cases) {
    auto games = ReadPdn(DataFile(c.file));
    ASSERT_TRUE(games.ok()) << c.file << ": " << games.error().ToString();
    const PdnReplay replay = Replay(games->front());
    EXPECT_EQ(replay.record.variant().id, c.variant) << c.file;
    EXPECT_EQ(replay.record.positions(), PlayedPositions(c.variant, c.library_moves)) << c.file;
    EXPECT_EQ(Texts(ToPdnGame(replay.record)), c.federation_text) << c.file;
  }
}

TEST(PdnFiles, NumericFederations) {
  struct Case {
    const char* file;
    const char* variant;
    std::vector<std::string> moves;
  };
  const std::vector<Case> cases = {
      {"pool.pdn", "pool", {"11-15", "23-19", "9-14"}},
      {"thai.pdn", "thai", {"27-23", "6-10"}},
      {"frisian.pdn", "frisian", {"32-28", "19-23", "28x19", "14x23"}},
      {"canadian.pdn", "canadian", {"43-37", "30-36"}},
  };
  for (const Case& c : cases) {
    auto games = ReadPdn(DataFile(c.file));
    ASSERT_TRUE(games.ok()) << c.file << ": " << games.error().ToString();
    const PdnReplay replay = Replay(games->front());
    EXPECT_EQ(replay.record.variant().id, c.variant) << c.file;
    EXPECT_EQ(replay.record.positions(), PlayedPositions(c.variant, c.moves)) << c.file;
    EXPECT_EQ(Texts(ToPdnGame(replay.record)), c.moves) << c.file;
  }
}

TEST(PdnFiles, ThaiCapturesAreWrittenWithADashAndReadBack) {
  // White's man on 23 must take 18 and land on 14.
  const Variant thai = Named("thai");
  GameRecord record(thai, *ParseFen(thai, "W:W23:B18,1"));
  ASSERT_EQ(record.legal_moves().size(), 1u);
  auto next = record.Play(record.legal_moves()[0]);
  ASSERT_TRUE(next.ok()) << next.error().ToString();
  const PdnGame written = ToPdnGame(*next);
  ASSERT_EQ(written.moves.size(), 1u);
  EXPECT_EQ(written.moves[0].text.find('x'), std::string::npos) << written.moves[0].text;
  auto again = ReadPdn(WritePdn(written));
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(Replay(again->front(), "thai").record.positions(), next->positions());
}

}  // namespace
}  // namespace draughts::pdn_tool::testing

namespace draughts::pdn_tool::testing {
namespace {

TEST(PdnFilesGuess, AGameWithoutGameTypeReplaysInTheRuleSetItFits) {
  // Coordinates up to rank 8, men capturing backwards: not international;
  // the first rule set in which the game replays is Russian.
  auto games = rules::ReadPdn("1. c3-d4 f6-e5 2. d4:f6 g7:e5 3. b2-c3 e5-d4 4. c3:e5 *");
  ASSERT_TRUE(games.ok());
  auto replay = rules::ReplayPdn(games->front(), *rules::FindVariant("international"));
  ASSERT_TRUE(replay.ok()) << replay.error().ToString();
  EXPECT_EQ(replay->record.variant().id, "russian");
  ASSERT_FALSE(replay->notes.empty());
  EXPECT_NE(replay->notes.front().find("no GameType"), std::string::npos);
  // With a GameType the rule set is not guessed.
  auto named = rules::ReadPdn("[GameType \"20\"] 1. c3-d4 f6-e5 *");
  EXPECT_FALSE(rules::ReplayPdn(named->front(), *rules::FindVariant("english")).ok());
}

}  // namespace
}  // namespace draughts::pdn_tool::testing
