// The books committed under data/book: each loads, covers its rule set from
// the initial position, holds only moves the rules library accepts (every
// entry checked, and every line from the start replayed as a game), and
// gives bots variety: different seeds open differently.
#include <gtest/gtest.h>

#include <filesystem>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "book/builder.h"
#include "engine/book.h"
#include "engine/engine.h"
#include "rules/game.h"
#include "rules/move_notation.h"
#include "rules/movegen.h"

namespace draughts::book {
namespace {

std::vector<std::string> CommittedBooks() {
  std::vector<std::string> paths;
  std::error_code error;
  for (const auto& file : std::filesystem::directory_iterator(DRAUGHTS_BOOK_DIR, error)) {
    if (file.path().extension() == ".book") paths.push_back(file.path().string());
  }
  std::sort(paths.begin(), paths.end());
  return paths;
}

TEST(CommittedBooks, TheSeedRuleSetsHaveOne) {
  for (const char* id : {"international", "english"}) {
    EXPECT_TRUE(std::filesystem::exists(std::string(DRAUGHTS_BOOK_DIR) + "/" + id + ".book")) << id;
  }
  engine::BookShelf shelf;
  auto report = shelf.LoadDirectory(DRAUGHTS_BOOK_DIR);
  ASSERT_TRUE(report.ok()) << report.error().message;
  EXPECT_TRUE(report->refused.empty()) << report->refused.front();
  EXPECT_EQ(report->loaded.size(), CommittedBooks().size());
}

TEST(CommittedBooks, EveryEntryMoveIsLegalInItsPosition) {
  for (const std::string& path : CommittedBooks()) {
    auto book = engine::Book::Load(path);
    ASSERT_TRUE(book.ok()) << book.error().ToString();
    EXPECT_GT(book->size(), 10u) << path;
    EXPECT_FALSE(CheckBook(*book).has_value()) << path << ": " << CheckBook(*book)->message;
    std::size_t moves = 0;
    for (const engine::BookEntry* entry : book->Entries()) {
      const rules::MoveList legal = rules::LegalMoves(book->variant(), entry->position);
      for (const engine::BookMove& m : entry->moves) {
        ++moves;
        EXPECT_TRUE(rules::IsLegalMove(book->variant(), entry->position, m.move)) << path;
        const bool generated = std::find(legal.begin(), legal.end(), m.move) != legal.end();
        EXPECT_TRUE(generated) << path << ": " << rules::FormatMovePath(m.move);
      }
    }
    EXPECT_GE(moves, book->size()) << path;
  }
}

// Replays every line of the book from the initial position as a game
// (rules::GameRecord refuses an illegal move); returns the positions seen.
std::size_t WalkFromTheStart(const engine::Book& book) {
  const rules::Variant& variant = book.variant();
  std::vector<rules::GameRecord> frontier{rules::GameRecord(variant)};
  std::set<std::uint64_t> seen;
  while (!frontier.empty()) {
    rules::GameRecord record = std::move(frontier.back());
    frontier.pop_back();
    const engine::BookEntry* entry = book.Find(record.position());
    if (entry == nullptr || !seen.insert(record.position().hash()).second) continue;
    for (const engine::BookMove& m : entry->moves) {
      rules::GameRecord next = record;
      auto error = next.Apply(m.move);
      EXPECT_FALSE(error.has_value()) << variant.id << ": " << rules::FormatMovePath(m.move);
      if (!error && !next.is_over()) frontier.push_back(std::move(next));
    }
  }
  return seen.size();
}

TEST(CommittedBooks, EveryLineFromTheStartIsAGameTheRulesAccept) {
  for (const std::string& path : CommittedBooks()) {
    auto book = engine::Book::Load(path);
    ASSERT_TRUE(book.ok()) << book.error().ToString();
    ASSERT_NE(book->Find(rules::Position::Initial(book->variant())), nullptr) << path;
    // Breadth-first building makes every entry reachable from the start.
    EXPECT_EQ(WalkFromTheStart(*book), book->size()) << path;
  }
}

TEST(CommittedBooks, BotsOpenDifferentlyWithDifferentSeeds) {
  for (const std::string& path : CommittedBooks()) {
    auto loaded = engine::Book::Load(path);
    ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
    const rules::Variant variant = loaded->variant();
    auto shelf = std::make_shared<engine::BookShelf>();
    shelf->Add(std::move(*loaded));
    const engine::Book& book = *shelf->For(variant);
    const std::size_t first_choices = book.Find(rules::Position::Initial(variant))->moves.size();

    std::set<std::string> first_moves;
    std::set<std::string> openings;  // the first four plies
    engine::Engine engine(1);
    engine.SetBooks(shelf);
    for (std::uint64_t seed = 1; seed <= 40; ++seed) {
      std::mt19937_64 rng(seed);
      rules::GameRecord record(variant);
      std::string line;
      for (int ply = 0; ply < 4; ++ply) {
        if (book.Find(record.position()) == nullptr) break;
        // As a Medium bot plays: from the book, without a search.
        auto played = engine.Play(engine::Level::kMedium, record, rng);
        ASSERT_TRUE(played.ok());
        EXPECT_EQ(played->info.nodes, 0) << path;
        line += rules::FormatMovePath(played->best) + " ";
        if (ply == 0) first_moves.insert(line);
        ASSERT_FALSE(record.Apply(played->best).has_value());
      }
      openings.insert(line);
    }
    EXPECT_GE(first_moves.size(), std::min<std::size_t>(first_choices, 2)) << path;
    EXPECT_GE(openings.size(), 4u) << path;
  }
}

}  // namespace
}  // namespace draughts::book
