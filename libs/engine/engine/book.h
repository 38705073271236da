#pragma once

// An opening book: positions of one rule set, each with the moves a search
// judged good there and their scores. The engine plays from it (at the
// levels that use it, see LevelUsesBook) while the game is in it, picking
// among the moves at random, weighted by score, so bots do not repeat one
// game. tools/book builds books; docs/OPENING_BOOK.md describes the file.
//
// A book never makes an illegal or a wrong move: positions are found by
// their Zobrist key and then compared square by square (a key collision
// finds nothing), and a stored move is only played when the move
// generator produces the same move in the current position.

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "engine/level.h"
#include "engine/search_types.h"
#include "rules/move.h"
#include "rules/position.h"
#include "rules/result.h"
#include "rules/variant.h"

namespace draughts::engine {

struct BookMove {
  rules::Move move;
  int score_cp = 0;  // from the side to move's point of view (search_types.h)
};

struct BookEntry {
  rules::Position position;
  std::vector<BookMove> moves;  // best first
};

// Whether a bot of this level plays book moves. Easy does not: its play is
// meant to be weak and erratic, and master openings would be out of place.
constexpr bool LevelUsesBook(Level level) {
  return level != Level::kEasy;
}

class Book {
 public:
  // File format version written by Serialize and the only one Parse reads.
  static constexpr std::uint16_t kFormatVersion = 1;
  // Scores this much below the best move's weigh e^-1 times as much in Pick.
  static constexpr double kPickTemperatureCp = 10.0;

  // An empty book for a built-in rule set.
  explicit Book(const rules::Variant& variant);

  const rules::Variant& variant() const { return variant_; }
  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }

  // Whether positions of `variant` may be looked up here: the same built-in
  // rule set with the same move rules (draw-rule table options such as a
  // move limit do not matter for opening moves; anything else does).
  bool Covers(const rules::Variant& variant) const;

  // Adds or replaces the moves of a position (of this book's board).
  void Add(const rules::Position& position, std::vector<BookMove> moves);
  // The entry of exactly this position (pieces and side to move), or null.
  const BookEntry* Find(const rules::Position& position) const;
  // Every entry, in no particular order.
  std::vector<const BookEntry*> Entries() const;

  // A book move for `position` of `variant`, or nullopt when the rule set
  // is not covered, the position is not in the book or none of its moves
  // is legal there. Moves are chosen at random with weight
  // exp((score - best) / kPickTemperatureCp). The move returned is the
  // generator's own (all fields as LegalMoves makes them).
  std::optional<BookMove> Pick(const rules::Variant& variant, const rules::Position& position,
                               std::mt19937_64& rng) const;

  // The file's bytes (docs/OPENING_BOOK.md) and back. Parse refuses, with
  // a message saying why, a file that is not a book, of another version,
  // of an unknown rule set, truncated or altered (checksum), or holding a
  // position or move that does not fit the board.
  std::string Serialize() const;
  static rules::Result<Book> Parse(std::string_view bytes);

  // Parse of a file's contents; the error names the file.
  static rules::Result<Book> Load(const std::string& path);
  std::optional<rules::Error> Save(const std::string& path) const;

 private:
  rules::Variant variant_;
  std::unordered_map<std::uint64_t, std::vector<BookEntry>> by_key_;
  std::size_t size_ = 0;
};

// The books an engine process uses, at most one per rule set id.
class BookShelf {
 public:
  // Replaces any book of the same rule set.
  void Add(Book book);
  // The book covering `variant`, or null.
  const Book* For(const rules::Variant& variant) const;
  std::size_t size() const { return books_.size(); }
  std::vector<std::string> VariantIds() const;

  struct LoadReport {
    std::vector<std::string> loaded;   // "<file>: <variant> (<n> positions)"
    std::vector<std::string> refused;  // "<file>: <why>"
  };
  // Adds every "*.book" file of `directory`. A file that cannot be read or
  // parsed is left out and named in `refused` (the engine plays without
  // it); a missing or unreadable directory is an error.
  rules::Result<LoadReport> LoadDirectory(const std::string& directory);

 private:
  std::map<std::string, Book, std::less<>> books_;
};

// The move a bot of `level` plays from `books` (null: none) in this
// position, as a search result without a search (depth 0, no nodes, the
// book's score, the move as its whole line), or nullopt to search.
std::optional<SearchResult> PlayFromBook(const BookShelf* books, Level level,
                                         const rules::Variant& variant,
                                         const rules::Position& position, std::mt19937_64& rng);

}  // namespace draughts::engine
