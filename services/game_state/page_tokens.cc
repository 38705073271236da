#include "game_state/page_tokens.h"

#include <vector>

#include "absl/strings/str_cat.h"
#include "platform/page_token.h"

namespace draughts::game_state {

using platform::ParsePageTokenInt;

std::string EncodeGamesPageToken(const ListCursor& cursor, std::string_view filters) {
  return platform::EncodePageToken("g1", {absl::StrCat(cursor.activity_ms), cursor.game_id,
                                          platform::PageFilterDigest(filters)});
}

absl::StatusOr<ListCursor> DecodeGamesPageToken(std::string_view token, std::string_view filters) {
  absl::StatusOr<std::vector<std::string>> fields = platform::DecodePageToken(token, "g1", 3);
  if (!fields.ok()) return fields.status();
  ListCursor cursor;
  cursor.game_id = (*fields)[1];
  if (!ParsePageTokenInt((*fields)[0], cursor.activity_ms) || cursor.game_id.empty()) {
    return absl::InvalidArgumentError("page_token is malformed");
  }
  if ((*fields)[2] != platform::PageFilterDigest(filters)) {
    return absl::InvalidArgumentError(
        "page_token was issued for other filters: repeat the request that returned it");
  }
  return cursor;
}

std::string EncodeMovesPageToken(std::string_view game_id, const MovesPage& page) {
  return platform::EncodePageToken(
      "m1", {std::string(game_id), absl::StrCat(page.ply), absl::StrCat(page.offset)});
}

absl::StatusOr<MovesPage> DecodeMovesPageToken(std::string_view token, std::string_view game_id) {
  absl::StatusOr<std::vector<std::string>> fields = platform::DecodePageToken(token, "m1", 3);
  if (!fields.ok()) return fields.status();
  MovesPage page;
  if (!ParsePageTokenInt((*fields)[1], page.ply) || !ParsePageTokenInt((*fields)[2], page.offset) ||
      page.ply < 0 || page.offset < 0) {
    return absl::InvalidArgumentError("page_token is malformed");
  }
  if ((*fields)[0] != game_id) {
    return absl::InvalidArgumentError("page_token belongs to another game");
  }
  return page;
}

}  // namespace draughts::game_state
