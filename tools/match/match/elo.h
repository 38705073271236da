#pragma once

// Elo difference from a match score, with its 95% confidence margin.
//
// The score s = (wins + draws / 2) / games maps to an Elo difference
// through the logistic model: elo(s) = -400 * log10(1 / s - 1). The margin
// comes from the variance of the per-game score (1, 1/2 or 0),
// var = mean((x - s)^2), so the standard error of s is sqrt(var / games);
// the interval is elo(s -/+ 1.96 * se) and the margin is half its width.

#include <optional>
#include <string>

namespace draughts::match {

struct MatchScore {
  int wins = 0;
  int draws = 0;
  int losses = 0;

  int games() const { return wins + draws + losses; }
  // Points per game in [0, 1]; 0.5 for no games.
  double score() const;
  friend bool operator==(const MatchScore&, const MatchScore&) = default;
};

struct EloEstimate {
  int games = 0;
  double score = 0.5;
  // nullopt when the score is 0 or 1 (the model gives infinity).
  std::optional<double> difference;
  // Half the width of the 95% interval; nullopt when an end is infinite.
  std::optional<double> margin;
};

// The Elo difference for a score in (0, 1); nullopt at 0 and 1.
std::optional<double> EloFromScore(double score);

EloEstimate EstimateElo(const MatchScore& score);

// "+123.4 +/- 56.7", "+inf", "-inf +/- inf"...
std::string FormatElo(const EloEstimate& estimate);

}  // namespace draughts::match
