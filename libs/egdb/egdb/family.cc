#include "egdb/family.h"

#include <cstdio>

#include "rules/zobrist.h"

namespace draughts::egdb {

std::optional<std::string> Unsupported(const rules::Variant& v) {
  if (v.board != rules::BoardSize::k8x8 && v.board != rules::BoardSize::k10x10)
    return "endgame databases cover the diagonal 8x8 and 10x10 boards only";
  if (v.orthogonal_captures) return "orthogonal captures are not supported";
  if (!v.mandatory_capture) return "optional captures are not supported";
  if (v.goal != rules::Goal::kCaptureOrBlock)
    return "only rule sets where a side that cannot move loses are supported";
  if (v.king_move_limit != 0) return "a limit on a king's moves in a row is not supported";
  return std::nullopt;
}

std::uint64_t RulesKey(const rules::Variant& v) {
  const std::uint64_t fields[] = {
      static_cast<std::uint64_t>(v.board),
      static_cast<std::uint64_t>(v.men_capture_backward),
      static_cast<std::uint64_t>(v.men_capture_kings),
      static_cast<std::uint64_t>(v.orthogonal_captures),
      static_cast<std::uint64_t>(v.king_range),
      static_cast<std::uint64_t>(v.king_landing),
      static_cast<std::uint64_t>(v.capture_choice),
      static_cast<std::uint64_t>(v.capture_priority.with_king),
      static_cast<std::uint64_t>(v.capture_priority.most_kings),
      static_cast<std::uint64_t>(v.capture_priority.earliest_king),
      static_cast<std::uint64_t>(v.promotion_in_capture),
      static_cast<std::uint64_t>(v.captured_removal),
      static_cast<std::uint64_t>(v.king_may_turn_back),
      static_cast<std::uint64_t>(v.mandatory_capture),
      static_cast<std::uint64_t>(v.goal),
      static_cast<std::uint64_t>(v.king_move_limit),
  };
  std::uint64_t state = 0x6567646267ull;  // "egdbg"
  std::uint64_t key = 0;
  for (std::uint64_t f : fields) {
    state ^= f;
    key = key * 31 + rules::SplitMix64(state);
  }
  return key;
}

std::string FamilyId(const rules::Variant& variant) {
  const std::uint64_t key = RulesKey(variant);
  for (const rules::Variant& v : rules::AllVariants()) {
    if (RulesKey(v) == key) return std::string(v.id);
  }
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(key));
  return std::string("custom-") + hex;
}

}  // namespace draughts::egdb
