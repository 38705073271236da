// Page tokens of ListGames and ListLegalMoves (common.proto, "Pagination"),
// on platform/page_token.h: versioned and bound to their call, so a token from
// another call, another filter or a damaged one is recognised and refused.
#ifndef DRAUGHTS_GAME_STATE_PAGE_TOKENS_H_
#define DRAUGHTS_GAME_STATE_PAGE_TOKENS_H_

#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "game_state/game_store.h"

namespace draughts::game_state {

// ListGames: where the next page starts, bound to the filters it was issued
// for (`filters` is any text that changes when they do).
std::string EncodeGamesPageToken(const ListCursor& cursor, std::string_view filters);
// INVALID_ARGUMENT for a malformed token or one issued for other filters.
absl::StatusOr<ListCursor> DecodeGamesPageToken(std::string_view token, std::string_view filters);

// ListLegalMoves: the offset of the next move at a ply of one game.
struct MovesPage {
  int ply = 0;
  int offset = 0;
};
std::string EncodeMovesPageToken(std::string_view game_id, const MovesPage& page);
// INVALID_ARGUMENT for a malformed token or one of another game; the
// caller compares the ply (ABORTED when the game moved on).
absl::StatusOr<MovesPage> DecodeMovesPageToken(std::string_view token, std::string_view game_id);

}  // namespace draughts::game_state

#endif  // DRAUGHTS_GAME_STATE_PAGE_TOKENS_H_
