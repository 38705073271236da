// Picks the engine a question names and asks it: the built-in engine at a
// level (the caller lends its own engine::Engine, which is not thread-safe)
// or an external Hub engine from the catalog. Two policies:
//   Choose         for ChooseMove: an unknown engine is NOT_FOUND, a failing
//                  external engine UNAVAILABLE;
//   ChooseForGame  for a bot's turn in a game: the game must go on, so an
//                  unknown or failing external engine is replaced by the
//                  built-in engine at the seat's level (Medium if none).
#ifndef DRAUGHTS_BOT_MOVE_CHOOSER_H_
#define DRAUGHTS_BOT_MOVE_CHOOSER_H_

#include <atomic>
#include <cstdint>
#include <memory>
#include <random>
#include <string>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "bot/bot_metrics.h"
#include "bot/choice.h"
#include "bot/engine_catalog.h"
#include "draughts/v1/common.pb.h"
#include "engine/book.h"
#include "engine/engine.h"
#include "rules/game.h"

namespace draughts::bot {

struct MoveQuestion {
  const rules::GameRecord* record = nullptr;
  v1::BotLevel level = v1::BOT_LEVEL_UNSPECIFIED;
  std::string engine_id;
  // Zero: the engine's default (Hard: MoveChooserOptions::hard_move_time).
  absl::Duration time_budget;
  // Non-zero: the built-in engine starts afresh with this seed, so the same
  // question gets the same answer.
  uint64_t seed = 0;
  // Set from another thread to cut a built-in search short (best move so
  // far); may be null.
  std::atomic<bool>* stop = nullptr;
};

struct MoveChooserOptions {
  // Hard's thinking time when the question gives none; zero: the level's
  // own pace (about 1.5 s). Tests and benchmarks shorten it.
  absl::Duration hard_move_time;
  // Opening books the built-in engine plays from at Medium and Hard
  // (--book-dir); null: none.
  std::shared_ptr<const engine::BookShelf> books;
};

class MoveChooser {
 public:
  // `metrics` may be null.
  MoveChooser(const EngineCatalog* catalog, MoveChooserOptions options, BotMetrics* metrics);

  absl::StatusOr<Choice> Choose(engine::Engine& engine, std::mt19937_64& rng,
                                const MoveQuestion& question) const;
  absl::StatusOr<Choice> ChooseForGame(engine::Engine& engine, std::mt19937_64& rng,
                                       const MoveQuestion& question) const;

 private:
  absl::StatusOr<Choice> Builtin(engine::Engine& engine, std::mt19937_64& rng,
                                 const MoveQuestion& question, engine::Level level) const;

  const EngineCatalog* catalog_;
  MoveChooserOptions options_;
  BotMetrics* metrics_;
};

}  // namespace draughts::bot

#endif  // DRAUGHTS_BOT_MOVE_CHOOSER_H_
