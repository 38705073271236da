// Picking from a book: only legal moves of exactly the position asked
// about, chosen with variety, and the levels that use a book (Medium, Hard)
// play from it while Easy does not.
#include <gtest/gtest.h>

#include <memory>
#include <random>
#include <set>

#include "engine/book.h"
#include "engine/engine.h"
#include "rules/fen.h"
#include "rules/game.h"
#include "rules/movegen.h"
#include "rules/variant.h"

namespace draughts::engine {
namespace {

rules::Variant VariantOrDie(std::string_view id) {
  auto variant = rules::FindVariant(id);
  EXPECT_TRUE(variant.ok());
  return *variant;
}

// A book whose start position holds every legal move, all scored alike.
Book EvenStartBook(const rules::Variant& variant) {
  Book book(variant);
  const rules::Position start = rules::Position::Initial(variant);
  std::vector<BookMove> moves;
  for (const rules::Move& move : rules::LegalMoves(variant, start)) moves.push_back({move, 0});
  book.Add(start, moves);
  return book;
}

TEST(BookPick, ChoosesAmongEqualMovesWithVariety) {
  const rules::Variant english = VariantOrDie("english");
  const Book book = EvenStartBook(english);
  const rules::Position start = rules::Position::Initial(english);
  const std::size_t legal = rules::LegalMoves(english, start).size();
  ASSERT_EQ(legal, 7u);
  std::set<std::pair<int, int>> seen;
  for (std::uint64_t seed = 1; seed <= 200; ++seed) {
    std::mt19937_64 rng(seed);
    auto picked = book.Pick(english, start, rng);
    ASSERT_TRUE(picked.has_value());
    seen.insert({picked->move.from, picked->move.to});
  }
  EXPECT_EQ(seen.size(), legal);  // 200 picks among 7 equal moves see them all
}

TEST(BookPick, PrefersBetterScoresButKeepsTheCloseOnes) {
  const rules::Variant international = VariantOrDie("international");
  const rules::Position start = rules::Position::Initial(international);
  const rules::MoveList legal = rules::LegalMoves(international, start);
  Book book(international);
  // Best, 10 cp worse (weight e^-1), 60 cp worse (weight e^-6).
  book.Add(start, {{legal[0], 20}, {legal[1], 10}, {legal[2], -40}});
  int counts[3] = {0, 0, 0};
  std::mt19937_64 rng(42);
  for (int i = 0; i < 3000; ++i) {
    auto picked = book.Pick(international, start, rng);
    ASSERT_TRUE(picked.has_value());
    for (int k = 0; k < 3; ++k) counts[k] += picked->move == legal[static_cast<std::size_t>(k)];
  }
  EXPECT_GT(counts[0], counts[1]);
  EXPECT_GT(counts[1], 400);  // expected ~790
  EXPECT_LT(counts[2], 40);   // expected ~7
}

TEST(BookPick, NeverPlaysAMoveTheRulesDoNotAllowHere) {
  const rules::Variant english = VariantOrDie("english");
  const rules::Position start = rules::Position::Initial(english);
  const rules::MoveList legal = rules::LegalMoves(english, start);
  rules::Move backwards = legal[0];  // a man moving back onto its own row
  std::swap(backwards.from, backwards.to);
  backwards.landings[0] = backwards.to;
  rules::Move nowhere = legal[0];
  nowhere.to = 32;
  nowhere.landings[0] = 32;
  Book book(english);
  book.Add(start, {{backwards, 500}, {nowhere, 400}, {legal[3], -50}});
  std::mt19937_64 rng(3);
  for (int i = 0; i < 100; ++i) {
    auto picked = book.Pick(english, start, rng);
    ASSERT_TRUE(picked.has_value());
    EXPECT_EQ(picked->move, legal[3]);
  }
  Book only_illegal(english);
  only_illegal.Add(start, {{backwards, 0}});
  EXPECT_FALSE(only_illegal.Pick(english, start, rng).has_value());
}

TEST(BookPick, FindsOnlyTheExactPosition) {
  const rules::Variant english = VariantOrDie("english");
  const rules::Position start = rules::Position::Initial(english);
  const rules::Move first = rules::LegalMoves(english, start)[0];
  Book book = EvenStartBook(english);
  EXPECT_NE(book.Find(start), nullptr);
  EXPECT_EQ(book.Find(start.Play(first)), nullptr);
  // The same pieces with the other side to move is another position.
  rules::PositionSetup setup = start.ToSetup();
  setup.side_to_move = rules::Opponent(setup.side_to_move);
  auto flipped = rules::Position::FromSetup(english, setup);
  ASSERT_TRUE(flipped.ok());
  EXPECT_EQ(book.Find(*flipped), nullptr);
  std::mt19937_64 rng(1);
  EXPECT_FALSE(book.Pick(english, *flipped, rng).has_value());
}

TEST(BookLevels, MediumAndHardPlayFromTheBookEasyDoesNot) {
  const rules::Variant english = VariantOrDie("english");
  const rules::Position start = rules::Position::Initial(english);
  const rules::MoveList legal = rules::LegalMoves(english, start);
  // The book's only move at the start is one a search would not choose
  // for sure; a book move comes back without a search (no nodes).
  auto shelf = std::make_shared<BookShelf>();
  Book book(english);
  book.Add(start, {{legal.back(), 3}});
  shelf->Add(std::move(book));
  Engine engine(4);
  engine.SetBooks(shelf);
  std::mt19937_64 rng(5);
  for (Level level : {Level::kMedium, Level::kHard}) {
    auto result = engine.Play(level, rules::GameRecord(english), rng);
    ASSERT_TRUE(result.ok());
    EXPECT_EQ(result->best, legal.back()) << LevelName(level);
    EXPECT_EQ(result->info.nodes, 0) << LevelName(level);
    EXPECT_EQ(result->info.score_cp, 3);
  }
  EXPECT_FALSE(LevelUsesBook(Level::kEasy));
  EXPECT_FALSE(PlayFromBook(shelf.get(), Level::kEasy, english, start, rng).has_value());
  EXPECT_TRUE(PlayFromBook(shelf.get(), Level::kMedium, english, start, rng).has_value());

  // Out of the book, Medium searches as before.
  rules::GameRecord later(english);
  ASSERT_FALSE(later.Apply(legal.front()).has_value());
  auto searched = engine.Play(Level::kMedium, later, rng);
  ASSERT_TRUE(searched.ok());
  EXPECT_GT(searched->info.nodes, 0);

  // Without books (the default) the engine searches from the start too.
  Engine plain(4);
  auto plain_result = plain.Play(Level::kMedium, rules::GameRecord(english), rng);
  ASSERT_TRUE(plain_result.ok());
  EXPECT_GT(plain_result->info.nodes, 0);
}

}  // namespace
}  // namespace draughts::engine
