// The book file: a round trip keeps every position, move and score; a file
// that is not a book, of another version or rule set, truncated or altered
// is refused with a message saying why; a directory's bad files are left
// out while its good ones load.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <string>

#include "book/builder.h"
#include "engine/book.h"
#include "engine/engine.h"
#include "rules/movegen.h"
#include "rules/variant.h"

namespace draughts::book {
namespace {

rules::Variant VariantOrDie(std::string_view id) {
  auto variant = rules::FindVariant(id);
  EXPECT_TRUE(variant.ok());
  return *variant;
}

// A small book built by the real builder (fixed search depth: quick).
engine::Book SmallBook(std::string_view id, int plies = 3) {
  BuildOptions options;
  options.plies = plies;
  options.search_depth = 3;
  options.move_time = std::chrono::milliseconds(200);
  options.margin_cp = 30;
  options.width = 3;
  options.table_megabytes = 4;
  BuildStats stats;
  auto book = BuildBook(VariantOrDie(id), options, stats);
  EXPECT_TRUE(book.ok()) << (book.ok() ? "" : book.error().message);
  EXPECT_GT(stats.positions, 1);
  EXPECT_EQ(static_cast<std::size_t>(stats.positions), book->size());
  return std::move(*book);
}

std::string TempPath(const std::string& name) {
  return (std::filesystem::temp_directory_path() /
          ("book_test_" + std::to_string(::getpid()) + "_" + name))
      .string();
}

TEST(BookFile, RoundTripKeepsEveryPositionMoveAndScore) {
  for (std::string_view id : {"english", "international"}) {
    const engine::Book book = SmallBook(id);
    const std::string bytes = book.Serialize();
    auto parsed = engine::Book::Parse(bytes);
    ASSERT_TRUE(parsed.ok()) << parsed.error().ToString();
    EXPECT_EQ(parsed->variant().id, id);
    ASSERT_EQ(parsed->size(), book.size());
    for (const engine::BookEntry* entry : book.Entries()) {
      const engine::BookEntry* copy = parsed->Find(entry->position);
      ASSERT_NE(copy, nullptr);
      ASSERT_EQ(copy->moves.size(), entry->moves.size());
      for (std::size_t i = 0; i < entry->moves.size(); ++i) {
        EXPECT_EQ(copy->moves[i].score_cp, entry->moves[i].score_cp);
        EXPECT_TRUE(rules::IsLegalMove(parsed->variant(), copy->position, copy->moves[i].move));
        EXPECT_EQ(copy->moves[i].move.from, entry->moves[i].move.from);
        EXPECT_EQ(copy->moves[i].move.to, entry->moves[i].move.to);
      }
    }
    // The same book gives the same bytes: files are reproducible.
    EXPECT_EQ(parsed->Serialize(), bytes);
  }
}

TEST(BookFile, SaveAndLoadThroughAFile) {
  const engine::Book book = SmallBook("english");
  const std::string path = TempPath("english.book");
  ASSERT_FALSE(book.Save(path).has_value());
  auto loaded = engine::Book::Load(path);
  ASSERT_TRUE(loaded.ok()) << loaded.error().ToString();
  EXPECT_EQ(loaded->size(), book.size());
  std::filesystem::remove(path);

  auto missing = engine::Book::Load(TempPath("missing.book"));
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.error().message.find("cannot open"), std::string::npos);
}

TEST(BookFile, RefusesWhatIsNotAnIntactBookOfAKnownRuleSet) {
  const std::string good = SmallBook("english").Serialize();
  auto refused = [](const std::string& bytes) {
    auto book = engine::Book::Parse(bytes);
    EXPECT_FALSE(book.ok());
    return book.ok() ? std::string() : book.error().message;
  };
  EXPECT_NE(refused("").find("not an opening book"), std::string::npos);
  EXPECT_NE(refused("W:W31-50:B1-20").find("not an opening book"), std::string::npos);

  std::string other_version = good;
  other_version[8] = 2;
  EXPECT_NE(refused(other_version).find("version 2 is not supported"), std::string::npos);

  // The header names a rule set by id: "english" -> "englisX".
  std::string unknown = good;
  unknown[11 + 6] = 'X';
  EXPECT_NE(refused(unknown).find("unknown rule set"), std::string::npos);

  std::string truncated = good.substr(0, good.size() - 3);
  EXPECT_NE(refused(truncated).find("corrupt"), std::string::npos);
  EXPECT_NE(refused(good.substr(0, 14)).find("truncated header"), std::string::npos);

  // Any flipped payload byte is caught by the checksum.
  for (std::size_t at : {good.size() - 1, good.size() / 2, std::size_t{40}}) {
    std::string altered = good;
    altered[at] = static_cast<char>(altered[at] ^ 0x10);
    EXPECT_NE(refused(altered).find("checksum"), std::string::npos) << at;
  }
}

TEST(BookFile, AnotherRuleSetsBookIsNeverUsed) {
  auto shelf = std::make_shared<engine::BookShelf>();
  shelf->Add(SmallBook("english"));
  const rules::Variant english = VariantOrDie("english");
  const rules::Variant tutorial = VariantOrDie("tutorial-8x8");  // same board, other rules
  EXPECT_NE(shelf->For(english), nullptr);
  EXPECT_EQ(shelf->For(tutorial), nullptr);
  rules::Variant no_mandatory_capture = english;
  no_mandatory_capture.mandatory_capture = false;
  EXPECT_EQ(shelf->For(no_mandatory_capture), nullptr);
  rules::Variant move_limit = english;  // a draw-rule table option: same openings
  move_limit.draw.move_limit_plies = 100;
  EXPECT_NE(shelf->For(move_limit), nullptr);

  // The english book looked up for the tutorial rules, whose start position
  // is the same, gives nothing; the engine plays on by searching.
  std::mt19937_64 rng(7);
  const engine::Book& book = *shelf->For(english);
  EXPECT_FALSE(book.Pick(tutorial, rules::Position::Initial(tutorial), rng).has_value());
  engine::Engine engine(4);
  engine.SetBooks(shelf);
  auto played = engine.Play(engine::Level::kMedium, rules::GameRecord(tutorial), rng);
  ASSERT_TRUE(played.ok());
  EXPECT_GT(played->info.nodes, 0);  // searched, not from a book
}

TEST(BookShelf, LoadsTheGoodFilesOfADirectoryAndNamesTheBadOnes) {
  const std::string dir = TempPath("dir");
  std::filesystem::create_directories(dir);
  ASSERT_FALSE(SmallBook("english").Save(dir + "/english.book").has_value());
  {
    std::ofstream bad(dir + "/international.book", std::ios::binary);
    bad << "DRBOOK\r\n garbage";
  }
  {
    std::ofstream ignored(dir + "/README.txt");
    ignored << "not a book";
  }
  engine::BookShelf shelf;
  auto report = shelf.LoadDirectory(dir);
  ASSERT_TRUE(report.ok()) << report.error().message;
  ASSERT_EQ(report->loaded.size(), 1u);
  ASSERT_EQ(report->refused.size(), 1u);
  EXPECT_NE(report->refused[0].find("international.book"), std::string::npos);
  EXPECT_EQ(shelf.VariantIds(), std::vector<std::string>{"english"});
  std::filesystem::remove_all(dir);

  engine::BookShelf none;
  auto missing = none.LoadDirectory(dir);
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.error().message.find(dir), std::string::npos);
}

}  // namespace
}  // namespace draughts::book
