#include "match/match_runner.h"

#include <cstdio>
#include <ctime>
#include <fstream>
#include <optional>

#include "rules/pdn.h"

namespace draughts::match {
namespace {

std::string Fixed(double value, int decimals) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.*f", decimals, value);
  return buffer;
}

std::string ResultText(const rules::GameRecord& record) {
  switch (record.outcome().status) {
    case rules::GameStatus::kWhiteWins:
      return "1-0";
    case rules::GameStatus::kBlackWins:
      return "0-1";
    case rules::GameStatus::kDraw:
      return "1/2";
    case rules::GameStatus::kOngoing:
      break;
  }
  return "*";
}

// Today in UTC, as PDN writes dates.
std::string Today() {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char buffer[16];
  std::strftime(buffer, sizeof buffer, "%Y.%m.%d", &utc);
  return buffer;
}

}  // namespace

rules::Result<MatchReport> RunMatch(const MatchOptions& options, std::FILE* log) {
  MatchReport report;
  std::array<std::optional<HubEngine>, 2> engines;
  auto start_engine = [&](int i) -> std::optional<rules::Error> {
    if (engines[i]) engines[i]->Quit();
    engines[i].reset();
    auto engine = HubEngine::Start(options.engines[i], options.variant.id);
    if (!engine.ok()) {
      return rules::MakeError("engine " + std::to_string(i + 1) + " (" +
                              options.engines[i].command + "): " + engine.error().message);
    }
    engines[i].emplace(std::move(*engine));
    report.names[i] = engines[i]->name();
    return std::nullopt;
  };
  for (int i = 0; i < 2; ++i) {
    if (auto error = start_engine(i)) return *error;
  }
  if (report.names[0] == report.names[1]) {
    report.names[0] += " (1)";
    report.names[1] += " (2)";
  }

  std::ofstream pdn;
  if (!options.pdn_path.empty()) {
    pdn.open(options.pdn_path, std::ios::out | std::ios::trunc);
    if (!pdn) return rules::MakeError("cannot write " + options.pdn_path);
  }

  const int total = static_cast<int>(options.openings.size()) * 2;
  const std::string date = Today();
  int round = 0;
  for (const Opening& opening : options.openings) {
    for (int swap = 0; swap < 2; ++swap) {
      ++round;
      // Engine 1 has kWhite in the first game of each opening.
      const int white = swap;
      const int black = 1 - swap;
      HubPlayer white_player(*engines[white]);
      HubPlayer black_player(*engines[black]);
      const std::array<Seat, 2> seats = {
          Seat{&white_player, report.names[white], &report.times[white]},
          Seat{&black_player, report.names[black], &report.times[black]}};
      GameResult game = PlayGame(options.variant, opening, seats, options.game);

      const auto winner = game.record.outcome().winner();
      if (!winner) {
        ++report.score.draws;
      } else if ((*winner == rules::Color::kWhite) == (white == 0)) {
        ++report.score.wins;
      } else {
        ++report.score.losses;
      }
      if (log != nullptr) {
        std::fprintf(log, "game %d/%d [%s] %s (%s) - %s (%s): %s, %s, %d plies  [+%d =%d -%d]\n",
                     round, total, opening.name.c_str(), report.names[white].c_str(),
                     std::string(options.variant.white_name).c_str(), report.names[black].c_str(),
                     std::string(options.variant.black_name).c_str(),
                     ResultText(game.record).c_str(), game.termination.c_str(),
                     game.record.ply_count(), report.score.wins, report.score.draws,
                     report.score.losses);
        std::fflush(log);
      }
      if (pdn.is_open()) {
        pdn << rules::WritePdn(ToPdn(game, seats, options.event, date, round)) << "\n";
        pdn.flush();
        if (!pdn) return rules::MakeError("cannot write " + options.pdn_path);
      }
      if (game.failed) {
        const int culprit = *game.failed == rules::Color::kWhite ? white : black;
        ++report.forfeits[culprit];
        // A crashed or confused engine starts the next game fresh.
        if (auto error = start_engine(culprit)) return *error;
      }
    }
  }
  for (auto& engine : engines) {
    if (engine) engine->Quit();
  }
  return report;
}

std::string FormatReport(const MatchReport& report) {
  const EloEstimate elo = EstimateElo(report.score);
  const MatchScore& s = report.score;
  std::string out;
  out += report.names[0] + " vs " + report.names[1] + ": +" + std::to_string(s.wins) + " =" +
         std::to_string(s.draws) + " -" + std::to_string(s.losses) + " in " +
         std::to_string(s.games()) + " games, score " + Fixed(100.0 * s.score(), 1) + "%\n";
  out += "Elo difference: " + FormatElo(elo) + " (95%)\n";
  for (int i = 0; i < 2; ++i) {
    const MoveTimes& t = report.times[i];
    out += "move time " + report.names[i] + ": avg " + Fixed(t.average_ms(), 1) + " ms, max " +
           std::to_string(t.max().count()) + " ms over " + std::to_string(t.count()) +
           " moves (avg " + Fixed(t.choice_average_ms(), 1) + " ms over the " +
           std::to_string(t.choice_count()) + " with more than one legal move); forfeits " +
           std::to_string(report.forfeits[i]) + "\n";
  }
  out +=
      "RESULT wins=" + std::to_string(s.wins) + " draws=" + std::to_string(s.draws) +
      " losses=" + std::to_string(s.losses) + " score=" + Fixed(s.score(), 4) + " elo=" +
      (elo.difference ? Fixed(*elo.difference, 1) : std::string(s.score() >= 1 ? "inf" : "-inf")) +
      " margin=" + (elo.margin ? Fixed(*elo.margin, 1) : std::string("inf")) +
      " avg_ms1=" + Fixed(report.times[0].average_ms(), 1) +
      " max_ms1=" + std::to_string(report.times[0].max().count()) +
      " avg_ms2=" + Fixed(report.times[1].average_ms(), 1) +
      " max_ms2=" + std::to_string(report.times[1].max().count()) +
      " choice_avg_ms1=" + Fixed(report.times[0].choice_average_ms(), 1) +
      " choice_avg_ms2=" + Fixed(report.times[1].choice_average_ms(), 1) + "\n";
  return out;
}

}  // namespace draughts::match
