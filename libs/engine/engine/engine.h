#pragma once

// The draughts engine: iterative-deepening alpha-beta (PVS) with a
// transposition table, for any rules::Variant. One Engine is one searcher
// with its own table; it is not thread-safe, so use one per thread (the
// stop flag in SearchLimits is the only thing another thread may touch).
//
//   engine::Engine engine(/*tt_megabytes=*/32);
//   auto result = engine.Search(record, {.max_depth = 12,
//                                        .move_time = std::chrono::seconds(1)});
//   if (result.ok()) play(result->best);
//
// Errors (no legal move, a position made for another board, an unplayable
// variant) come back as rules::Error and never change the engine's state
// beyond what a search would.

#include <cstddef>
#include <functional>
#include <memory>
#include <random>

#include "engine/level.h"
#include "engine/search_types.h"
#include "rules/game.h"
#include "rules/position.h"
#include "rules/result.h"
#include "rules/variant.h"

namespace draughts::egdb {
class Registry;
}

namespace draughts::engine {

class Searcher;
class BookShelf;
struct SearchTuning;

// Called after every completed iteration (and never after Search returns).
using InfoCallback = std::function<void(const SearchInfo&)>;

// The parts of a game record the search needs (hashes since the last
// irreversible move, draw-rule counters).
GameHistory HistoryOf(const rules::GameRecord& record);

class Engine {
 public:
  static constexpr std::size_t kDefaultTableMegabytes = 16;

  explicit Engine(std::size_t tt_megabytes = kDefaultTableMegabytes);
  ~Engine();
  Engine(Engine&&) noexcept;
  Engine& operator=(Engine&&) noexcept;
  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;

  // Forgets everything learnt (transposition table, move-ordering
  // statistics): call between unrelated games, and before a benchmark.
  void NewGame();
  // Replaces the transposition table by one of about this size (min 1 MB).
  void ResizeTable(std::size_t tt_megabytes);
  // The endgame databases searches use (engine/endgame_probe.h): by
  // default those of $DRAUGHTS_EGDB_DIR (egdb/registry.h); null: none.
  void SetEndgameDatabases(std::shared_ptr<egdb::Registry> registry);
  // Loads the variant's databases now (they load on first use otherwise):
  // English's 6 pieces take seconds to read, which must not fall within a
  // move's time.
  void LoadEndgameDatabases(const rules::Variant& variant);

  // Use only the hand-set evaluation, even for rule sets with learned
  // pattern weights (pattern_evaluator.h): for comparisons. Default: false.
  void SetClassicEvaluation(bool classic) { classic_eval_ = classic; }
  bool classic_evaluation() const { return classic_eval_; }

  // Replaces the search's knobs (searcher.h) for experiments that compare
  // two settings; production plays with the defaults.
  void SetSearchTuning(const SearchTuning& tuning);

  // Full-strength search within `limits`. With neither a depth, node nor
  // time limit nor a stop flag it searches to kMaxSearchDepth: set one.
  rules::Result<SearchResult> Search(const rules::Variant& variant, const rules::Position& position,
                                     const GameHistory& history, const SearchLimits& limits,
                                     const InfoCallback& on_info = {});
  rules::Result<SearchResult> Search(const rules::GameRecord& record, const SearchLimits& limits,
                                     const InfoCallback& on_info = {});

  // Opening books Play consults first at the levels that use them
  // (book.h: Medium and Hard); null (the default): none. Read-only, so one
  // shelf may serve any number of engines.
  void SetBooks(std::shared_ptr<const BookShelf> books);
  const BookShelf* books() const { return books_.get(); }

  // A move as a bot of this level plays it (ParamsFor(level, variant)),
  // using `rng` for its deliberate errors and its choice among book moves.
  // `stop` may be null.
  rules::Result<SearchResult> Play(Level level, const rules::Variant& variant,
                                   const rules::Position& position, const GameHistory& history,
                                   std::mt19937_64& rng, std::atomic<bool>* stop = nullptr);
  rules::Result<SearchResult> Play(Level level, const rules::GameRecord& record,
                                   std::mt19937_64& rng, std::atomic<bool>* stop = nullptr);

 private:
  std::unique_ptr<Searcher> searcher_;
  std::shared_ptr<const BookShelf> books_;
  std::shared_ptr<egdb::Registry> endgame_;
  bool classic_eval_ = false;
  std::shared_ptr<const SearchTuning> tuning_;
};

}  // namespace draughts::engine
