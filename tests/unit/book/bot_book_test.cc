// The bot service's move chooser with the committed books: a Medium or
// Hard bot's first moves in a game come from the book (no search), with
// variety across seeds; without books it searches as before.
#include <gtest/gtest.h>

#include <memory>
#include <random>
#include <set>
#include <string>

#include "bot/engine_catalog.h"
#include "bot/move_chooser.h"
#include "engine/book.h"
#include "engine/engine.h"
#include "rules/game.h"
#include "rules/move_notation.h"

namespace draughts::bot {
namespace {

std::shared_ptr<const engine::BookShelf> CommittedShelf() {
  auto shelf = std::make_shared<engine::BookShelf>();
  auto report = shelf->LoadDirectory(DRAUGHTS_BOOK_DIR);
  EXPECT_TRUE(report.ok());
  return shelf;
}

TEST(BotBook, MediumAndHardOpenFromTheBookWithVariety) {
  const rules::Variant english = rules::FindVariant("english").value();
  const auto shelf = CommittedShelf();
  const engine::Book* book = shelf->For(english);
  ASSERT_NE(book, nullptr);
  std::set<std::string> book_moves;
  for (const engine::BookMove& m : book->Find(rules::Position::Initial(english))->moves) {
    book_moves.insert(rules::FormatMovePath(m.move));
  }

  EngineCatalog catalog({}, nullptr);
  MoveChooserOptions options;
  options.books = shelf;
  MoveChooser chooser(&catalog, options, nullptr);
  engine::Engine engine(1);
  std::mt19937_64 rng(1);
  const rules::GameRecord record(english);
  std::set<std::string> seen;
  for (v1::BotLevel level : {v1::BOT_LEVEL_MEDIUM, v1::BOT_LEVEL_HARD}) {
    for (std::uint64_t seed = 1; seed <= 15; ++seed) {
      MoveQuestion question;
      question.record = &record;
      question.level = level;
      question.seed = seed;
      // Hard within a budget takes the other path of the thinker.
      if (level == v1::BOT_LEVEL_HARD && seed % 2 == 0) question.time_budget = absl::Seconds(1);
      auto choice = chooser.ChooseForGame(engine, rng, question);
      ASSERT_TRUE(choice.ok()) << choice.status();
      EXPECT_EQ(choice->nodes, 0);
      EXPECT_EQ(choice->depth, 0);
      EXPECT_TRUE(book_moves.count(choice->move)) << choice->move;
      seen.insert(choice->move);
    }
  }
  EXPECT_GE(seen.size(), std::min<std::size_t>(book_moves.size(), 2));

  // Without books the same question is searched.
  MoveChooser plain(&catalog, MoveChooserOptions{}, nullptr);
  MoveQuestion question;
  question.record = &record;
  question.level = v1::BOT_LEVEL_MEDIUM;
  auto searched = plain.ChooseForGame(engine, rng, question);
  ASSERT_TRUE(searched.ok()) << searched.status();
  EXPECT_GT(searched->nodes, 0);
}

}  // namespace
}  // namespace draughts::bot
