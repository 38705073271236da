// The engine on the rule sets beyond the seeds: every level answers with a
// legal move from positions of random games, and the search knows the
// goals that differ (antidraughts, breakthrough).

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <random>
#include <thread>

#include "engine/engine.h"
#include "rules/game.h"
#include "rules/move_notation.h"
#include "test_support.h"

namespace draughts::rules {
namespace {

using engine::Engine;
using engine::Level;
using testing::FromFen;
using testing::GetVariant;

constexpr std::string_view kNewRuleSets[] = {"russian",      "brazilian", "pool",   "spanish",
                                             "czech",        "italian",   "thai",   "antidraughts",
                                             "breakthrough", "frisian",   "turkish"};

// A few positions along a random game of `variant`.
std::vector<GameRecord> Positions(const Variant& variant, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<GameRecord> out;
  GameRecord record(variant);
  for (int ply = 0; ply < 40 && !record.is_over(); ++ply) {
    if (ply % 10 == 3) out.push_back(record);
    const MoveList& legal = record.legal_moves();
    const Move chosen = legal[rng() % legal.size()];
    EXPECT_FALSE(record.Apply(chosen).has_value());
  }
  if (out.empty()) out.push_back(GameRecord(variant));
  return out;
}

// Plays `level` with a watchdog: Hard would think 1.5 s, far too long for
// a sanitizer build; stopped early it still answers its best move so far.
Result<engine::SearchResult> PlayQuickly(Engine& engine, Level level, const GameRecord& record,
                                         std::mt19937_64& rng) {
  std::atomic<bool> stop{false};
  std::thread watchdog([&] {
    for (int i = 0; i < 30 && !stop.load(); ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    stop.store(true);
  });
  auto result = engine.Play(level, record, rng, &stop);
  stop.store(true);
  watchdog.join();
  return result;
}

TEST(VariantEngine, EveryLevelPlaysLegalMovesOnEveryNewRuleSet) {
  Engine engine(4);
  std::mt19937_64 rng(6);
  for (std::string_view id : kNewRuleSets) {
    const Variant v = GetVariant(id);
    for (const GameRecord& record : Positions(v, 17)) {
      for (Level level : {Level::kEasy, Level::kMedium, Level::kHard}) {
        auto result = PlayQuickly(engine, level, record, rng);
        ASSERT_TRUE(result.ok()) << id << ": " << result.error().ToString();
        bool legal = false;
        for (const Move& m : record.legal_moves()) legal = legal || m == result->best;
        EXPECT_TRUE(legal) << id << " " << engine::LevelName(level) << " played "
                           << FormatMovePath(result->best);
      }
    }
  }
}

TEST(VariantEngine, AntidraughtsGivesItsLastManAway) {
  // White man 33 (row 6, col 5), black man 22 (row 4, col 3). 33-28 lets
  // Black take it: White, without pieces, wins. 33-29 keeps it.
  const Variant v = GetVariant("antidraughts");
  const GameRecord record(v, FromFen(v, "W:W33:B22"));
  Engine engine(4);
  auto result = engine.Search(record, {.max_depth = 4});
  ASSERT_TRUE(result.ok());
  EXPECT_EQ(FormatMovePath(result->best), "33-28");
  EXPECT_GT(result->info.score_cp, engine::kMateScore - engine::kMaxPly);

  // Under international rules the same move just loses the man.
  const Variant intl = GetVariant("international");
  auto normal = engine.Search(GameRecord(intl, FromFen(intl, "W:W33:B22")), {.max_depth = 4});
  ASSERT_TRUE(normal.ok());
  EXPECT_EQ(FormatMovePath(normal->best), "33-29");
}

TEST(VariantEngine, BreakthroughCrownsAtOnce) {
  // White man 7 (row 1) can crown on 1 or 2 and win; Black is far away.
  const Variant v = GetVariant("breakthrough");
  const GameRecord record(v, FromFen(v, "W:W7,46:B16,45"));
  Engine engine(4);
  auto result = engine.Search(record, {.max_depth = 3});
  ASSERT_TRUE(result.ok());
  EXPECT_TRUE(result->best.promotes) << FormatMovePath(result->best);
  EXPECT_GT(result->info.score_cp, engine::kMateScore - engine::kMaxPly);
}

TEST(VariantEngine, TurkishCrownsAManOneStepAway) {
  // White man 12 (row 1) steps up to 4 and is crowned; the black man 9
  // cannot stop it (a king is worth five men here).
  const Variant v = GetVariant("turkish");
  const GameRecord record(v, FromFen(v, "W:W12,60:B9,30"));
  Engine engine(4);
  auto result = engine.Search(record, {.max_depth = 3});
  ASSERT_TRUE(result.ok());
  EXPECT_EQ(FormatMovePath(result->best), "12-4");
  EXPECT_GT(result->info.score_cp, 200);
}

}  // namespace
}  // namespace draughts::rules
