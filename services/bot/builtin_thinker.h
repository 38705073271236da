// libs/engine as a bot: a level's own play (engine::Engine::Play, with its
// deliberate errors for Easy), or for Hard a full-strength search within a
// given time budget.
#ifndef DRAUGHTS_BOT_BUILTIN_THINKER_H_
#define DRAUGHTS_BOT_BUILTIN_THINKER_H_

#include <atomic>
#include <random>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "bot/choice.h"
#include "engine/engine.h"
#include "engine/level.h"
#include "rules/game.h"

namespace draughts::bot {

// The engine's opening books (Engine::SetBooks) are used at the levels
// that use them, the Hard budget path included: a book move comes back
// at once, with depth 0 and no nodes.
// `hard_budget` (Hard only, zero: the level's own 1.5 s pace) bounds the
// search: it aims at the budget and never passes it by more than the
// engine's reaction time. `engine` is the caller's own (not thread-safe).
// FAILED_PRECONDITION when the game is over.
absl::StatusOr<Choice> ThinkBuiltin(engine::Engine& engine, const rules::GameRecord& record,
                                    engine::Level level, absl::Duration hard_budget,
                                    std::mt19937_64& rng, std::atomic<bool>* stop = nullptr);

}  // namespace draughts::bot

#endif  // DRAUGHTS_BOT_BUILTIN_THINKER_H_
