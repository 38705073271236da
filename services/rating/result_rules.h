// What a finished game's record must hold, and which games change Elo:
// the rules RecordResult and the results consumer share.
#ifndef DRAUGHTS_RATING_RESULT_RULES_H_
#define DRAUGHTS_RATING_RESULT_RULES_H_

#include "absl/status/status.h"
#include "draughts/v1/events.pb.h"

namespace draughts::rating {

// A finished game worth archiving: a game_id, a variant and a finished
// result. INVALID_ARGUMENT naming what is wrong otherwise.
absl::Status CheckFinishedRecord(const v1::ResultRecord& record);

// CheckFinishedRecord, and what rating needs besides: both seats' kinds, a
// player_id on every PERSON seat, and finished_at (it picks the month).
absl::Status CheckCompleteRecord(const v1::ResultRecord& record);

// The game changes Elo: rated, and two different PERSON seats. Bots and
// guests never do; nor does a person playing themselves (hotseat).
bool ChangesElo(const v1::ResultRecord& record);

}  // namespace draughts::rating

#endif  // DRAUGHTS_RATING_RESULT_RULES_H_
