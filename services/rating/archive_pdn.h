// A finished game's PDN 3.0, written by the rules library from a replay of
// the archived record, so every move in it is legal in its rule set.
#ifndef DRAUGHTS_RATING_ARCHIVE_PDN_H_
#define DRAUGHTS_RATING_ARCHIVE_PDN_H_

#include <string>

#include "absl/status/statusor.h"
#include "draughts/v1/events.pb.h"
#include "rules/variant.h"

namespace draughts::rating {

struct PdnSettings {
  // The Site tag: where the games are played.
  std::string site = "draughts platform";
};

// The rule set the record's moves are replayed with: the built-in one,
// adjusted by the options that change which moves are legal (captures not
// compulsory on an English table). Draw-rule options are left out: they
// only end a game earlier, and the record already says how it ended.
// INVALID_ARGUMENT for an unknown rule set.
absl::StatusOr<rules::Variant> ReplayVariant(const v1::ResultRecord& record);

// Tags Event, Site, Date (of started_at, else finished_at, UTC), Round,
// White, Black, Result (the record's result, which the moves alone may not
// show: resignations, agreed draws, timeouts), GameType (when the rule set
// has a PDN number) and FEN (when the start is not the usual position); then
// every move. INVALID_ARGUMENT when the moves do not replay from
// initial_fen or do not end on final_fen.
absl::StatusOr<std::string> ArchivedGamePdn(const v1::ResultRecord& record,
                                            const PdnSettings& settings);

}  // namespace draughts::rating

#endif  // DRAUGHTS_RATING_ARCHIVE_PDN_H_
