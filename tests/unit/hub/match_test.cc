#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <functional>
#include <set>
#include <sstream>

#include "hub/move_text.h"
#include "hub/position_text.h"
#include "match/elo.h"
#include "match/game.h"
#include "match/openings.h"
#include "rules/fen.h"
#include "rules/movegen.h"
#include "rules/pdn.h"
#include "rules/pdn_replay.h"

namespace draughts::match {
namespace {

using std::chrono::milliseconds;

// ---- Elo ----

TEST(EloTest, ScoreToElo) {
  EXPECT_NEAR(*EloFromScore(0.5), 0.0, 1e-9);
  EXPECT_NEAR(*EloFromScore(0.75), 400 * std::log10(3.0), 1e-9);  // 190.8
  EXPECT_NEAR(*EloFromScore(0.25), -400 * std::log10(3.0), 1e-9);
  EXPECT_FALSE(EloFromScore(0.0).has_value());
  EXPECT_FALSE(EloFromScore(1.0).has_value());
}

TEST(EloTest, MarginFromTheVarianceOfTheScore) {
  // 30 wins, 10 losses: s = 0.75, per-game variance 0.1875, se = sqrt(0.1875/40).
  const EloEstimate e = EstimateElo({.wins = 30, .draws = 0, .losses = 10});
  const double se = std::sqrt(0.1875 / 40);
  const double expected = (*EloFromScore(0.75 + 1.959963984540054 * se) -
                           *EloFromScore(0.75 - 1.959963984540054 * se)) /
                          2;
  ASSERT_TRUE(e.margin.has_value());
  EXPECT_NEAR(*e.margin, expected, 1e-9);
  EXPECT_NEAR(*e.margin, 135.6, 0.1);
  // Draws carry less variance than wins and losses with the same score.
  const EloEstimate drawn = EstimateElo({.wins = 10, .draws = 20, .losses = 10});
  const EloEstimate split = EstimateElo({.wins = 20, .draws = 0, .losses = 20});
  EXPECT_NEAR(*drawn.difference, 0, 1e-9);
  EXPECT_LT(*drawn.margin, *split.margin);
  // All draws: no variance at all.
  EXPECT_NEAR(*EstimateElo({.wins = 0, .draws = 10, .losses = 0}).margin, 0.0, 1e-9);
}

TEST(EloTest, PerfectScoresAreInfinite) {
  const EloEstimate won = EstimateElo({.wins = 4, .draws = 0, .losses = 0});
  EXPECT_FALSE(won.difference.has_value());
  EXPECT_EQ(FormatElo(won), "+inf +/- inf");
  EXPECT_EQ(FormatElo(EstimateElo({.wins = 0, .draws = 0, .losses = 3})), "-inf +/- inf");
  EXPECT_EQ(FormatElo(EstimateElo({})), "n/a (no games)");
  EXPECT_EQ(FormatElo(EstimateElo({.wins = 30, .draws = 0, .losses = 10})), "+190.8 +/- 135.6");
}

// ---- Openings ----

TEST(OpeningsTest, BuiltInOpeningsAreLegalAndDistinct) {
  for (const rules::Variant& variant : rules::AllVariants()) {
    auto openings = BuiltInOpenings(variant, 20);
    ASSERT_TRUE(openings.ok()) << variant.id << ": " << openings.error().message;
    EXPECT_EQ(openings->size(), 20u) << variant.id;
    std::set<std::uint64_t> positions;
    for (const Opening& opening : *openings) {
      rules::Position position = opening.start;
      for (const rules::Move& move : opening.moves) {
        EXPECT_TRUE(rules::IsLegalMove(variant, position, move)) << opening.name;
        position = position.Play(move);
      }
      EXPECT_FALSE(rules::LegalMoves(variant, position).empty()) << opening.name;
      positions.insert(position.hash());
    }
    EXPECT_EQ(positions.size(), openings->size()) << variant.id << ": duplicate openings";
  }
}

TEST(OpeningsTest, TwoHundredGameMatchesGetAHundredDistinctOpenings) {
  for (const char* id : {"international", "english"}) {
    const rules::Variant variant = rules::FindVariant(id).value();
    auto listed = BuiltInOpenings(variant, 20);
    auto openings = BuiltInOpenings(variant, 100);
    ASSERT_TRUE(listed.ok() && openings.ok()) << id;
    ASSERT_EQ(openings->size(), 100u) << id;
    std::set<std::uint64_t> positions;
    for (std::size_t i = 0; i < openings->size(); ++i) {
      const Opening& opening = (*openings)[i];
      // The hand-picked list comes first, unchanged.
      if (i < listed->size()) {
        EXPECT_EQ(opening.name, (*listed)[i].name) << id;
      }
      rules::Position position = opening.start;
      for (const rules::Move& move : opening.moves) {
        ASSERT_TRUE(rules::IsLegalMove(variant, position, move)) << opening.name;
        position = position.Play(move);
      }
      EXPECT_FALSE(rules::LegalMoves(variant, position).empty()) << opening.name;
      positions.insert(position.hash());
    }
    EXPECT_EQ(positions.size(), 100u) << id << ": duplicate openings";
  }
}

TEST(OpeningsTest, FewerWhenAsked) {
  const rules::Variant international = rules::FindVariant("international").value();
  EXPECT_EQ(BuiltInOpenings(international, 3)->size(), 3u);
}

TEST(OpeningsTest, FileWithFensMovesAndComments) {
  const rules::Variant international = rules::FindVariant("international").value();
  auto openings = ParseOpenings(international,
                                "# two openings\n"
                                "\n"
                                "W:W31-50:B1-20\n"
                                "  32-28 18-23  \r\n");
  ASSERT_TRUE(openings.ok()) << openings.error().message;
  ASSERT_EQ(openings->size(), 2u);
  EXPECT_TRUE((*openings)[0].moves.empty());
  EXPECT_EQ((*openings)[1].moves.size(), 2u);
  EXPECT_EQ((*openings)[1].name, "32-28 18-23");
}

TEST(OpeningsTest, FileErrorsNameTheLine) {
  const rules::Variant international = rules::FindVariant("international").value();
  auto bad_move = ParseOpenings(international, "32-28\n32-27 18-23\n32-28 40-35\n");
  ASSERT_FALSE(bad_move.ok());
  EXPECT_NE(bad_move.error().message.find("line 3"), std::string::npos) << bad_move.error().message;
  auto bad_fen = ParseOpenings(international, "W:W31-50:B1-20\nX:W1\n");
  ASSERT_FALSE(bad_fen.ok());
  EXPECT_NE(bad_fen.error().message.find("line 2"), std::string::npos);
  EXPECT_FALSE(ParseOpenings(international, "# nothing\n").ok());
  // A position where the side to move is already lost is no opening.
  EXPECT_FALSE(ParseOpenings(international, "W:W:B1-20\n").ok());
}

// ---- Games ----

// A player driven by a function from the position it is sent (rebuilt
// through the Hub formats, as an engine would) to its answer.
class ScriptedPlayer : public Player {
 public:
  using Brain = std::function<rules::Result<ThinkResult>(const rules::MoveList& legal)>;
  ScriptedPlayer(rules::Variant variant, Brain brain)
      : variant_(std::move(variant)), brain_(std::move(brain)) {}

