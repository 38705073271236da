#include "engine/engine.h"

#include <string>

#include "egdb/registry.h"
#include "engine/book.h"
#include "engine/searcher.h"
#include "rules/movegen.h"

namespace draughts::engine {
namespace {

// Why this search cannot run, or nullopt. Fills `legal`.
std::optional<rules::Error> Validate(const rules::Variant& variant, const rules::Position& position,
                                     const GameHistory& history, rules::MoveList& legal) {
  if (auto error = rules::CheckVariant(variant)) {
    return rules::MakeError("cannot search this rule set: " + error->message);
  }
  if (position.board() != variant.board) {
    const int n = rules::BoardDimension(position.board());
    const int m = rules::BoardDimension(variant.board);
    return rules::MakeError("the position is for a " + std::to_string(n) + "x" + std::to_string(n) +
                            " board but " + std::string(variant.id) + " is played on " +
                            std::to_string(m) + "x" + std::to_string(m));
  }
  if (history.no_progress_plies < 0 || history.lone_king_plies < 0 || history.plies_played < 0) {
    return rules::MakeError("game history counters must not be negative");
  }
  rules::GenerateMoves(variant, position, legal);
  if (legal.empty()) {
    return rules::MakeError("the side to move has no legal move: the game is over");
  }
  return std::nullopt;
}

}  // namespace

Engine::Engine(std::size_t tt_megabytes)
    : searcher_(std::make_unique<Searcher>(tt_megabytes)),
      endgame_(egdb::Registry::FromEnvironment()) {}
Engine::~Engine() = default;
Engine::Engine(Engine&&) noexcept = default;
Engine& Engine::operator=(Engine&&) noexcept = default;

void Engine::NewGame() {
  searcher_->NewGame();
}

void Engine::ResizeTable(std::size_t tt_megabytes) {
  searcher_->ResizeTable(tt_megabytes);
}

void Engine::SetBooks(std::shared_ptr<const BookShelf> books) {
  books_ = std::move(books);
}

void Engine::SetEndgameDatabases(std::shared_ptr<egdb::Registry> registry) {
  endgame_ = std::move(registry);
}

void Engine::SetSearchTuning(const SearchTuning& tuning) {
  tuning_ = std::make_shared<const SearchTuning>(tuning);
}

void Engine::LoadEndgameDatabases(const rules::Variant& variant) {
  if (endgame_) endgame_->For(variant);
}

rules::Result<SearchResult> Engine::Search(const rules::Variant& variant,
                                           const rules::Position& position,
                                           const GameHistory& history, const SearchLimits& limits,
                                           const InfoCallback& on_info) {
  rules::MoveList legal;
  if (auto error = Validate(variant, position, history, legal)) return *error;
  SearchRequest request;
  request.variant = variant;
  request.position = position;
  request.history = &history;
  request.limits = limits;
  request.on_info = on_info;
  request.endgame = endgame_ ? endgame_->For(variant) : nullptr;
  if (tuning_) request.tuning = *tuning_;
  request.tuning.classic_eval = classic_eval_;
  return searcher_->Run(request);
}

rules::Result<SearchResult> Engine::Search(const rules::GameRecord& record,
                                           const SearchLimits& limits,
                                           const InfoCallback& on_info) {
  if (record.is_over()) {
    return rules::MakeError("the game is over (" + record.outcome().ToString() + ")");
  }
  return Search(record.variant(), record.position(), HistoryOf(record), limits, on_info);
}

rules::Result<SearchResult> Engine::Play(Level level, const rules::Variant& variant,
                                         const rules::Position& position,
                                         const GameHistory& history, std::mt19937_64& rng,
                                         std::atomic<bool>* stop) {
  rules::MoveList legal;
  if (auto error = Validate(variant, position, history, legal)) return *error;
  if (auto book_move = PlayFromBook(books_.get(), level, variant, position, rng)) return *book_move;
  const LevelParams params = ParamsFor(level, variant);

  if (params.random_move_probability > 0.0 &&
      std::uniform_real_distribution<double>(0.0, 1.0)(rng) < params.random_move_probability) {
    std::uniform_int_distribution<std::size_t> pick(0, legal.size() - 1);
    SearchResult result;
    result.best = legal[pick(rng)];
    result.info.pv = {result.best};
    return result;
  }

  SearchLimits limits;
  limits.max_depth = params.max_depth;
  limits.max_nodes = params.max_nodes;
  limits.target_time = params.target_time;
  limits.move_time = params.move_time;
  limits.stop = stop;
  limits.keep_pace = params.keep_pace;
  SearchRequest request;
  request.variant = variant;
  request.position = position;
  request.history = &history;
  request.limits = limits;
  request.noise_cp = params.eval_noise_cp;
  request.noise_seed = rng();
  request.endgame = endgame_ ? endgame_->For(variant) : nullptr;
  if (tuning_) request.tuning = *tuning_;
  request.tuning.classic_eval = classic_eval_;
  return searcher_->Run(request);
}

rules::Result<SearchResult> Engine::Play(Level level, const rules::GameRecord& record,
                                         std::mt19937_64& rng, std::atomic<bool>* stop) {
  if (record.is_over()) {
    return rules::MakeError("the game is over (" + record.outcome().ToString() + ")");
  }
  return Play(level, record.variant(), record.position(), HistoryOf(record), rng, stop);
}

}  // namespace draughts::engine
