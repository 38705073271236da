// What happens when a claimed timer falls due. A move deadline: the clock
// asks game-state to play an automatic move for the side that ran out of
// time (game-state ends the game at the third in a row). A presence check:
// report seats that came or went (RecordPresence), and declare abandoned a
// seat away longer than the limit (DeclareAbandoned). Every call is
// idempotent, so a timer fired again (its claimer died) changes nothing;
// a call that fails for now leaves the timer due again shortly.
#ifndef DRAUGHTS_CLOCK_DEADLINE_FIRER_H_
#define DRAUGHTS_CLOCK_DEADLINE_FIRER_H_

#include <functional>

#include "absl/time/time.h"
#include "clock/clock_metrics.h"
#include "clock/clock_store.h"
#include "clock/game_calls.h"
#include "clock/presence_rules.h"

namespace draughts::clock {

struct FirerOptions {
  PresenceSettings presence;
  // After a call that failed for now (game-state unavailable), the timer
  // is due again this much later.
  absl::Duration retry_delay = absl::Seconds(1);
};

class DeadlineFirer {
 public:
  // Pointers must outlive the firer; `metrics` may be null; null `now`
  // means the system clock.
  DeadlineFirer(ClockStore* store, GameCalls* game, ClockMetrics* metrics, FirerOptions options,
                std::function<absl::Time()> now = {});

  // Handles one claimed timer. An error means its outcome was not saved:
  // the timer falls due again when its lease ends.
  absl::Status Fire(const DueTimer& timer);

 private:
  absl::Status FireMove(const DueTimer& timer);
  absl::Status FirePresence(const DueTimer& timer);

  ClockStore* store_;
  GameCalls* game_;
  ClockMetrics* metrics_;
  FirerOptions options_;
  std::function<absl::Time()> now_;
};

}  // namespace draughts::clock

#endif  // DRAUGHTS_CLOCK_DEADLINE_FIRER_H_
