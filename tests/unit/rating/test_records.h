// Finished games for the rating tests, played through the rules library so
// their moves and final FEN are real.
#ifndef DRAUGHTS_TESTS_UNIT_RATING_TEST_RECORDS_H_
#define DRAUGHTS_TESTS_UNIT_RATING_TEST_RECORDS_H_

#include <string>

#include "absl/time/time.h"
#include "draughts/v1/events.pb.h"

namespace draughts::rating::testing {

// A game of `variant` between two people, `plies` moves long (fewer if it
// ends by the rules first), each move picked from the legal ones by a
// generator seeded with `seed`; the result is the rules' or, if the game
// is still on, White resigning. `initial_fen` empty = the usual start.
v1::ResultRecord PlayedRecord(const std::string& game_id,
                              const std::string& variant = "international", int plies = 30,
                              unsigned seed = 1, const std::string& initial_fen = "");

// A rated game between two accounts (PERSON seats `white` and `black`,
// display names "<id> name") ending with `result` at `finished_at`, with no
// moves: what Elo needs and nothing more.
v1::ResultRecord RatedRecord(const std::string& game_id, const std::string& white,
                             const std::string& black, v1::GameResult result,
                             absl::Time finished_at, const std::string& variant = "international");

}  // namespace draughts::rating::testing

#endif  // DRAUGHTS_TESTS_UNIT_RATING_TEST_RECORDS_H_
