// The search's bookkeeping against the rules library it mirrors: hashes
// equal to rules::Position::hash, draw counters equal to GameRecord's, and
// the transposition table's storage rules.

#include <gtest/gtest.h>

#include <set>

#include "engine/board_hash.h"
#include "engine/draw_rules.h"
#include "engine/engine.h"
#include "engine/move_key.h"
#include "engine/transposition_table.h"
#include "rules/layout.h"
#include "rules/movegen_impl.h"
#include "test_support.h"

namespace draughts::engine {
namespace {

using testing::RandomGames;
using testing::RecordOrDie;
using testing::VariantOrDie;

PieceCounts CountsOf(const rules::Position& p) {
  return {p.CountMen(rules::Color::kWhite), p.CountKings(rules::Color::kWhite),
          p.CountMen(rules::Color::kBlack), p.CountKings(rules::Color::kBlack)};
}

// For every legal move of every position of some random games: the
// incremental hash equals the hash of the position the rules library
// plays, and move keys tell the moves of a position apart.
TEST(EngineInternals, IncrementalHashMatchesRulesAndKeysAreDistinct) {
  for (const rules::Variant& variant : rules::AllVariants()) {
    const auto flags = rules::internal::RuleFlags::From(variant);
    for (const rules::GameRecord& record : RandomGames(variant, 20, 150, 5)) {
      const rules::Position& p = record.position();
      rules::internal::WithLayout(p.board(), [&]<class L>() {
        using Board = rules::internal::Board<L>;
        const Board board = Board::FromPosition(p);
        const bool white = p.side_to_move() == rules::Color::kWhite;
        const std::uint64_t hash = HashBoard<L>(board, white);
        ASSERT_EQ(hash, p.hash()) << variant.id;

        rules::internal::MoveBuffer<L> moves;
        rules::internal::CompactSink<L> sink(moves, flags);
        std::set<MoveKey> keys;
        std::set<std::tuple<int, int, std::uint64_t>> distinct;  // from, to, captured hash
        if (white) {
          rules::internal::Generator<L, true>(board, flags).All(sink);
        } else {
          rules::internal::Generator<L, false>(board, flags).All(sink);
        }
        for (const auto& m : moves) {
          const Board after = white ? rules::internal::Apply<L, true>(board, m)
                                    : rules::internal::Apply<L, false>(board, m);
          const rules::Position played = rules::Position::FromBits(
              p.board(), rules::Opponent(p.side_to_move()), after.white, after.black, after.kings);
          ASSERT_EQ(HashAfter<L>(hash, board, m, white), played.hash()) << variant.id;
          keys.insert(KeyOf(m));
          distinct.insert({rules::LowestBit(m.from), rules::LowestBit(m.to),
                           HashBoard<L>({m.captured, 0, 0}, true)});
          EXPECT_EQ(FromBitOf(KeyOf(m)), rules::LowestBit(m.from));
          EXPECT_EQ(ToBitOf(KeyOf(m)), rules::LowestBit(m.to));
        }
        // English keeps every capture path as its own move; paths taking the
        // same pieces to the same square share a key (they play the same).
        EXPECT_EQ(keys.size(), distinct.size()) << variant.id;
      });
    }
  }
}

// The tracker's counters follow GameRecord's over random games, and it
// declares a draw exactly when the record ends in a no-progress, lone-king
// or move-limit draw.
void ExpectTrackerFollowsRecord(const rules::Variant& variant, rules::GameRecord record,
                                std::uint64_t seed, int plies) {
  const DrawRuleTracker tracker(variant);
  DrawCounters counters{record.no_progress_plies(), record.lone_king_rule(),
                        record.lone_king_plies(), record.ply_count()};
  std::mt19937_64 rng(seed);
  for (int i = 0; i < plies && !record.is_over(); ++i) {
    const rules::Move move = record.legal_moves()[rng() % record.legal_moves().size()];
    auto next = record.Play(move);
    ASSERT_TRUE(next.ok());
    record = *next;
    counters =
        tracker.After(counters, move.is_capture() || !move.by_king, CountsOf(record.position()));
    ASSERT_EQ(counters.no_progress, record.no_progress_plies());
    ASSERT_EQ(counters.lone_rule, record.lone_king_rule());
    ASSERT_EQ(counters.lone_plies, record.lone_king_plies());
    ASSERT_EQ(counters.plies_played, record.ply_count());
    const auto reason = record.outcome().reason;
    const bool rule_draw = reason == rules::OutcomeReason::kNoProgress ||
                           reason == rules::OutcomeReason::kLoneKing ||
                           reason == rules::OutcomeReason::kMoveLimit;
    if (reason != rules::OutcomeReason::kNoLegalMoves &&
        reason != rules::OutcomeReason::kNoPieces && reason != rules::OutcomeReason::kRepetition) {
      ASSERT_EQ(tracker.Drawn(counters), rule_draw) << record.outcome().ToString();
    }
  }
}

TEST(EngineInternals, DrawTrackerFollowsGameRecord) {
  for (const rules::Variant& variant : rules::AllVariants()) {
    for (std::uint64_t seed = 0; seed < 20; ++seed)
      ExpectTrackerFollowsRecord(variant, rules::GameRecord(variant), seed, 300);
  }
  // Kings-only endings, where the no-progress and lone-king rules end games.
  const rules::Variant international = VariantOrDie("international");
  for (const char* fen : {"W:WK1,K50:BK26", "W:WK1,K50,K45:BK26", "W:WK1,K50,K45,K46:BK26,K5"}) {
    for (std::uint64_t seed = 0; seed < 10; ++seed)
      ExpectTrackerFollowsRecord(international, RecordOrDie(international, fen), seed, 120);
  }
  rules::Variant limited = VariantOrDie("english");
  limited.draw.move_limit_plies = 30;  // a seed-003 table option
  limited.draw.no_progress_counting = rules::MoveCounting::kTotal;
  for (std::uint64_t seed = 0; seed < 10; ++seed)
    ExpectTrackerFollowsRecord(limited, rules::GameRecord(limited), seed, 60);
}

TEST(EngineInternals, HistoryOfRecordKeepsTheRepeatableWindow) {
  const rules::Variant english = VariantOrDie("english");
  // Two man moves (which reset the count), then four king moves.
  const rules::GameRecord record = RecordOrDie(english, "B:WK25,28,K31,K32:BK7,12",
                                               {"12-16", "28-24", "7-3", "25-21", "3-7", "21-25"});
  const GameHistory history = HistoryOf(record);
  EXPECT_EQ(history.no_progress_plies, 4);
  EXPECT_EQ(history.plies_played, 6);
  ASSERT_EQ(history.hashes.size(), 4u);
  const auto positions = record.positions();
  EXPECT_EQ(history.hashes.back(), positions[positions.size() - 2].hash());
  EXPECT_EQ(history.hashes.front(), positions[2].hash());
}

TEST(EngineInternals, TableStoresAndAdjustsMateScores) {
  TranspositionTable table(1);
  const std::uint64_t key = 0x123456789abcdef0ull;
  EXPECT_FALSE(table.Probe(key, 0).found);

  // A mate 5 plies below a node at ply 3 scores kMateScore - 8 from the
  // root. It is stored as "5 from this node", so the same position met at
  // ply 1 reads kMateScore - 6.
  table.Store(key, 3, 6, kMateScore - 8, Bound::kExact, 42);
  TableHit hit = table.Probe(key, 3);
  ASSERT_TRUE(hit.found);
  EXPECT_EQ(hit.score, kMateScore - 8);
  EXPECT_EQ(hit.depth, 6);
  EXPECT_EQ(hit.bound, Bound::kExact);
  EXPECT_EQ(hit.move, 42u);
  EXPECT_EQ(table.Probe(key, 1).score, kMateScore - 6);
  table.Store(key, 4, 6, -(kMateScore - 9), Bound::kUpper, 42);
  EXPECT_EQ(table.Probe(key, 2).score, -(kMateScore - 7));
  // Ordinary scores are stored as they are.
  table.Store(key, 9, 6, 123, Bound::kLower, 42);
  EXPECT_EQ(table.Probe(key, 1).score, 123);

  // A key that shares the bucket but not the check bits is a miss.
  EXPECT_FALSE(table.Probe(key ^ (1ull << 63), 0).found);
  table.Clear();
  EXPECT_FALSE(table.Probe(key, 0).found);
}

TEST(EngineInternals, TableKeepsDeepEntriesAgainstShallowOnes) {
  TranspositionTable table(1);
  const std::uint64_t deep = 0x1000000000000001ull;
  const std::uint64_t shallow1 = 0x2000000000000001ull;  // same bucket (low bits)
  const std::uint64_t shallow2 = 0x3000000000000001ull;
  table.Store(deep, 0, 12, 50, Bound::kExact, 7);
  table.Store(shallow1, 0, 2, 10, Bound::kExact, 8);
  table.Store(shallow2, 0, 1, 20, Bound::kExact, 9);
  // The deep entry survives; the always-replace slot holds the latest.
  EXPECT_TRUE(table.Probe(deep, 0).found);
  EXPECT_FALSE(table.Probe(shallow1, 0).found);
  EXPECT_TRUE(table.Probe(shallow2, 0).found);
  // In a later search the old deep entry gives way.
  table.NewSearch();
  table.Store(shallow1, 0, 2, 10, Bound::kExact, 8);
  EXPECT_TRUE(table.Probe(shallow1, 0).found);
  EXPECT_EQ(table.Probe(shallow1, 0).move, 8u);
}

}  // namespace
}  // namespace draughts::engine
