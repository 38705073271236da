#include "match/openings.h"

#include <algorithm>
#include <cstdint>
#include <set>

#include "rules/fen.h"
#include "rules/move_notation.h"
#include "rules/movegen.h"

namespace draughts::match {
namespace {

// Two plies each: the common first moves of White and replies of Black.
constexpr const char* kInternational[] = {
    "32-28 18-23", "32-28 19-23", "32-28 17-22", "32-28 20-24", "33-28 18-23",
    "33-28 17-22", "33-28 19-24", "31-27 19-23", "31-27 18-22", "31-27 17-21",
    "34-30 20-25", "34-30 19-24", "34-30 17-21", "33-29 19-23", "33-29 18-22",
    "34-29 20-24", "34-29 17-22", "35-30 19-23", "31-26 18-22", "32-27 19-24",
};

// Three-move openings of English checkers (Black moves first, squares
// 1-12), as in the published three-move ballot decks.
constexpr const char* kEnglish[] = {
    "11-15 23-19 8-11", "11-15 22-17 8-11",  "11-15 23-19 9-14",  "11-15 24-20 8-11",
    "11-15 21-17 9-13", "11-16 22-18 16-20", "11-16 24-20 16-19", "10-15 21-17 9-13",
    "10-15 23-19 6-10", "10-15 22-17 11-16", "10-14 22-17 11-16", "10-14 24-19 6-10",
    "9-14 22-18 5-9",   "9-14 23-19 11-16",  "9-14 22-17 11-15",  "9-13 22-18 10-15",
    "9-13 24-20 11-15", "12-16 24-20 8-12",  "12-16 22-18 16-19", "12-16 21-17 9-13",
};

std::string Trim(std::string_view text) {
  const auto first = text.find_first_not_of(" \t\r");
  if (first == std::string_view::npos) return "";
  const auto last = text.find_last_not_of(" \t\r");
  return std::string(text.substr(first, last - first + 1));
}

rules::Result<std::vector<Opening>> FromList(const rules::Variant& variant,
                                             const std::vector<std::string_view>& list, int count) {
  std::vector<Opening> openings;
  for (std::string_view moves : list) {
    if (static_cast<int>(openings.size()) >= count) break;
    auto opening = OpeningFromMoves(variant, moves);
    if (!opening.ok()) return opening.error();
    openings.push_back(std::move(*opening));
  }
  return openings;
}

// Every `plies`-ply sequence from the initial position, in move-generator
// order, sampled evenly until `openings` holds `wanted`; a sequence ending
// in a position already there (a transposition) is left out.
void AddSpreadSequences(const rules::Variant& variant, int plies, std::size_t wanted,
                        std::vector<Opening>& openings) {
  const rules::Position start = rules::Position::Initial(variant);
  std::vector<std::vector<rules::Move>> sequences = {{}};
  for (int ply = 0; ply < plies; ++ply) {
    std::vector<std::vector<rules::Move>> longer;
    for (const std::vector<rules::Move>& sequence : sequences) {
      rules::Position position = start;
      for (const rules::Move& move : sequence) position = position.Play(move);
      for (const rules::Move& move : rules::LegalMoves(variant, position)) {
        longer.push_back(sequence);
        longer.back().push_back(move);
      }
    }
    sequences = std::move(longer);
  }
  std::set<std::uint64_t> seen;
  for (const Opening& opening : openings) {
    rules::Position position = opening.start;
    for (const rules::Move& move : opening.moves) position = position.Play(move);
    seen.insert(position.hash());
  }
  std::vector<Opening> candidates;
  for (const std::vector<rules::Move>& moves : sequences) {
    Opening opening{"", start, moves};
    rules::Position position = start;
    for (const rules::Move& move : moves) {
      if (!opening.name.empty()) opening.name += ' ';
      opening.name += rules::FormatMove(variant, position, move);
      position = position.Play(move);
    }
    if (rules::LegalMoves(variant, position).empty()) continue;
    if (!seen.insert(position.hash()).second) continue;
    candidates.push_back(std::move(opening));
  }
  const std::size_t n = candidates.size();
  const std::size_t take = std::min(n, wanted - std::min(wanted, openings.size()));
  for (std::size_t k = 0; k < take; ++k) openings.push_back(candidates[k * n / take]);
}

}  // namespace

rules::Result<Opening> OpeningFromMoves(const rules::Variant& variant, std::string_view text) {
  Opening opening{Trim(text), rules::Position::Initial(variant), {}};
  rules::Position position = opening.start;
  std::size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && (text[i] == ' ' || text[i] == '\t')) ++i;
    const std::size_t start = i;
    while (i < text.size() && text[i] != ' ' && text[i] != '\t') ++i;
    if (i == start) break;
    const std::string_view word = text.substr(start, i - start);
    auto move = rules::ParseMove(variant, position, word);
    if (!move.ok()) {
      return rules::MakeError("opening '" + opening.name + "': " + std::string(word) + ": " +
                              move.error().message);
    }
    opening.moves.push_back(*move);
    position = position.Play(*move);
  }
  if (rules::LegalMoves(variant, position).empty()) {
    return rules::MakeError("opening '" + opening.name + "' leaves no legal move");
  }
  return opening;
}

rules::Result<std::vector<Opening>> BuiltInOpenings(const rules::Variant& variant, int count) {
  const std::size_t wanted = static_cast<std::size_t>(std::max(count, 0));
  std::vector<Opening> openings;
  // The hand-picked lists first; past them (a 200-game match wants 100),
  // three-ply sequences, which never repeat a two-ply list's line.
  int plies = 2;
  if (variant.id == "international" || variant.id == "english") {
    auto listed =
        variant.id == "international"
            ? FromList(variant, {std::begin(kInternational), std::end(kInternational)}, count)
            : FromList(variant, {std::begin(kEnglish), std::end(kEnglish)}, count);
    if (!listed.ok()) return listed.error();
    openings = std::move(*listed);
    plies = 3;
  }
  if (openings.size() >= wanted) return openings;
  AddSpreadSequences(variant, plies, wanted, openings);
  return openings;
}

rules::Result<std::vector<Opening>> ParseOpenings(const rules::Variant& variant,
                                                  std::string_view text) {
  std::vector<Opening> openings;
  int line_number = 0;
  std::size_t pos = 0;
  while (pos <= text.size()) {
    const std::size_t end = std::min(text.find('\n', pos), text.size());
    const std::string line = Trim(text.substr(pos, end - pos));
    pos = end + 1;
    ++line_number;
    if (line.empty() || line[0] == '#') continue;
    const std::string where = "line " + std::to_string(line_number) + ": ";
    if (line[0] >= '0' && line[0] <= '9') {
      auto opening = OpeningFromMoves(variant, line);
      if (!opening.ok()) return rules::MakeError(where + opening.error().message);
      openings.push_back(std::move(*opening));
      continue;
    }
    auto position = rules::ParseFen(variant, line);
    if (!position.ok()) return rules::MakeError(where + position.error().ToString());
    if (rules::LegalMoves(variant, *position).empty()) {
      return rules::MakeError(where + "the side to move has no legal move");
    }
    openings.push_back(Opening{line, *position, {}});
  }
  if (openings.empty()) return rules::MakeError("no openings in the file");
  return openings;
}

}  // namespace draughts::match
