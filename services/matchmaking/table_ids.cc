#include "matchmaking/table_ids.h"

#include <sodium.h>

#include <array>

namespace draughts::matchmaking {
namespace {

constexpr std::string_view kBase32 = "abcdefghijklmnopqrstuvwxyz234567";

std::string RandomBase32(int length) {
  std::string out;
  out.reserve(length);
  for (int i = 0; i < length; ++i) {
    out.push_back(kBase32[randombytes_uniform(static_cast<uint32_t>(kBase32.size()))]);
  }
  return out;
}

}  // namespace

std::string NewTableId() {
  return "t" + RandomBase32(16);
}

std::string NewInviteCode() {
  return RandomBase32(16);
}

absl::Status CheckTableId(std::string_view id) {
  if (id.empty()) return absl::InvalidArgumentError("table_id is empty");
  if (id.size() > 64) return absl::InvalidArgumentError("table_id is longer than 64 characters");
  for (char c : id) {
    const bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                       c == '_' || c == '-';
    if (!plain) return absl::InvalidArgumentError("table_id has characters no table id has");
  }
  return absl::OkStatus();
}

}  // namespace draughts::matchmaking
