#pragma once

// The engine side of the Hub protocol: one session per GUI connection. It
// reads command lines one at a time and writes answer lines through the
// writer it was given, from its own thread for commands and from a search
// thread for "info" and "done", so "ping" and "stop" are answered while a
// search runs. Writes never interleave.
//
// Besides the usual initialisation, the session declares these parameters:
//   variant  every rule set of the rules library (default international)
//   level    easy | medium | hard: the platform bot's strength (default hard)
//   tt-size  transposition table in MB
//   seed     random seed for the level's deliberate errors (0 = random)
//   book     opening books the level plays from (Medium, Hard): a *.book
//            file or a directory of them; empty (the default): none, so a
//            match measures search and evaluation alone unless asked
//   eval     pattern (learned weights, where the rule set has them) | classic
//   search   the search's knobs as name=value pairs (search_knobs.h), for
//            matches comparing two settings; empty (the default): as shipped
//
// A search uses the level's own settings (engine::Engine::Play), capped by
// the GUI's "level move-time=" or clock when given. A depth or node limit,
// "level infinite" or "go analyze" asks for an exact search instead (the
// level's deliberate errors are off), with the GUI's limits.
//
// Bad input (unreadable values, illegal moves, a position for another
// board) gets an "error message=..." line and changes nothing; unknown
// commands and arguments are ignored.

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <thread>

#include "engine/book.h"
#include "engine/engine.h"
#include "engine/level.h"
#include "engine/searcher.h"
#include "hub/commands.h"
#include "rules/game.h"
#include "rules/variant.h"

namespace draughts::hub {

class EngineSession {
 public:
  using Writer = std::function<void(std::string_view line)>;

  explicit EngineSession(Writer writer);
  // Stops and waits for a running search.
  ~EngineSession();
  EngineSession(const EngineSession&) = delete;
  EngineSession& operator=(const EngineSession&) = delete;

  // Handles one input line (without its newline). Returns false once the
  // session has quit.
  bool HandleLine(std::string_view line);

  // Stops a running search and waits for its "done" line; no-op when idle.
  void StopSearch();
  bool searching() const { return searching_.load(); }

 private:
  void Write(const EngineAnswer& answer);
  void WriteError(std::string message);

  void OnHub();
  void OnSetParam(const SetParamCommand& command);
  void OnInit();
  void OnNewGame();
  void OnPos(const PosCommand& command);
  void OnGo(const GoCommand& command);
  void EnsureEngine();

  // Runs on the search thread.
  void RunSearch(rules::GameRecord record, LevelCommand level, GoMode mode);
  void WriteInfo(const engine::SearchInfo& info);

  Writer writer_;
  std::mutex write_mutex_;

  rules::Variant variant_;
  engine::Level level_ = engine::Level::kHard;
  std::size_t tt_megabytes_ = engine::Engine::kDefaultTableMegabytes;
  std::uint64_t seed_ = 0;
  bool classic_eval_ = false;
  std::string search_knobs_;
  engine::SearchTuning tuning_;

  std::string book_path_;
  std::shared_ptr<const engine::BookShelf> books_;
  std::unique_ptr<engine::Engine> engine_;
  std::mt19937_64 rng_;
  std::optional<rules::GameRecord> record_;  // nullopt: the initial position
  LevelCommand level_command_;

  std::thread search_thread_;
  std::atomic<bool> searching_{false};
  std::atomic<bool> stop_{false};
  bool quit_ = false;
};

}  // namespace draughts::hub
