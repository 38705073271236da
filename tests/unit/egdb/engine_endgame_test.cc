#include <memory>

#include <gtest/gtest.h>

#include "egdb/registry.h"
#include "engine/engine.h"
#include "rules/game.h"
#include "test_support.h"

namespace draughts::egdb {
namespace {

std::shared_ptr<Registry> EnglishRegistry() {
  auto registry = std::make_shared<Registry>("");
  Database copy(testing::English().variant());
  for (const Signature& s : CanonicalSignatures(4)) copy.AddSlice(*testing::English().FindSlice(s));
  registry->Add(std::move(copy));
  return registry;
}

// Both sides use the databases: the winner must still convert before the
// 40-move rule, the loser defending as long as it can.
TEST(EgdbEngine, ConvertsAWonEndgameAgainstItself) {
  const rules::Variant english = testing::VariantOrDie("english");
  auto registry = EnglishRegistry();
  for (std::string_view fen : {"W:WK1,K3:BK30", "W:W22,K3:BK32", "W:W21,22:B9", "W:W29,30:BK5"}) {
    auto position = rules::ParseFen(english, fen);
    ASSERT_TRUE(position.ok());
    const auto start = testing::English().Probe(*position);
    ASSERT_TRUE(start.has_value());
    ASSERT_EQ(start->wdl, Wdl::kWin) << fen;
    const rules::Color winner = position->side_to_move();

    engine::Engine engine(4);
    engine.SetEndgameDatabases(registry);
    rules::GameRecord record(english, *position);
    while (!record.is_over() && record.ply_count() < 200) {
      auto result = engine.Search(record, {.max_depth = 6});
      ASSERT_TRUE(result.ok());
      // Every move keeps the result the databases give.
      const auto before = testing::English().Probe(record.position());
      ASSERT_TRUE(record.Apply(result->best) == std::nullopt);
      if (before && record.position().CountPieces(rules::Color::kWhite) > 0 &&
          record.position().CountPieces(rules::Color::kBlack) > 0) {
        const auto after = testing::English().Probe(record.position());
        ASSERT_TRUE(after.has_value());
        ASSERT_EQ(Flip(after->wdl), before->wdl) << rules::FormatFen(record.position());
      }
    }
    ASSERT_TRUE(record.is_over()) << fen;
    ASSERT_TRUE(record.outcome().winner().has_value())
        << fen << ": " << record.outcome().ToString();
    EXPECT_EQ(*record.outcome().winner(), winner) << fen;
  }
}

TEST(EgdbEngine, WithoutDatabasesTheEngineStillSearches) {
  const rules::Variant english = testing::VariantOrDie("english");
  engine::Engine engine(4);
  engine.SetEndgameDatabases(nullptr);
  auto position = rules::ParseFen(english, "W:WK1,K3:BK30");
  ASSERT_TRUE(position.ok());
  auto result = engine.Search(english, *position, {}, {.max_depth = 4});
  ASSERT_TRUE(result.ok());
  EXPECT_LT(result->info.score_cp, engine::kMateScore - 1000);
}

TEST(EgdbEngine, DatabaseScoresAreReportedAsWinsAboveEvaluation) {
  const rules::Variant english = testing::VariantOrDie("english");
  engine::Engine engine(4);
  engine.SetEndgameDatabases(EnglishRegistry());
  auto won = rules::ParseFen(english, "W:WK1,K3:BK30");
  auto drawn = rules::ParseFen(english, "W:WK1:BK32");
  ASSERT_TRUE(won.ok() && drawn.ok());
  auto a = engine.Search(english, *won, {}, {.max_depth = 3});
  auto b = engine.Search(english, *drawn, {}, {.max_depth = 3});
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_GT(a->info.score_cp, 20000);
  EXPECT_EQ(b->info.score_cp, 0);
}

}  // namespace
}  // namespace draughts::egdb
