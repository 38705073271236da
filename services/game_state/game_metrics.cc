#include "game_state/game_metrics.h"

#include <string>

#include "absl/strings/ascii.h"

namespace draughts::game_state {

GameMetrics::GameMetrics(prometheus::Registry& registry)
    : created_(prometheus::BuildCounter()
                   .Name("draughts_games_created_total")
                   .Help("Games created (retries of a CreateGame not counted)")
                   .Register(registry)
                   .Add({})),
      moves_by_player_(prometheus::BuildCounter()
                           .Name("draughts_moves_total")
                           .Help("Moves played, by whether the server played them on a timeout")
                           .Register(registry)
                           .Add({{"automatic", "false"}})),
      moves_automatic_(prometheus::BuildCounter()
                           .Name("draughts_moves_total")
                           .Help("Moves played, by whether the server played them on a timeout")
                           .Register(registry)
                           .Add({{"automatic", "true"}})),
      races_lost_(prometheus::BuildCounter()
                      .Name("draughts_game_version_races_lost_total")
                      .Help("Changes computed from a version another request had already replaced "
                            "(on this replica's last copy of the game, or on a fresh read)")
                      .Register(registry)
                      .Add({})),
      watchers_(prometheus::BuildGauge()
                    .Name("draughts_game_watch_streams")
                    .Help("WatchGame streams open on this replica")
                    .Register(registry)
                    .Add({})),
      outbox_unknown_kind_(prometheus::BuildCounter()
                               .Name("draughts_outbox_unknown_kind_total")
                               .Help("Outbox entries of a kind this relay does not know, left in "
                                     "their outbox (counted each time a sweep meets one)")
                               .Register(registry)
                               .Add({})),
      ended_(prometheus::BuildCounter()
                 .Name("draughts_games_ended_total")
                 .Help("Games ended, by reason")
                 .Register(registry)) {}

void GameMetrics::Committed(const std::vector<v1::GameEvent>& events) {
  for (const v1::GameEvent& event : events) {
    if (event.has_move_played()) {
      (event.move_played().automatic() ? moves_automatic_ : moves_by_player_).Increment();
    } else if (event.has_game_ended()) {
      const v1::ResultReason reason = event.game_ended().reason();
      std::lock_guard<std::mutex> lock(mu_);
      prometheus::Counter*& counter = ended_by_reason_[reason];
      if (counter == nullptr) {
        std::string name = v1::ResultReason_Name(reason);
        constexpr std::string_view kPrefix = "RESULT_REASON_";
        if (name.rfind(kPrefix, 0) == 0) name = name.substr(kPrefix.size());
        absl::AsciiStrToLower(&name);
        counter = &ended_.Add({{"reason", name}});
      }
      counter->Increment();
    }
  }
}

}  // namespace draughts::game_state
