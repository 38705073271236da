#include "match/game.h"

#include <cstdio>

#include "hub/move_text.h"
#include "hub/position_text.h"
#include "rules/pdn_replay.h"

namespace draughts::match {
namespace {

int SeatIndex(rules::Color color) {
  return color == rules::Color::kWhite ? 0 : 1;
}

hub::PosCommand PositionFor(const rules::GameRecord& record) {
  hub::PosCommand pos;
  pos.position = hub::FormatHubPosition(record.start());
  for (const rules::Move& move : record.moves()) pos.moves.push_back(hub::FormatHubMove(move));
  return pos;
}

}  // namespace

GameResult PlayGame(const rules::Variant& variant, const Opening& opening,
                    const std::array<Seat, 2>& seats, const GameOptions& options) {
  GameResult result{rules::GameRecord(variant, opening.start), "", std::nullopt, {}};
  rules::GameRecord& record = result.record;
  for (const rules::Move& move : opening.moves) {
    if (auto error = record.Apply(move)) {
      result.termination = "opening is not playable: " + error->message;
      return result;
    }
  }
  for (const Seat& seat : seats) {
    if (auto error = seat.player->NewGame()) {
      // Reported by the next Think, which fails the same way.
      (void)error;
    }
  }

  auto forfeit = [&](rules::Color side, const std::string& why, bool on_time) {
    const Seat& seat = seats[SeatIndex(side)];
    auto decided = on_time ? record.DecideTimeForfeit(side) : record.DecideResignation(side);
    if (decided.ok()) record = std::move(*decided);
    result.termination =
        std::string(variant.ColorName(side)) + " (" + seat.name + ") forfeits: " + why;
    result.failed = side;
  };

  while (!record.is_over()) {
    if (record.ply_count() >= options.max_plies) {
      auto drawn = record.DecideAgreedDraw();
      if (drawn.ok()) record = std::move(*drawn);
      result.termination =
          "draw: adjudicated after " + std::to_string(options.max_plies) + " plies";
      return result;
    }
    const rules::Color side = record.position().side_to_move();
    const Seat& seat = seats[SeatIndex(side)];
    auto thought = seat.player->Think(PositionFor(record), options.level, options.timeout);
    if (!thought.ok()) {
      forfeit(side, thought.error().message, true);
      return result;
    }
    if (seat.times != nullptr) seat.times->Add(thought->elapsed, record.legal_moves().size() == 1);
    if (thought->elapsed > options.timeout) {
      forfeit(side,
              "took " + std::to_string(thought->elapsed.count()) + " ms, limit " +
                  std::to_string(options.timeout.count()) + " ms",
              true);
      return result;
    }
    auto move = hub::ParseHubMove(variant, record.position(), thought->move);
    if (!move.ok()) {
      forfeit(side, "illegal move " + thought->move + " (" + move.error().message + ")", false);
      return result;
    }
    if (auto error = record.Apply(*move)) {
      forfeit(side, "illegal move " + thought->move + " (" + error->message + ")", false);
      return result;
    }
    result.think_times.resize(static_cast<std::size_t>(record.ply_count()));
    result.think_times.back() = thought->elapsed;
  }
  const rules::Outcome& outcome = record.outcome();
  if (auto winner = outcome.winner()) {
    result.termination = std::string(variant.ColorName(*winner)) +
                         " wins: " + std::string(rules::OutcomeReasonName(outcome.reason));
  } else {
    result.termination = "draw: " + std::string(rules::OutcomeReasonName(outcome.reason));
  }
  return result;
}

rules::PdnGame ToPdn(const GameResult& game, const std::array<Seat, 2>& seats,
                     const std::string& event, const std::string& date, int round) {
  std::vector<rules::PdnTag> tags = {
      {"Event", event},
      {"Date", date.empty() ? "????.??.??" : date},
      {"Round", std::to_string(round)},
      {"White", seats[0].name},
      {"Black", seats[1].name},
      {"Termination", game.termination},
  };
  rules::PdnGame pdn = rules::ToPdnGame(game.record, std::move(tags));
  for (std::size_t i = 0; i < pdn.moves.size() && i < game.think_times.size(); ++i) {
    if (!game.think_times[i]) continue;
    char text[32];
    std::snprintf(text, sizeof text, "%.3fs",
                  static_cast<double>(game.think_times[i]->count()) / 1000.0);
    pdn.moves[i].comment = text;
  }
  return pdn;
}

}  // namespace draughts::match
