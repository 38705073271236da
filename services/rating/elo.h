// The Elo rule of the rating service, as pure arithmetic: no storage, no
// clock. Ratings are per player, rule set and calendar month; everyone
// starts a month at EloSettings::initial. README.md explains the K factors.
#ifndef DRAUGHTS_RATING_ELO_H_
#define DRAUGHTS_RATING_ELO_H_

#include <cstdint>
#include <string>

#include "draughts/v1/common.pb.h"

namespace draughts::rating {

struct EloSettings {
  // Everyone's rating at the start of every month.
  int initial = 1500;
};

// Games played in the month before K drops from kNewcomerK.
inline constexpr int kNewcomerGames = 10;
inline constexpr int kNewcomerK = 40;
inline constexpr int kRegularK = 20;
// From this rating on (after the newcomer games) K is kTopK.
inline constexpr int kTopRating = 2400;
inline constexpr int kTopK = 10;

// K for a player who has played `games_before` rated games this month and
// stands at `rating`.
int KFactor(int games_before, int rating);

// The score `rating` is expected to make against `opponent`: 0 to 1, 0.5
// between equals, about 0.76 for 200 points more.
double ExpectedScore(int rating, int opponent);

// Points for the result from one side: win 1, draw 0.5, loss 0.
double Score(v1::GameResult result, v1::Color side);

// A player's month in one rule set.
struct Standing {
  int elo = 1500;
  int games = 0;
  int wins = 0;
  int draws = 0;
  int losses = 0;
};

// The standing after one more game: rating + round(K * (score - expected)),
// K from the standing before the game, and the game counted as a win, draw
// or loss.
Standing AfterGame(const Standing& before, int opponent_elo, double score);

// "YYYY-MM" of an instant, in UTC: the month a game counts in.
std::string MonthOf(int64_t unix_micros);

// Whether `month` is "YYYY-MM" with a month 01-12 and a year 0001-9999.
bool IsValidMonth(const std::string& month);

}  // namespace draughts::rating

#endif  // DRAUGHTS_RATING_ELO_H_
