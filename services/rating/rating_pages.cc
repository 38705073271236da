#include "rating/rating_pages.h"

#include <vector>

#include "absl/strings/str_cat.h"
#include "platform/page_token.h"
#include "platform/status_macros.h"

namespace draughts::rating {
namespace {

constexpr char kLeaderboardKind[] = "rl1";
constexpr char kHistoryKind[] = "rh1";

// The filters, each length-prefixed so no two filter sets digest alike by
// concatenation.
std::string Filters(const std::string& a, const std::string& b) {
  return absl::StrCat(a.size(), ":", a, b.size(), ":", b);
}

absl::Status Malformed() {
  return absl::InvalidArgumentError("page_token is malformed");
}

absl::Status OtherFilters() {
  return absl::InvalidArgumentError(
      "page_token was issued for other filters: pass every other field unchanged");
}

}  // namespace

std::string LeaderboardToken(const std::string& variant, const std::string& month,
                             const LeaderboardCursor& cursor) {
  return platform::EncodePageToken(
      kLeaderboardKind,
      {platform::PageFilterDigest(Filters(variant, month)), absl::StrCat(cursor.elo),
       absl::StrCat(cursor.games), cursor.player_id, absl::StrCat(cursor.rank)});
}

absl::StatusOr<LeaderboardCursor> ParseLeaderboardToken(const std::string& token,
                                                        const std::string& variant,
                                                        const std::string& month) {
  DRAUGHTS_ASSIGN_OR_RETURN(std::vector<std::string> fields,
                            platform::DecodePageToken(token, kLeaderboardKind, 5));
  if (fields[0] != platform::PageFilterDigest(Filters(variant, month))) return OtherFilters();
  LeaderboardCursor cursor;
  cursor.player_id = fields[3];
  if (!platform::ParsePageTokenInt(fields[1], cursor.elo) ||
      !platform::ParsePageTokenInt(fields[2], cursor.games) ||
      !platform::ParsePageTokenInt(fields[4], cursor.rank) || cursor.rank < 1 || cursor.games < 0 ||
      cursor.player_id.empty()) {
    return Malformed();
  }
  return cursor;
}

std::string HistoryToken(const std::string& player_id, const std::string& variant,
                         const HistoryCursor& cursor) {
  return platform::EncodePageToken(kHistoryKind,
                                   {platform::PageFilterDigest(Filters(player_id, variant)),
                                    absl::StrCat(cursor.finished_at_micros), cursor.game_id});
}

absl::StatusOr<HistoryCursor> ParseHistoryToken(const std::string& token,
                                                const std::string& player_id,
                                                const std::string& variant) {
  DRAUGHTS_ASSIGN_OR_RETURN(std::vector<std::string> fields,
                            platform::DecodePageToken(token, kHistoryKind, 3));
  if (fields[0] != platform::PageFilterDigest(Filters(player_id, variant))) return OtherFilters();
  HistoryCursor cursor;
  cursor.game_id = fields[2];
  if (!platform::ParsePageTokenInt(fields[1], cursor.finished_at_micros) ||
      cursor.game_id.empty()) {
    return Malformed();
  }
  return cursor;
}

}  // namespace draughts::rating
