#include "engine/book.h"

#include <algorithm>
#include <cmath>
#include <filesystem>

#include "rules/movegen.h"

namespace draughts::engine {
namespace {

bool SamePieces(const rules::Position& a, const rules::Position& b) {
  return a.board() == b.board() && a.side_to_move() == b.side_to_move() && a.white() == b.white() &&
         a.black() == b.black() && a.kings() == b.kings();
}

std::vector<std::uint8_t> SortedCaptures(const rules::Move& move) {
  std::vector<std::uint8_t> squares(move.captured.begin(),
                                    move.captured.begin() + move.capture_count);
  std::sort(squares.begin(), squares.end());
  return squares;
}

// The same move as the rules see it (rules::IsLegalMove's identity).
bool SameMove(const rules::Variant& variant, const rules::Move& a, const rules::Move& b) {
  if (a.from != b.from || a.to != b.to || a.capture_count != b.capture_count) return false;
  if (SortedCaptures(a) != SortedCaptures(b)) return false;
  if (variant.capture_identity == rules::CaptureIdentity::kPieceSet) return true;
  for (int i = 0; i < a.landing_count(); ++i) {
    if (a.landings[i] != b.landings[i]) return false;
  }
  if (variant.capture_identity == rules::CaptureIdentity::kOrder) {
    for (int i = 0; i < a.capture_count; ++i) {
      if (a.captured[i] != b.captured[i]) return false;
    }
  }
  return true;
}

}  // namespace

Book::Book(const rules::Variant& variant) : variant_(variant) {}

bool Book::Covers(const rules::Variant& variant) const {
  rules::Variant same_draw_rules = variant;
  same_draw_rules.draw = variant_.draw;
  return same_draw_rules == variant_;
}

void Book::Add(const rules::Position& position, std::vector<BookMove> moves) {
  std::vector<BookEntry>& bucket = by_key_[position.hash()];
  for (BookEntry& entry : bucket) {
    if (SamePieces(entry.position, position)) {
      entry.moves = std::move(moves);
      return;
    }
  }
  bucket.push_back(BookEntry{position, std::move(moves)});
  ++size_;
}

const BookEntry* Book::Find(const rules::Position& position) const {
  const auto it = by_key_.find(position.hash());
  if (it == by_key_.end()) return nullptr;
  for (const BookEntry& entry : it->second) {
    if (SamePieces(entry.position, position)) return &entry;
  }
  return nullptr;
}

std::vector<const BookEntry*> Book::Entries() const {
  std::vector<const BookEntry*> entries;
  entries.reserve(size_);
  for (const auto& [key, bucket] : by_key_) {
    for (const BookEntry& entry : bucket) entries.push_back(&entry);
  }
  return entries;
}

std::optional<BookMove> Book::Pick(const rules::Variant& variant, const rules::Position& position,
                                   std::mt19937_64& rng) const {
  if (!Covers(variant) || position.board() != variant.board) return std::nullopt;
  const BookEntry* entry = Find(position);
  if (entry == nullptr) return std::nullopt;
  const rules::MoveList legal = rules::LegalMoves(variant, position);
  std::vector<BookMove> candidates;
  for (const BookMove& stored : entry->moves) {
    for (const rules::Move& move : legal) {
      if (SameMove(variant, stored.move, move)) {
        candidates.push_back(BookMove{move, stored.score_cp});
        break;
      }
    }
  }
  if (candidates.empty()) return std::nullopt;
  int best = candidates.front().score_cp;
  for (const BookMove& c : candidates) best = std::max(best, c.score_cp);
  std::vector<double> weights;
  weights.reserve(candidates.size());
  for (const BookMove& c : candidates) {
    weights.push_back(std::exp(static_cast<double>(c.score_cp - best) / kPickTemperatureCp));
  }
  std::discrete_distribution<std::size_t> choose(weights.begin(), weights.end());
  return candidates[choose(rng)];
}

void BookShelf::Add(Book book) {
  const std::string id(book.variant().id);
  books_.insert_or_assign(id, std::move(book));
}

const Book* BookShelf::For(const rules::Variant& variant) const {
  const auto it = books_.find(variant.id);
  if (it == books_.end() || !it->second.Covers(variant)) return nullptr;
  return &it->second;
}

std::vector<std::string> BookShelf::VariantIds() const {
  std::vector<std::string> ids;
  for (const auto& [id, book] : books_) ids.push_back(id);
  return ids;
}

rules::Result<BookShelf::LoadReport> BookShelf::LoadDirectory(const std::string& directory) {
  namespace fs = std::filesystem;
  std::error_code error;
  fs::directory_iterator it(directory, error);
  if (error) {
    return rules::MakeError("cannot read the book directory " + directory + ": " + error.message());
  }
  std::vector<fs::path> files;
  for (; it != fs::directory_iterator(); it.increment(error)) {
    if (error) break;
    if (it->path().extension() == ".book") files.push_back(it->path());
  }
  if (error) {
    return rules::MakeError("cannot list the book directory " + directory + ": " + error.message());
  }
  std::sort(files.begin(), files.end());
  LoadReport report;
  for (const fs::path& file : files) {
    rules::Result<Book> book = Book::Load(file.string());
    if (!book.ok()) {
      report.refused.push_back(book.error().message);
      continue;
    }
    report.loaded.push_back(file.string() + ": " + std::string(book->variant().id) + " (" +
                            std::to_string(book->size()) + " positions)");
    Add(std::move(*book));
  }
  return report;
}

std::optional<SearchResult> PlayFromBook(const BookShelf* books, Level level,
                                         const rules::Variant& variant,
                                         const rules::Position& position, std::mt19937_64& rng) {
  if (books == nullptr || !LevelUsesBook(level)) return std::nullopt;
  const Book* book = books->For(variant);
  if (book == nullptr) return std::nullopt;
  std::optional<BookMove> picked = book->Pick(variant, position, rng);
  if (!picked) return std::nullopt;
  SearchResult result;
  result.best = picked->move;
  result.info.score_cp = picked->score_cp;
  result.info.pv = {picked->move};
  return result;
}

}  // namespace draughts::engine
