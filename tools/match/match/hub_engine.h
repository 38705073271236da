#pragma once

// The GUI side of the Hub protocol for one engine process: the
// initialisation handshake, then one search per move. Every wait has a
// deadline; an engine that misses it, dies or answers nonsense gets an
// error, never a hang.

#include <chrono>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "hub/commands.h"
#include "match/engine_process.h"
#include "rules/result.h"

namespace draughts::match {

struct EngineSpec {
  std::string command;  // run through /bin/sh -c
  // set-param name/value pairs, sent in order before "init".
  std::vector<std::pair<std::string, std::string>> params;
  std::string display_name;  // empty: the name the engine gives in "id"
};

struct ThinkResult {
  std::string move;                      // as the engine wrote it
  std::chrono::milliseconds elapsed{0};  // from "go" to "done"
  std::optional<hub::InfoAnswer> last_info;
};

class HubEngine {
 public:
  static constexpr std::chrono::seconds kHandshakeTimeout{10};
  static constexpr std::chrono::seconds kInitTimeout{60};
  // After "stop", how long an engine may take to produce its "done".
  static constexpr std::chrono::milliseconds kStopGrace{1000};

  // Starts the process and runs hub ... wait, the set-param lines, and
  // init ... ready. `variant` is sent as the "variant" parameter when the
  // engine declares one and `spec` does not set it itself.
  static rules::Result<HubEngine> Start(const EngineSpec& spec, std::string_view variant);

  const std::string& name() const { return name_; }
  const std::vector<hub::ParamAnswer>& declared_params() const { return params_; }

  std::optional<rules::Error> NewGame();

  // Sends pos, level (when `level` has any limit) and "go think", then
  // waits for "done" until `timeout`; past it sends "stop" and allows
  // kStopGrace more. An error if no move comes.
  rules::Result<ThinkResult> Think(const hub::PosCommand& pos, const hub::LevelCommand& level,
                                   std::chrono::milliseconds timeout);

  // Sends "quit" and stops the process.
  void Quit();

 private:
  explicit HubEngine(EngineProcess process) : process_(std::move(process)) {}
  std::optional<rules::Error> Send(const hub::GuiCommand& command);
  // Reads answers until one of type T arrives; other answers are skipped
  // (info lines are kept in `last_info`).
  template <typename T>
  rules::Result<T> WaitFor(std::chrono::steady_clock::time_point deadline,
                           std::optional<hub::InfoAnswer>* last_info = nullptr);

  EngineProcess process_;
  std::string name_;
  std::vector<hub::ParamAnswer> params_;
};

}  // namespace draughts::match
