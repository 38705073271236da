// GET /api/variants: every rule set of libs/rules as the browser needs it
// to draw a board (geometry, colour names, starting position).
#ifndef DRAUGHTS_GATEWAY_VARIANTS_JSON_H_
#define DRAUGHTS_GATEWAY_VARIANTS_JSON_H_

#include <string>

#include "rules/variant.h"

namespace draughts::gateway {

// One {"id":...,"board":{...},...} object.
std::string VariantJson(const rules::Variant& variant);
// {"variants":[...]} for AllVariants(), in the library's order.
std::string AllVariantsJson();

}  // namespace draughts::gateway

#endif  // DRAUGHTS_GATEWAY_VARIANTS_JSON_H_
