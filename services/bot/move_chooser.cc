#include "bot/move_chooser.h"

#include "absl/strings/str_cat.h"
#include "bot/builtin_thinker.h"
#include "platform/logging.h"

namespace draughts::bot {

MoveChooser::MoveChooser(const EngineCatalog* catalog, MoveChooserOptions options,
                         BotMetrics* metrics)
    : catalog_(catalog), options_(options), metrics_(metrics) {}

absl::StatusOr<Choice> MoveChooser::Builtin(engine::Engine& engine, std::mt19937_64& rng,
                                            const MoveQuestion& question,
                                            engine::Level level) const {
  absl::Duration budget = question.time_budget;
  if (budget <= absl::ZeroDuration()) budget = options_.hard_move_time;
  // The engine is the caller's: it gets this process's books here.
  if (engine.books() != options_.books.get()) engine.SetBooks(options_.books);
  absl::StatusOr<Choice> choice;
  if (question.seed != 0) {
    // What the table learnt from other games would change the answer.
    engine.NewGame();
    std::mt19937_64 seeded(question.seed);
    choice = ThinkBuiltin(engine, *question.record, level, budget, seeded, question.stop);
  } else {
    choice = ThinkBuiltin(engine, *question.record, level, budget, rng, question.stop);
  }
  if (choice.ok() && metrics_ != nullptr) metrics_->Thought(choice->engine, choice->elapsed);
  return choice;
}

absl::StatusOr<Choice> MoveChooser::Choose(engine::Engine& engine, std::mt19937_64& rng,
                                           const MoveQuestion& question) const {
  if (!question.engine_id.empty()) {
    if (std::optional<engine::Level> level = EngineCatalog::BuiltinLevel(question.engine_id)) {
      return Builtin(engine, rng, question, *level);
    }
    HubEnginePool* external = catalog_->External(question.engine_id);
    if (external == nullptr) {
      return absl::NotFoundError(
          absl::StrCat("unknown engine_id \"", question.engine_id, "\" (see ListEngines)"));
    }
    if (!external->Plays(question.record->variant().id)) {
      return absl::InvalidArgumentError(absl::StrCat("engine ", question.engine_id,
                                                     " does not play ",
                                                     std::string(question.record->variant().id)));
    }
    absl::StatusOr<Choice> choice = external->Think(*question.record, question.time_budget);
    if (choice.ok() && metrics_ != nullptr) metrics_->Thought(choice->engine, choice->elapsed);
    return choice;
  }
  std::optional<engine::Level> level = ToEngineLevel(question.level);
  if (!level.has_value()) {
    return absl::InvalidArgumentError("level is unspecified and no engine_id is given");
  }
  return Builtin(engine, rng, question, *level);
}

absl::StatusOr<Choice> MoveChooser::ChooseForGame(engine::Engine& engine, std::mt19937_64& rng,
                                                  const MoveQuestion& question) const {
  const engine::Level seat_level = ToEngineLevel(question.level).value_or(engine::Level::kMedium);
  if (question.engine_id.empty()) return Builtin(engine, rng, question, seat_level);
  if (std::optional<engine::Level> level = EngineCatalog::BuiltinLevel(question.engine_id)) {
    return Builtin(engine, rng, question, *level);
  }
  HubEnginePool* external = catalog_->External(question.engine_id);
  if (external == nullptr || !external->Plays(question.record->variant().id)) {
    platform::LogWarn(
        "bot seat's engine is not configured here or does not play this rule set: "
        "the built-in engine plays",
        {{"engine", question.engine_id}, {"variant", std::string(question.record->variant().id)}});
    if (metrics_ != nullptr) metrics_->EngineFallback(question.engine_id);
    return Builtin(engine, rng, question, seat_level);
  }
  absl::StatusOr<Choice> choice = external->Think(*question.record, question.time_budget);
  if (choice.ok()) {
    if (metrics_ != nullptr) metrics_->Thought(choice->engine, choice->elapsed);
    return choice;
  }
  platform::LogWarn("external engine failed a move: the built-in engine plays it",
                    {{"engine", question.engine_id}, {"status", choice.status()}});
  if (metrics_ != nullptr) metrics_->EngineFallback(question.engine_id);
  return Builtin(engine, rng, question, seat_level);
}

}  // namespace draughts::bot
