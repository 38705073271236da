#include "matchmaking/matchmaking_metrics.h"

namespace draughts::matchmaking {

MatchmakingMetrics::MatchmakingMetrics(prometheus::Registry& registry)
    : opened_(prometheus::BuildCounter()
                  .Name("draughts_matchmaking_tables_opened_total")
                  .Help("Tables opened (CreateTable, and quick-pair waiting tables)")
                  .Register(registry)
                  .Add({})),
      closed_(prometheus::BuildCounter()
                  .Name("draughts_matchmaking_tables_closed_total")
                  .Help("Tables closed, by reason (everyone_left, rematch_window_closed, paired)")
                  .Register(registry)),
      games_started_(prometheus::BuildCounter()
                         .Name("draughts_matchmaking_games_started_total")
                         .Help("Games started at tables (first games and rematches)")
                         .Register(registry)
                         .Add({})),
      pairings_(prometheus::BuildCounter()
                    .Name("draughts_matchmaking_quick_pairings_total")
                    .Help("Quick-pair pairings seated by this replica")
                    .Register(registry)
                    .Add({})),
      wait_(prometheus::BuildHistogram()
                .Name("draughts_matchmaking_quick_pair_wait_seconds")
                .Help("How long the waiting player of a pairing waited")
                .Register(registry)
                .Add({}, prometheus::Histogram::BucketBoundaries{0.01, 0.05, 0.1, 0.5, 1, 2, 5, 10,
                                                                 30, 60, 120, 300})),
      wrong_passwords_(prometheus::BuildCounter()
                           .Name("draughts_matchmaking_wrong_passwords_total")
                           .Help("Joins refused for a wrong password (or a password given for "
                                 "an unknown table id)")
                           .Register(registry)
                           .Add({})),
      queued_(prometheus::BuildGauge()
                  .Name("draughts_matchmaking_quick_pair_queue_size")
                  .Help("Players waiting in every quick-pair queue")
                  .Register(registry)
                  .Add({})),
      listed_(prometheus::BuildGauge()
                  .Name("draughts_matchmaking_tables_listed")
                  .Help("Tables in the lobby index (public and private, not yet closed)")
                  .Register(registry)
                  .Add({})) {}

}  // namespace draughts::matchmaking
