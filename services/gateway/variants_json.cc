#include "gateway/variants_json.h"

#include "absl/strings/str_cat.h"
#include "gateway/json_string.h"
#include "rules/fen.h"
#include "rules/geometry.h"
#include "rules/position.h"

namespace draughts::gateway {

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
      ",\"gameType\":", variant.pdn_game_type, "}");
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
