#include "match/elo.h"

#include <cmath>
#include <cstdio>

namespace draughts::match {
namespace {

// Two-sided 95% quantile of the normal distribution.
constexpr double kZ95 = 1.959963984540054;

std::string Signed(double value) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%+.1f", value);
  return buffer;
}

}  // namespace

double MatchScore::score() const {
  if (games() == 0) return 0.5;
  return (wins + 0.5 * draws) / games();
}

std::optional<double> EloFromScore(double score) {
  if (!(score > 0.0 && score < 1.0)) return std::nullopt;
  return -400.0 * std::log10(1.0 / score - 1.0);
}

EloEstimate EstimateElo(const MatchScore& result) {
  EloEstimate estimate;
  const int n = result.games();
  estimate.games = n;
  estimate.score = result.score();
  if (n == 0) return estimate;
  const double s = estimate.score;
  estimate.difference = EloFromScore(s);
  const double variance = (result.wins * (1.0 - s) * (1.0 - s) +
                           result.draws * (0.5 - s) * (0.5 - s) + result.losses * s * s) /
                          n;
  const double se = std::sqrt(variance / n);
  const auto low = EloFromScore(s - kZ95 * se);
  const auto high = EloFromScore(s + kZ95 * se);
  if (low && high) estimate.margin = (*high - *low) / 2.0;
  return estimate;
}

std::string FormatElo(const EloEstimate& estimate) {
  if (estimate.games == 0) return "n/a (no games)";
  std::string out;
  if (estimate.difference) {
    out = Signed(*estimate.difference);
  } else {
    out = estimate.score >= 1.0 ? "+inf" : "-inf";
  }
  out += " +/- ";
  if (estimate.margin) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.1f", *estimate.margin);
    out += buffer;
  } else {
    out += "inf";
  }
  return out;
}

}  // namespace draughts::match
