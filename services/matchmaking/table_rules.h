// The pure rules of a table, apart from storage and RPCs so unit tests can
// check them with an injected clock: which times per move a rule set
// offers, who may sit, how colours are drawn, when the rematch window ends
// and how far apart two quick-pair ratings may be after a wait.
#ifndef DRAUGHTS_MATCHMAKING_TABLE_RULES_H_
#define DRAUGHTS_MATCHMAKING_TABLE_RULES_H_

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "draughts/v1/matchmaking.pb.h"

namespace draughts::matchmaking {

// Times per move a rule set offers (seeds 000 and 003): boards of 10x10 and
// 12x12 play 30 s, 1, 2 or 5 min (1 min by default); English and the other
// 8x8 rule sets no limit (default), 30 s or 60 s. `allow_one_second` adds
// 1 s for tests of real deadlines (a test-only flag, never in production).
struct TimeChoices {
  std::vector<absl::Duration> offered;
  absl::Duration default_time;
};
absl::StatusOr<TimeChoices> TimeChoicesFor(const std::string& variant,
                                           const v1::VariantOptions& options,
                                           bool allow_one_second);

// The time per move a request asks for (`requested` unset: the default), or
// INVALID_ARGUMENT naming what the rule set offers.
absl::StatusOr<absl::Duration> ChooseTimePerMove(const std::string& variant,
                                                 const v1::VariantOptions& options,
                                                 const google::protobuf::Duration* requested,
                                                 bool allow_one_second);

// A requester as the caller (the gateway) vouches for it: PERSON or GUEST,
// a player id, a display name of 1-40 characters (game_state needs one on
// every seat).
absl::Status CheckRequester(const v1::Seat& requester);

// The seat of a bot at `level` or of the external engine `engine_id`, with
// the name shown on the board, e.g. "Computer (Medium)".
v1::Seat BotSeat(v1::BotLevel level, const std::string& engine_id);

// Seat indexes held by `player_id` (a hotseat creator holds both).
std::vector<int> SeatsOf(const v1::Table& table, const std::string& player_id);
bool IsOpen(const v1::TableSeat& seat);
bool HasOpenSeat(const v1::Table& table);
// A seat a person or guest holds (bots do not keep a table open).
bool HasPeople(const v1::Table& table);

// The colour of seat 0 in the table's next game, given a coin for the
// draws: the first game draws (vs computer: the creator's choice if any);
// later games swap unless alternate_first_player is off.
v1::Color SeatZeroColor(const v1::Table& table, v1::Color creator_color,
                        const std::function<bool()>& coin);

// The rating window of quick pairing: `base` wide at once, `widen_by`
// wider after every `widen_every` spent waiting, at most `max`. Two waiting
// players pair when their ratings differ by at most the window of each.
struct PairingWindow {
  int base = 100;
  int widen_by = 50;
  absl::Duration widen_every = absl::Seconds(5);
  int max = 800;

  int After(absl::Duration waited) const;
};

}  // namespace draughts::matchmaking

#endif  // DRAUGHTS_MATCHMAKING_TABLE_RULES_H_
