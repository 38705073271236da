// The pdn tool's commands on the files of data/: check counts and explains,
// convert writes games that replay to the same positions, fen gives the
// position of a game at a ply.
#include "pdn/commands.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sstream>

#include "rules/fen.h"
#include "rules/move_notation.h"
#include "rules/pdn.h"
#include "rules/pdn_replay.h"
#include "test_files.h"

namespace draughts::pdn_tool::testing {
namespace {

using ::testing::HasSubstr;

const char* const kFiles[] = {"international_quirks.pdn",
                              "latin1.pdn",
                              "english_quirks.pdn",
                              "russian.pdn",
                              "italian.pdn",
                              "spanish.pdn",
                              "brazilian.pdn",
                              "czech.pdn",
                              "turkish.pdn",
                              "pool.pdn",
                              "thai.pdn",
                              "frisian.pdn",
                              "canadian.pdn"};

std::vector<InputFile> AllFiles() {
  std::vector<InputFile> files;
  for (const char* name : kFiles) files.push_back({name, DataFile(name)});
  return files;
}

rules::Variant International() {
  return *rules::FindVariant("international");
}

TEST(PdnCommands, CheckCountsEveryGameAndExplainsTheFailure) {
  std::ostringstream out;
  const CheckReport report = Check(AllFiles(), International(), false, out);
  // Every hand-made game replays but the broken one, which is not read.
  EXPECT_EQ(report.total.failed, 1);
  EXPECT_EQ(report.by_variant.at("?").failed, 1);
  EXPECT_EQ(report.total.read, report.total.replayed);
  EXPECT_EQ(report.by_variant.at("russian").replayed, 2);
  EXPECT_EQ(report.by_variant.at("italian").replayed, 2);
  EXPECT_EQ(report.by_variant.at("turkish").replayed, 1);
  EXPECT_THAT(out.str(),
              HasSubstr("international_quirks.pdn: game 2, line 12, column 10: unexpected '@'"));
  EXPECT_THAT(out.str(), HasSubstr("total"));
}

TEST(PdnCommands, CheckReportsAGameThatDoesNotReplay) {
  std::ostringstream out;
  const CheckReport report = Check({{"bad.pdn", "[GameType \"20\"]\n1. 32-28 19-23\n2. 28-22 *\n"}},
                                   International(), false, out);
  EXPECT_EQ(report.total.read, 1);
  EXPECT_EQ(report.total.failed, 1);
  EXPECT_THAT(out.str(), HasSubstr("bad.pdn: game 1: line 3, column 4: move 3 (28-22)"));
}

TEST(PdnCommands, ConvertedGamesReplayToTheSamePositions) {
  const std::vector<InputFile> files = AllFiles();
  std::ostringstream out;
  std::ostringstream errors;
  EXPECT_EQ(Convert(files, International(), out, errors), 1);  // the broken game
  EXPECT_THAT(errors.str(), HasSubstr("game 2"));
  auto converted = rules::ReadPdn(out.str());
  ASSERT_TRUE(converted.ok()) << converted.error().ToString();
  std::vector<std::vector<rules::Position>> expected;
  for (const InputFile& file : files) {
    for (const rules::PdnGame& game : rules::ReadPdnGames(file.text).games) {
      expected.push_back(rules::ReplayPdnGame(game, International())->positions());
    }
  }
  ASSERT_EQ(converted->size(), expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i) {
    const rules::PdnGame& game = (*converted)[i];
    EXPECT_NE(game.FindTag("GameType"), nullptr) << i;
    auto replayed = rules::ReplayPdn(game, International());
    ASSERT_TRUE(replayed.ok()) << i << ": " << replayed.error().ToString();
    EXPECT_EQ(replayed->record.positions(), expected[i]) << i;
    // Normalised: nothing left to guess.
    EXPECT_TRUE(replayed->notes.empty()) << i << ": " << replayed->notes.front();
  }
  // Written as each federation writes: the Russian game in coordinates.
  EXPECT_THAT(out.str(), HasSubstr("1. c3-d4 f6-e5 2. d4:f6 g7:e5"));
  EXPECT_THAT(out.str(), HasSubstr("[FEN \"W:W26:B"));
}

TEST(PdnCommands, FenOfAGameAtAPly) {
  const InputFile file{"russian.pdn", DataFile("russian.pdn")};
  std::string error;
  const rules::Variant russian = *rules::FindVariant("russian");
  auto start = Fen(file, International(), 1, 0, error);
  ASSERT_TRUE(start.has_value()) << error;
  EXPECT_EQ(*start, rules::FormatFen(rules::Position::Initial(russian)));
  auto after_one = Fen(file, International(), 1, 1, error);
  ASSERT_TRUE(after_one.has_value()) << error;
  EXPECT_EQ(*after_one, rules::FormatFen(rules::Position::Initial(russian).Play(*rules::ParseMove(
                            russian, rules::Position::Initial(russian), "22-18"))));
  auto end = Fen(file, International(), 2, std::nullopt, error);
  ASSERT_TRUE(end.has_value()) << error;
  EXPECT_EQ(*end, *Fen(file, International(), 2, 4, error));

  EXPECT_FALSE(Fen(file, International(), 1, 99, error).has_value());
  EXPECT_THAT(error, HasSubstr("plies"));
  EXPECT_FALSE(Fen(file, International(), 5, 0, error).has_value());
  EXPECT_THAT(error, HasSubstr("no game 5"));
  const InputFile broken{"q.pdn", DataFile("international_quirks.pdn")};
  EXPECT_FALSE(Fen(broken, International(), 2, 0, error).has_value());
  EXPECT_THAT(error, HasSubstr("unexpected '@'"));
}

}  // namespace
}  // namespace draughts::pdn_tool::testing
