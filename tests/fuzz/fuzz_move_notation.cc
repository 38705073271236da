// Move notation: parsing never crashes; what parses formats back to itself;
// matched against the legal moves of a few positions (quiet moves, a
// compulsory capture, ambiguous captures on 8x8 and 10x10), a match is a
// legal move whose written form selects it again.
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "fuzz_check.h"
#include "rules/fen.h"
#include "rules/move_notation.h"
#include "rules/variant.h"

namespace {

using namespace draughts::rules;

struct Case {
  Variant variant;
  Position position;
  MoveList legal;
};

std::vector<Case> MakeCases() {
  const std::pair<std::string_view, std::string_view> fens[] = {
      {"international", "W:W31-50:B1-20"}, {"international", "W:WK20:B9,27,29,37,40,41"},
      {"international", "W:W32,45:B27"},   {"english", "W:W26:B14,15,22,23"},
      {"english", "B:W21-32:B1-12"},       {"canadian", "W:WK72,K40:B5,17,29,30,53"},
  };
  std::vector<Case> cases;
  for (const auto& [id, fen] : fens) {
    auto variant = FindVariant(id);
    FUZZ_CHECK(variant.ok());
    auto position = ParseFen(*variant, fen);
    FUZZ_CHECK(position.ok());
    cases.push_back({*variant, *position, LegalMoves(*variant, *position)});
  }
  return cases;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::vector<Case> cases = MakeCases();
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto parsed = ParseMoveText(text);
  if (!parsed.ok()) {
    FUZZ_CHECK(parsed.error().offset <= size);
    return 0;
  }
  FUZZ_CHECK(parsed->squares.size() >= 2);
  auto again = ParseMoveText(FormatMoveText(*parsed));
  FUZZ_CHECK(again.ok());
  FUZZ_CHECK(*again == *parsed);
  for (const Case& c : cases) {
    auto move = MatchMove(c.variant.board, c.legal, *parsed);
    if (!move.ok()) {
      FUZZ_CHECK(!move.error().message.empty());
      continue;
    }
    bool listed = false;
    for (const Move& legal : c.legal) listed = listed || legal == *move;
    FUZZ_CHECK(listed);
    const std::string written = FormatMove(c.legal, *move);
    auto reparsed = ParseMove(c.variant, c.position, written);
    FUZZ_CHECK(reparsed.ok());
    FUZZ_CHECK(*reparsed == *move);
  }
  return 0;
}
