#include "bot/builtin_thinker.h"

#include <chrono>
#include <string>

#include "engine/book.h"
#include "rules/move_notation.h"

namespace draughts::bot {

absl::StatusOr<Choice> ThinkBuiltin(engine::Engine& engine, const rules::GameRecord& record,
                                    engine::Level level, absl::Duration hard_budget,
                                    std::mt19937_64& rng, std::atomic<bool>* stop) {
  if (record.is_over() || record.legal_moves().empty()) {
    return absl::FailedPreconditionError("the game is over: the side to move has no move to play");
  }
  const absl::Time start = absl::Now();
  rules::Result<engine::SearchResult> result = rules::MakeError("no search");
  std::optional<engine::SearchResult> book_move;
  if (level == engine::Level::kHard && hard_budget > absl::ZeroDuration()) {
    // Engine::Play consults the book itself; this search must too.
    book_move =
        engine::PlayFromBook(engine.books(), level, record.variant(), record.position(), rng);
  }
  if (book_move) {
    result = *std::move(book_move);
  } else if (level == engine::Level::kHard && hard_budget > absl::ZeroDuration()) {
    const auto budget =
        std::chrono::milliseconds(std::max<int64_t>(1, absl::ToInt64Milliseconds(hard_budget)));
    engine::SearchLimits limits;
    limits.max_depth = engine::kMaxSearchDepth;
    limits.target_time = budget;
    limits.move_time = budget;
    limits.stop = stop;
    result = engine.Search(record, limits);
  } else {
    result = engine.Play(level, record, rng, stop);
  }
  if (!result.ok()) {
    return absl::InternalError("the engine found no move: " + result.error().ToString());
  }
  Choice choice;
  choice.move = rules::FormatMovePath(result->best);
  choice.depth = result->info.depth;
  choice.nodes = result->info.nodes;
  choice.eval = result->info.score_cp;
  for (const rules::Move& move : result->info.pv) {
    choice.principal_variation.push_back(rules::FormatMovePath(move));
  }
  if (choice.principal_variation.empty() || choice.principal_variation.front() != choice.move) {
    // A deliberate error (Easy) plays off the searched line.
    choice.principal_variation = {choice.move};
  }
  choice.elapsed = absl::Now() - start;
  choice.engine = std::string(engine::LevelName(level));
  return choice;
}

}  // namespace draughts::bot