  std::optional<rules::Error> NewGame() override {
    ++new_games;
    return std::nullopt;
  }
  rules::Result<ThinkResult> Think(const hub::PosCommand& pos, const hub::LevelCommand& level,
                                   milliseconds) override {
    last_level = level;
    auto position = hub::ParseHubPosition(variant_, pos.position.value_or(""));
    EXPECT_TRUE(position.ok());
    if (!position.ok()) return position.error();
    rules::Position p = *position;
    for (const std::string& text : pos.moves) {
      auto move = hub::ParseHubMove(variant_, p, text);
      EXPECT_TRUE(move.ok()) << text;
      if (!move.ok()) return move.error();
      p = p.Play(*move);
    }
    last_position = p;
    ++calls;
    return brain_(rules::LegalMoves(variant_, p));
  }

  int new_games = 0;
  int calls = 0;
  std::optional<rules::Position> last_position;
  hub::LevelCommand last_level;

 private:
  rules::Variant variant_;
  Brain brain_;
};

ThinkResult Answer(const std::string& move, int ms = 1) {
  return ThinkResult{move, milliseconds(ms), std::nullopt};
}

rules::Result<ThinkResult> FirstMove(const rules::MoveList& legal) {
  return Answer(hub::FormatHubMove(legal.front()));
}

class GameTest : public ::testing::Test {
 protected:
  rules::Variant international_ = rules::FindVariant("international").value();
  Opening opening_ = OpeningFromMoves(international_, "32-28 18-23").value();
  MoveTimes white_times_;
  MoveTimes black_times_;
};

TEST_F(GameTest, PlaysToTheEndByTheRules) {
  ScriptedPlayer white(international_, FirstMove);
  ScriptedPlayer black(international_, FirstMove);
  const std::array<Seat, 2> seats = {Seat{&white, "first", &white_times_},
                                     Seat{&black, "second", &black_times_}};
  GameOptions options;
  options.level.move_time = 0.5;
  const GameResult game = PlayGame(international_, opening_, seats, options);
  EXPECT_TRUE(game.record.is_over());
  EXPECT_FALSE(game.failed.has_value());
  EXPECT_EQ(white.new_games, 1);
  EXPECT_EQ(black.new_games, 1);
  // Opening moves are in the record but were not asked of the players.
  EXPECT_EQ(white.calls + black.calls, game.record.ply_count() - 2);
  EXPECT_EQ(white_times_.count(), white.calls);
  ASSERT_EQ(game.think_times.size(), static_cast<std::size_t>(game.record.ply_count()));
  EXPECT_FALSE(game.think_times[0].has_value());  // opening moves were not thought about
  EXPECT_FALSE(game.think_times[1].has_value());
  EXPECT_EQ(game.think_times[2], milliseconds(1));
  // Forced moves (captures, mostly) are counted apart.
  EXPECT_LT(white_times_.choice_count() + black_times_.choice_count(),
            white_times_.count() + black_times_.count());
  EXPECT_GT(white_times_.choice_count(), 0);
  EXPECT_EQ(white.last_level.move_time, 0.5);
  EXPECT_NE(
      game.termination.find(std::string(rules::OutcomeReasonName(game.record.outcome().reason))),
      std::string::npos)
      << game.termination;
}

TEST_F(GameTest, IllegalMoveLoses) {
  ScriptedPlayer white(international_, FirstMove);
  ScriptedPlayer black(international_, [](const rules::MoveList&) { return Answer("1-2"); });
  const std::array<Seat, 2> seats = {Seat{&white, "good", nullptr}, Seat{&black, "bad", nullptr}};
  const GameResult game = PlayGame(international_, opening_, seats, GameOptions{});
  EXPECT_EQ(game.record.outcome().status, rules::GameStatus::kWhiteWins);
  EXPECT_EQ(game.failed, rules::Color::kBlack);
  EXPECT_NE(game.termination.find("illegal move 1-2"), std::string::npos) << game.termination;
  EXPECT_NE(game.termination.find("bad"), std::string::npos);
}

TEST_F(GameTest, NoAnswerOrTooSlowLosesOnTime) {
  ScriptedPlayer white(international_, [](const rules::MoveList&) -> rules::Result<ThinkResult> {
    return rules::MakeError("engine closed its output");
  });
  ScriptedPlayer black(international_, FirstMove);
  std::array<Seat, 2> seats = {Seat{&white, "crashy", nullptr}, Seat{&black, "ok", nullptr}};
  GameResult game = PlayGame(international_, opening_, seats, GameOptions{});
  EXPECT_EQ(game.record.outcome().status, rules::GameStatus::kBlackWins);
  EXPECT_EQ(game.record.outcome().reason, rules::OutcomeReason::kTimeForfeit);
  EXPECT_EQ(game.failed, rules::Color::kWhite);

  ScriptedPlayer slow(international_, [](const rules::MoveList& legal) {
    return Answer(hub::FormatHubMove(legal.front()), 2000);
  });
  seats[0].player = &slow;
  GameOptions options;
  options.timeout = milliseconds(1000);
  game = PlayGame(international_, opening_, seats, options);
  EXPECT_EQ(game.record.outcome().reason, rules::OutcomeReason::kTimeForfeit);
  EXPECT_NE(game.termination.find("took 2000 ms"), std::string::npos) << game.termination;
}

TEST_F(GameTest, LongGamesAreAdjudicatedDrawn) {
  ScriptedPlayer white(international_, FirstMove);
  ScriptedPlayer black(international_, FirstMove);
  const std::array<Seat, 2> seats = {Seat{&white, "a", nullptr}, Seat{&black, "b", nullptr}};
  GameOptions options;
  options.max_plies = 6;
  const GameResult game = PlayGame(international_, opening_, seats, options);
  EXPECT_EQ(game.record.outcome().status, rules::GameStatus::kDraw);
  EXPECT_EQ(game.record.ply_count(), 6);
  EXPECT_NE(game.termination.find("adjudicated"), std::string::npos);
}

TEST_F(GameTest, PdnCarriesNamesResultAndFen) {
  ScriptedPlayer white(international_, FirstMove);
  ScriptedPlayer black(international_, FirstMove);
  const std::array<Seat, 2> seats = {Seat{&white, "Alpha", nullptr}, Seat{&black, "Beta", nullptr}};
  auto from_fen = ParseOpenings(international_, "W:W28,33,K46:B18,19,K5\n");
  ASSERT_TRUE(from_fen.ok());
  const GameResult game = PlayGame(international_, from_fen->front(), seats, GameOptions{});
  const std::string text = rules::WritePdn(ToPdn(game, seats, "Test", "2026.01.02", 7));
  auto read = rules::ReadPdn(text);
  ASSERT_TRUE(read.ok()) << text;
  ASSERT_EQ(read->size(), 1u);
  const rules::PdnGame& pdn = read->front();
  EXPECT_EQ(*pdn.FindTag("White"), "Alpha");
  EXPECT_EQ(*pdn.FindTag("Black"), "Beta");
  EXPECT_EQ(*pdn.FindTag("Round"), "7");
  EXPECT_EQ(*pdn.FindTag("Date"), "2026.01.02");
  EXPECT_EQ(*pdn.FindTag("GameType"), "20");
  ASSERT_NE(pdn.FindTag("FEN"), nullptr);
  EXPECT_EQ(pdn.result, rules::ToPdnResult(game.record.outcome()));
  // Engine moves carry their thinking time (the scripted players report 1 ms).
  ASSERT_FALSE(pdn.moves.empty());
  for (const rules::PdnMove& move : pdn.moves) EXPECT_EQ(move.comment, "0.001s");
  auto replayed = rules::ReplayPdnGame(pdn, international_);
  ASSERT_TRUE(replayed.ok()) << replayed.error().ToString();
  EXPECT_TRUE(replayed->position() == game.record.position());
}

}  // namespace
}  // namespace draughts::match
