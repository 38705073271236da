// Page tokens of GetLeaderboard and GetHistory (common.proto,
// "Pagination"): where the next page starts, plus a digest of the filters
// so a token reused with other filters is refused. Built on
// platform/page_token.h.
#ifndef DRAUGHTS_RATING_RATING_PAGES_H_
#define DRAUGHTS_RATING_RATING_PAGES_H_

#include <string>

#include "absl/status/statusor.h"
#include "rating/archive_store.h"

namespace draughts::rating {

std::string LeaderboardToken(const std::string& variant, const std::string& month,
                             const LeaderboardCursor& cursor);
// INVALID_ARGUMENT "page_token is malformed" (or issued for other filters).
absl::StatusOr<LeaderboardCursor> ParseLeaderboardToken(const std::string& token,
                                                        const std::string& variant,
                                                        const std::string& month);

std::string HistoryToken(const std::string& player_id, const std::string& variant,
                         const HistoryCursor& cursor);
absl::StatusOr<HistoryCursor> ParseHistoryToken(const std::string& token,
                                                const std::string& player_id,
                                                const std::string& variant);

}  // namespace draughts::rating

#endif  // DRAUGHTS_RATING_RATING_PAGES_H_
