// FEN: any input parses or fails with an offset inside it; what parses
// formats canonically and parses back to the same setup, and on every
// built-in board to the same Position.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz_check.h"
#include "rules/fen.h"
#include "rules/variant.h"

namespace {

using namespace draughts::rules;

std::vector<SetupPiece> Sorted(std::vector<SetupPiece> pieces) {
  std::sort(pieces.begin(), pieces.end(),
            [](const SetupPiece& a, const SetupPiece& b) { return a.square < b.square; });
  return pieces;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto setup = ParseFen(text);
  if (!setup.ok()) {
    FUZZ_CHECK(setup.error().offset <= size);
    FUZZ_CHECK(!setup.error().message.empty());
  } else {
    const std::string canonical = FormatFen(*setup);
    auto again = ParseFen(canonical);
    FUZZ_CHECK(again.ok());
    FUZZ_CHECK(again->side_to_move == setup->side_to_move);
    FUZZ_CHECK(Sorted(again->pieces) == Sorted(setup->pieces));
    FUZZ_CHECK(FormatFen(*again) == canonical);
  }
  for (const Variant& variant : AllVariants()) {
    auto position = ParseFen(variant, text);
    if (!position.ok()) {
      FUZZ_CHECK(position.error().offset == Error::kNoOffset || position.error().offset <= size);
      continue;
    }
    FUZZ_CHECK(setup.ok());
    auto again = ParseFen(variant, FormatFen(*position));
    FUZZ_CHECK(again.ok());
    FUZZ_CHECK(*again == *position);
  }
  return 0;
}
