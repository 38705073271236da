#include "gateway/variants_json.h"

#include "absl/strings/str_cat.h"
#include "gateway/json_string.h"
#include "rules/fen.h"
#include "rules/geometry.h"
#include "rules/position.h"
#include "rules/square_notation.h"

namespace draughts::gateway {

namespace {

// How the federation names the squares (issue 18): "numbers" or
// "coordinates", what it writes between the squares of a capture, and each
// square's name by its standard number (index 0 is square 1), so the board
// labels squares, and the move list writes moves, as the PDN does.
std::string NotationJson(const rules::Variant& variant) {
  const rules::SquareNotation notation = rules::FederationNotation(variant);
  std::string out = absl::StrCat(
      "{\"style\":",
      notation.style == rules::SquareStyle::kCoordinates ? "\"coordinates\"" : "\"numbers\"",
      ",\"captureSeparator\":", JsonQuote(std::string(1, notation.capture_separator)),
      ",\"squareNames\":[");
  const int count = rules::SquareCount(variant.board);
  for (int square = 1; square <= count; ++square) {
    if (square > 1) out += ",";
    out += JsonQuote(rules::FormatSquare(notation, variant.board, square));
  }
  out += "]}";
  return out;
}

}  // namespace

std::string VariantJson(const rules::Variant& variant) {
  const int side = rules::BoardDimension(variant.board);
  const bool all = rules::AllSquaresPlayable(variant.board);
  const std::string fen = rules::FormatFen(rules::Position::Initial(variant));
  return absl::StrCat(
      "{\"id\":", JsonQuote(variant.id), ",\"name\":", JsonQuote(variant.name),
      ",\"board\":{\"rows\":", side, ",\"cols\":", side,
      ",\"playable\":", all ? "\"all\"" : "\"dark\"",
      ",\"mirrored\":", variant.mirrored ? "true" : "false",
      "},\"squares\":", rules::SquareCount(variant.board), ",\"firstColor\":",
      variant.first_to_move == rules::Color::kWhite ? "\"COLOR_WHITE\"" : "\"COLOR_BLACK\"",
      ",\"colorNames\":{\"white\":", JsonQuote(variant.white_name),
      ",\"black\":", JsonQuote(variant.black_name), "},\"initialFen\":", JsonQuote(fen),
      ",\"gameType\":", variant.pdn_game_type, ",\"notation\":", NotationJson(variant), "}");
}

std::string AllVariantsJson() {
  std::string out = "{\"variants\":[";
  bool first = true;
  for (const rules::Variant& variant : rules::AllVariants()) {
    if (!first) out += ",";
    first = false;
    out += VariantJson(variant);
  }
  out += "]}";
  return out;
}

}  // namespace draughts::gateway
