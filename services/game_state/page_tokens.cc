#include "game_state/page_tokens.h"

#include <sodium.h>

#include <charconv>
#include <vector>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "platform/absl_compat.h"

namespace draughts::game_state {
namespace {

using platform::ToAbsl;

constexpr std::size_t kMaxTokenSize = 512;

// A short digest of the filters: tokens stay small whatever the filters.
std::string FilterDigest(std::string_view filters) {
  unsigned char digest[8];
  crypto_generichash(digest, sizeof digest, reinterpret_cast<const unsigned char*>(filters.data()),
                     filters.size(), nullptr, 0);
  return absl::BytesToHexString(
      absl::string_view(reinterpret_cast<const char*>(digest), sizeof digest));
}

absl::StatusOr<std::vector<std::string>> Unwrap(std::string_view token, std::string_view kind,
                                                std::size_t fields) {
  const absl::Status bad = absl::InvalidArgumentError("page_token is malformed");
  if (token.size() > kMaxTokenSize) return bad;
  std::string text;
  if (!absl::WebSafeBase64Unescape(ToAbsl(token), &text)) return bad;
  std::vector<std::string> parts = absl::StrSplit(text, '|');
  if (parts.size() != fields || parts[0] != kind) return bad;
  return parts;
}

template <typename Int>
bool ParseInt(const std::string& text, Int& value) {
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value);
  return !text.empty() && ec == std::errc() && ptr == end;
}

std::string Wrap(const std::string& text) {
  return absl::WebSafeBase64Escape(text);
}

}  // namespace

std::string EncodeGamesPageToken(const ListCursor& cursor, std::string_view filters) {
  return Wrap(
      absl::StrCat("g1|", cursor.activity_ms, "|", cursor.game_id, "|", FilterDigest(filters)));
}

absl::StatusOr<ListCursor> DecodeGamesPageToken(std::string_view token, std::string_view filters) {
  absl::StatusOr<std::vector<std::string>> parts = Unwrap(token, "g1", 4);
  if (!parts.ok()) return parts.status();
  ListCursor cursor;
  cursor.game_id = (*parts)[2];
  if (!ParseInt((*parts)[1], cursor.activity_ms) || cursor.game_id.empty()) {
    return absl::InvalidArgumentError("page_token is malformed");
  }
  if ((*parts)[3] != FilterDigest(filters)) {
    return absl::InvalidArgumentError(
        "page_token was issued for other filters: repeat the request that returned it");
  }
  return cursor;
}

std::string EncodeMovesPageToken(std::string_view game_id, const MovesPage& page) {
  return Wrap(absl::StrCat("m1|", ToAbsl(game_id), "|", page.ply, "|", page.offset));
}

absl::StatusOr<MovesPage> DecodeMovesPageToken(std::string_view token, std::string_view game_id) {
  absl::StatusOr<std::vector<std::string>> parts = Unwrap(token, "m1", 4);
  if (!parts.ok()) return parts.status();
  MovesPage page;
  if (!ParseInt((*parts)[2], page.ply) || !ParseInt((*parts)[3], page.offset) || page.ply < 0 ||
      page.offset < 0) {
    return absl::InvalidArgumentError("page_token is malformed");
  }
  if ((*parts)[1] != game_id) {
    return absl::InvalidArgumentError("page_token belongs to another game");
  }
  return page;
}

}  // namespace draughts::game_state
