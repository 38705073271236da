// A finished game's line in a player's rating history, and the Elo change
// it records, as the replay page and the table socket show them.
#ifndef DRAUGHTS_GATEWAY_RATING_CHANGES_H_
#define DRAUGHTS_GATEWAY_RATING_CHANGES_H_

#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "draughts/v1/rating.pb.h"
#include "gateway/rating_backend.h"

namespace draughts::gateway {

// `game_id`'s line in `player_id`'s history of `variant`, searched `pages`
// pages (of 100 games, newest first) deep; none when it is not there (not
// recorded yet, or too old to be found). Blocking.
absl::StatusOr<std::optional<v1::HistoryEntry>> FindHistoryEntry(RatingBackend& ratings,
                                                                 const std::string& player_id,
                                                                 const std::string& variant,
                                                                 const std::string& game_id,
                                                                 int pages);

// The change of a history line whose elo_changed is set.
v1::RatingChange RatingChangeOf(const v1::HistoryEntry& entry, const std::string& player_id,
                                v1::Color color);

}  // namespace draughts::gateway

#endif  // DRAUGHTS_GATEWAY_RATING_CHANGES_H_
