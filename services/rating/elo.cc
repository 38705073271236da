#include "rating/elo.h"

#include <cmath>

#include "absl/strings/ascii.h"
#include "absl/time/time.h"

namespace draughts::rating {

int KFactor(int games_before, int rating) {
  if (games_before < kNewcomerGames) return kNewcomerK;
  return rating >= kTopRating ? kTopK : kRegularK;
}

double ExpectedScore(int rating, int opponent) {
  return 1.0 / (1.0 + std::pow(10.0, (opponent - rating) / 400.0));
}

double Score(v1::GameResult result, v1::Color side) {
  switch (result) {
    case v1::GAME_RESULT_WHITE_WINS:
      return side == v1::COLOR_WHITE ? 1.0 : 0.0;
    case v1::GAME_RESULT_BLACK_WINS:
      return side == v1::COLOR_BLACK ? 1.0 : 0.0;
    default:
      return 0.5;
  }
}

Standing AfterGame(const Standing& before, int opponent_elo, double score) {
  Standing after = before;
  const double change =
      KFactor(before.games, before.elo) * (score - ExpectedScore(before.elo, opponent_elo));
  after.elo = before.elo + static_cast<int>(std::lround(change));
  ++after.games;
  if (score > 0.75) {
    ++after.wins;
  } else if (score < 0.25) {
    ++after.losses;
  } else {
    ++after.draws;
  }
  return after;
}

std::string MonthOf(int64_t unix_micros) {
  return absl::FormatTime("%Y-%m", absl::FromUnixMicros(unix_micros), absl::UTCTimeZone());
}

bool IsValidMonth(const std::string& month) {
  if (month.size() != 7 || month[4] != '-') return false;
  for (int i : {0, 1, 2, 3, 5, 6}) {
    if (!absl::ascii_isdigit(static_cast<unsigned char>(month[i]))) return false;
  }
  const int number = (month[5] - '0') * 10 + (month[6] - '0');
  return number >= 1 && number <= 12 && month.substr(0, 4) != "0000";
}

}  // namespace draughts::rating
