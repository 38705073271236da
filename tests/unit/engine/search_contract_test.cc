// What every caller relies on: a legal move from every position of every
// rule set, a legal principal variation, clear errors for bad input, and
// the limits (depth, nodes, time, stop flag) obeyed.

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "engine/engine.h"
#include "engine/searcher.h"
#include "rules/movegen.h"
#include "test_support.h"

namespace draughts::engine {
namespace {

using std::chrono::milliseconds;
using testing::Path;
using testing::PositionOrDie;
using testing::RandomGames;
using testing::RecordOrDie;
using testing::VariantOrDie;

bool Contains(const rules::MoveList& moves, const rules::Move& move) {
  for (const rules::Move& m : moves)
    if (m == move) return true;
  return false;
}

// The best move is legal, the PV is a legal line starting with it, and the
// ponder move is its second move.
void ExpectLegalResult(const rules::GameRecord& record, const SearchResult& result) {
  ASSERT_TRUE(Contains(record.legal_moves(), result.best)) << Path(result.best);
  ASSERT_FALSE(result.info.pv.empty());
  EXPECT_EQ(result.info.pv.front(), result.best);
  rules::Position position = record.position();
  for (const rules::Move& m : result.info.pv) {
    ASSERT_TRUE(Contains(rules::LegalMoves(record.variant(), position), m)) << Path(m);
    position = position.Play(m);
  }
  if (result.info.pv.size() >= 2) {
    ASSERT_TRUE(result.ponder.has_value());
    EXPECT_EQ(*result.ponder, result.info.pv[1]);
  }
}

TEST(EngineSearch, AlwaysLegalOnRandomPositionsOfEveryRuleSet) {
  for (const rules::Variant& variant : rules::AllVariants()) {
    Engine engine(4);
    int checked = 0;
    for (const rules::GameRecord& record : RandomGames(variant, 25, 120, 1234)) {
      auto result = engine.Search(record, {.max_depth = 4});
      ASSERT_TRUE(result.ok()) << variant.id << ": " << result.error().ToString();
      ExpectLegalResult(record, *result);
      ++checked;
    }
    EXPECT_EQ(checked, 25) << variant.id;
  }
}

TEST(EngineSearch, LegalWithOptionalCaptures) {
  // Seed 003's table option: captures not compulsory. Quiescence may then
  // decline a capture; the answer must still be a legal move.
  rules::Variant variant = VariantOrDie("english");
  variant.mandatory_capture = false;
  Engine engine(4);
  for (const rules::GameRecord& record : RandomGames(variant, 15, 60, 99)) {
    auto result = engine.Search(record, {.max_depth = 5});
    ASSERT_TRUE(result.ok());
    ExpectLegalResult(record, *result);
  }
}

TEST(EngineSearch, RejectsFinishedAndMismatchedInput) {
  const rules::Variant international = VariantOrDie("international");
  const rules::Variant english = VariantOrDie("english");
  Engine engine(4);

  // White has no piece: the game is over, there is nothing to search.
  auto no_pieces = engine.Search(international, PositionOrDie(international, "W:W:B1-3"),
                                 GameHistory{}, {.max_depth = 3});
  ASSERT_FALSE(no_pieces.ok());
  EXPECT_NE(no_pieces.error().message.find("no legal move"), std::string::npos);

  // Blocked: White's only man, on the corner square 46, can only go to 41
  // (occupied) or jump it to 37 (occupied too).
  auto blocked = engine.Search(international, PositionOrDie(international, "W:W46:B37,41"),
                               GameHistory{}, {.max_depth = 3});
  EXPECT_FALSE(blocked.ok());

  // A 10x10 position searched as an 8x8 rule set.
  auto wrong_board = engine.Search(english, rules::Position::Initial(international), GameHistory{},
                                   {.max_depth = 3});
  ASSERT_FALSE(wrong_board.ok());
  EXPECT_NE(wrong_board.error().message.find("board"), std::string::npos);

  GameHistory negative;
  negative.no_progress_plies = -1;
  EXPECT_FALSE(
      engine.Search(international, rules::Position::Initial(international), negative, {}).ok());

  auto resigned = rules::GameRecord(international).DecideResignation(rules::Color::kWhite);
  ASSERT_TRUE(resigned.ok());
  auto over = engine.Search(*resigned, {.max_depth = 3});
  ASSERT_FALSE(over.ok());
  EXPECT_NE(over.error().message.find("over"), std::string::npos);

  // The engine is still usable after errors.
  EXPECT_TRUE(engine.Search(rules::GameRecord(international), {.max_depth = 3}).ok());
}

TEST(EngineSearch, DepthLimitIsExact) {
  Engine engine(4);
  int calls = 0;
  int last_depth = 0;
  std::int64_t last_nodes = 0;
  auto result = engine.Search(rules::GameRecord(VariantOrDie("international")), {.max_depth = 5},
                              [&](const SearchInfo& info) {
                                ++calls;
                                EXPECT_EQ(info.depth, last_depth + 1);
                                EXPECT_GE(info.nodes, last_nodes);
                                EXPECT_FALSE(info.pv.empty());
                                last_depth = info.depth;
                                last_nodes = info.nodes;
                              });
  ASSERT_TRUE(result.ok());
  EXPECT_EQ(calls, 5);
  EXPECT_EQ(result->info.depth, 5);
  EXPECT_EQ(result->info.nodes, last_nodes);
}

TEST(EngineSearch, NodeLimitIsRespected) {
  Engine engine(4);
  auto result = engine.Search(rules::GameRecord(VariantOrDie("canadian")), {.max_nodes = 20000});
  ASSERT_TRUE(result.ok());
  // Limits are polled every 1024 nodes.
  EXPECT_LE(result->info.nodes, 20000 + 1024);
  EXPECT_GE(result->info.depth, 1);
}

TEST(EngineSearch, HardTimeCapIsRespected) {
  Engine engine(16);
  const auto start = std::chrono::steady_clock::now();
  auto result = engine.Search(rules::GameRecord(VariantOrDie("international")),
                              {.move_time = milliseconds(150)});
  const auto elapsed = std::chrono::steady_clock::now() - start;
  ASSERT_TRUE(result.ok());
  ExpectLegalResult(rules::GameRecord(VariantOrDie("international")), *result);
  EXPECT_GE(result->info.depth, 1);
  // Generous: sanitizer builds poll less often in wall-clock terms.
  EXPECT_LT(elapsed, milliseconds(150 + 300));
  EXPECT_GE(elapsed, milliseconds(100));  // it did use its time
}

TEST(EngineSearch, StopFlagEndsSearchEarly) {
  Engine engine(16);
  std::atomic<bool> stop{false};
  std::thread stopper([&] {
    std::this_thread::sleep_for(milliseconds(100));
    stop = true;
  });
  const auto start = std::chrono::steady_clock::now();
  auto result = engine.Search(rules::GameRecord(VariantOrDie("canadian")), {.stop = &stop});
  const auto elapsed = std::chrono::steady_clock::now() - start;
  stopper.join();
  ASSERT_TRUE(result.ok());
  EXPECT_LT(elapsed, milliseconds(2000));
  ExpectLegalResult(rules::GameRecord(VariantOrDie("canadian")), *result);
}

TEST(EngineSearch, SingleLegalMoveAnswersAtOnce) {
  // Black must take 23x32 (see tactics_test); with a time limit there is
  // nothing to think about.
  const rules::GameRecord record =
      RecordOrDie(VariantOrDie("international"), "W:W32,33,37,41:B3,4,22,23", {"32-28"});
  ASSERT_EQ(record.legal_moves().size(), 1u);
  Engine engine(4);
  auto result = engine.Search(record, {.move_time = milliseconds(2000)});
  ASSERT_TRUE(result.ok());
  EXPECT_EQ(Path(result->best), "23x32");
  EXPECT_LT(result->info.elapsed, milliseconds(500));
}

TEST(EngineSearch, ForcedMoveMayUseItsTime) {
  // An opening exchange: after 32-28 19-23 White must take, 28x19, and the
  // game is far from decided (no mate for the search to stop early on).
  const rules::GameRecord record =
      RecordOrDie(VariantOrDie("international"), "W:W31-50:B1-20", {"32-28", "19-23"});
  ASSERT_EQ(record.legal_moves().size(), 1u);
  Engine engine(4);
  const auto start = std::chrono::steady_clock::now();
  auto result = engine.Search(record, {.move_time = milliseconds(300), .keep_pace = true});
  ASSERT_TRUE(result.ok());
  EXPECT_EQ(Path(result->best), "28x19");
  EXPECT_GE(std::chrono::steady_clock::now() - start, milliseconds(250));
  EXPECT_GT(result->info.depth, 1);
}

// International, White to move: the man on 33 can go to 28 or 29, and
// either way a black man takes it (22x33 or 23x34): lost in two plies.
constexpr std::string_view kLostInTwo = "W:W33:B22,23";

TEST(EngineSearch, ProvenResultAnswersAtOnce) {
  const rules::GameRecord record = RecordOrDie(VariantOrDie("international"), kLostInTwo);
  ASSERT_EQ(record.legal_moves().size(), 2u);
  Engine engine(4);
  auto result = engine.Search(record, {.move_time = milliseconds(2000)});
  ASSERT_TRUE(result.ok());
  EXPECT_EQ(MatePlies(result->info.score_cp), -2);
  EXPECT_LT(result->info.elapsed, milliseconds(500));
}

TEST(EngineSearch, KeepPaceThinksUntilTheTargetEvenWhenDecided) {
  const rules::GameRecord record = RecordOrDie(VariantOrDie("international"), kLostInTwo);
  Engine engine(4);
  const auto start = std::chrono::steady_clock::now();
  auto result = engine.Search(
      record,
      {.move_time = milliseconds(600), .target_time = milliseconds(300), .keep_pace = true});
  const auto elapsed = std::chrono::steady_clock::now() - start;
  ASSERT_TRUE(result.ok());
  EXPECT_EQ(MatePlies(result->info.score_cp), -2);
  EXPECT_GE(elapsed, milliseconds(300));
  EXPECT_LT(elapsed, milliseconds(600 + 300));
}

TEST(EngineSearch, KeepPaceStillObeysStop) {
  const rules::GameRecord record = RecordOrDie(VariantOrDie("international"), kLostInTwo);
  Engine engine(4);
  std::atomic<bool> stop{false};
  std::thread stopper([&] {
    std::this_thread::sleep_for(milliseconds(100));
    stop = true;
  });
  const auto start = std::chrono::steady_clock::now();
  auto result = engine.Search(record, {.move_time = milliseconds(10000),
                                       .target_time = milliseconds(8000),
                                       .stop = &stop,
                                       .keep_pace = true});
  const auto elapsed = std::chrono::steady_clock::now() - start;
  stopper.join();
  ASSERT_TRUE(result.ok());
  EXPECT_LT(elapsed, milliseconds(4000));
  ExpectLegalResult(record, *result);
}

TEST(EngineSearch, SameSearchSameTreeAfterNewGame) {
  // tools/bench's node signature depends on this.
  Engine engine(4);
  const rules::GameRecord record(VariantOrDie("english"));
  auto first = engine.Search(record, {.max_depth = 7});
  engine.NewGame();
  auto second = engine.Search(record, {.max_depth = 7});
  ASSERT_TRUE(first.ok());
  ASSERT_TRUE(second.ok());
  EXPECT_EQ(first->info.nodes, second->info.nodes);
  EXPECT_EQ(first->best, second->best);
  EXPECT_EQ(first->info.score_cp, second->info.score_cp);
}

TEST(EngineSearch, TableMakesTheSecondSearchCheaper) {
  Engine engine(16);
  const rules::GameRecord record(VariantOrDie("international"));
  auto first = engine.Search(record, {.max_depth = 7});
  auto second = engine.Search(record, {.max_depth = 7});
  ASSERT_TRUE(first.ok());
  ASSERT_TRUE(second.ok());
  EXPECT_LT(second->info.nodes, first->info.nodes);
}

// ProbCut and the static-evaluation cut (searcher.h) are on as shipped:
// the same fixed-depth searches without them visit more nodes in all, and
// every answer stays legal either way.
TEST(EngineSearch, ShippedPruningVisitsFewerNodesThanWithout) {
  SearchTuning without;
  without.probcut_margin = 0;
  without.futility_margin = 0;
  ASSERT_GT(SearchTuning{}.probcut_margin, 0);
  ASSERT_GT(SearchTuning{}.futility_margin, 0);
  for (const char* id : {"international", "english"}) {
    const rules::Variant variant = VariantOrDie(id);
    std::int64_t shipped_nodes = 0;
    std::int64_t unpruned_nodes = 0;
    for (const rules::GameRecord& record : RandomGames(variant, 6, 24, 17)) {
      Engine shipped(8);
      Engine unpruned(8);
      unpruned.SetSearchTuning(without);
      auto a = shipped.Search(record, {.max_depth = 8});
      auto b = unpruned.Search(record, {.max_depth = 8});
      ASSERT_TRUE(a.ok());
      ASSERT_TRUE(b.ok());
      ExpectLegalResult(record, *a);
      ExpectLegalResult(record, *b);
      shipped_nodes += a->info.nodes;
      unpruned_nodes += b->info.nodes;
    }
    EXPECT_LT(shipped_nodes, unpruned_nodes) << id;
  }
}

TEST(EngineSearch, EngineIsMovable) {
  Engine engine(4);
  Engine moved = std::move(engine);
  EXPECT_TRUE(moved.Search(rules::GameRecord(VariantOrDie("english")), {.max_depth = 3}).ok());
}

}  // namespace
}  // namespace draughts::engine
