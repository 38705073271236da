// Properties over many positions from seeded random games in every rule
// set: every legal move, written as FormatMove writes it, reads back as that
// same move; every position survives FEN; a whole game survives PDN.
#include <gtest/gtest.h>

#include <random>

#include "rules/fen.h"
#include "rules/game.h"
#include "rules/move_notation.h"
#include "rules/pdn.h"
#include "rules/pdn_replay.h"
#include "rules/variant.h"

namespace draughts::rules {
namespace {

constexpr int kGamesPerVariant = 8;
constexpr int kMaxPlies = 160;

class RandomGames : public ::testing::TestWithParam<std::string> {
 protected:
  Variant variant() const { return *FindVariant(GetParam()); }
};

TEST_P(RandomGames, NotationFenAndPdnRoundTrip) {
  const Variant rules = variant();
  std::mt19937 random(12345);
  int positions_checked = 0;
  int full_paths_written = 0;
  for (int game = 0; game < kGamesPerVariant; ++game) {
    GameRecord record(rules);
    while (!record.is_over() && record.ply_count() < kMaxPlies) {
      const Position& position = record.position();
      auto fen = ParseFen(rules, FormatFen(position));
      ASSERT_TRUE(fen.ok()) << FormatFen(position);
      ASSERT_TRUE(*fen == position) << FormatFen(position);

      const MoveList& legal = record.legal_moves();
      for (const Move& move : legal) {
        const std::string written = FormatMove(legal, move);
        auto text = ParseMoveText(written);
        ASSERT_TRUE(text.ok()) << written;
        if (text->squares.size() > 2) ++full_paths_written;
        auto back = MatchMove(rules.board, legal, *text);
        ASSERT_TRUE(back.ok()) << written << " in " << FormatFen(position) << ": "
                               << back.error().message;
        ASSERT_TRUE(*back == move) << written << " in " << FormatFen(position);
        // The full path always selects the move too.
        auto full = MatchMove(rules.board, legal, ToMoveText(move, true));
        ASSERT_TRUE(full.ok()) << FormatMovePath(move) << ": " << full.error().message;
        ASSERT_TRUE(*full == move) << FormatMovePath(move);
      }
      ++positions_checked;
      std::uniform_int_distribution<std::size_t> pick(0, legal.size() - 1);
      auto next = record.Play(legal[pick(random)]);
      ASSERT_TRUE(next.ok()) << next.error().ToString();
      record = *next;
    }
    auto games = ReadPdn(WritePdn(ToPdnGame(record, {{"Event", "random"}})));
    ASSERT_TRUE(games.ok()) << games.error().ToString();
    ASSERT_EQ(games->size(), 1u);
    auto replayed = ReplayPdnGame(games->front(), rules);
    ASSERT_TRUE(replayed.ok()) << replayed.error().ToString();
    EXPECT_EQ(replayed->positions(), record.positions());
    EXPECT_EQ(replayed->outcome(), record.outcome());
  }
  // Guards against a generator or seed change leaving the test trivial.
  EXPECT_GT(positions_checked, kGamesPerVariant * 20);
  RecordProperty("positions", positions_checked);
  RecordProperty("full_paths_written", full_paths_written);
}

INSTANTIATE_TEST_SUITE_P(AllVariants, RandomGames,
                         ::testing::Values("international", "english", "canadian", "tutorial-8x8"),
                         [](const auto& info) {
                           std::string name = info.param;
                           for (char& c : name) {
                             if (c == '-') c = '_';
                           }
                           return name;
                         });

}  // namespace
}  // namespace draughts::rules
