#pragma once

// The messages of Hub protocol version 2 as typed values, both directions:
// what a GUI (or our match runner) sends to an engine, and what the engine
// answers. Parsing is lenient the way the protocol asks: unknown commands
// become UnknownCommand, unknown arguments are ignored, and only a known
// argument with a value that cannot be read (depth=abc) is an error.
//
// Positions and moves stay text here; hub/position_text.h and
// hub/move_text.h read them once the rule set is known.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "hub/line.h"
#include "rules/result.h"

namespace draughts::hub {

// ---- GUI -> engine ----

struct HubCommand {  // "hub": start of the initialisation
  friend bool operator==(const HubCommand&, const HubCommand&) = default;
};
struct SetParamCommand {
  std::string name;
  std::string value;
  friend bool operator==(const SetParamCommand&, const SetParamCommand&) = default;
};
struct InitCommand {
  friend bool operator==(const InitCommand&, const InitCommand&) = default;
};
struct NewGameCommand {
  friend bool operator==(const NewGameCommand&, const NewGameCommand&) = default;
};
// The search starts from `position` (nullopt, or the `start` flag: the
// rule set's initial position) after playing `moves` from it.
struct PosCommand {
  std::optional<std::string> position = std::nullopt;
  std::vector<std::string> moves = {};
  friend bool operator==(const PosCommand&, const PosCommand&) = default;
};
// One of: depth=N, move-time=S, [moves=N] time=S [inc=S], infinite
// (times in seconds). Several may be combined; the engine stops at the
// first limit reached.
struct LevelCommand {
  std::optional<int> depth = std::nullopt;
  std::optional<std::int64_t> nodes = std::nullopt;
  std::optional<double> move_time = std::nullopt;
  std::optional<int> moves = std::nullopt;  // moves left until the next time control
  std::optional<double> time = std::nullopt;
  std::optional<double> increment = std::nullopt;
  bool infinite = false;
  friend bool operator==(const LevelCommand&, const LevelCommand&) = default;
};
enum class GoMode : std::uint8_t { kThink, kPonder, kAnalyze };
struct GoCommand {
  GoMode mode = GoMode::kThink;
  friend bool operator==(const GoCommand&, const GoCommand&) = default;
};
struct PonderHitCommand {
  friend bool operator==(const PonderHitCommand&, const PonderHitCommand&) = default;
};
struct StopCommand {
  friend bool operator==(const StopCommand&, const StopCommand&) = default;
};
struct PingCommand {
  friend bool operator==(const PingCommand&, const PingCommand&) = default;
};
struct QuitCommand {
  friend bool operator==(const QuitCommand&, const QuitCommand&) = default;
};
// Anything else, blank lines included (command is then empty).
struct UnknownCommand {
  std::string command;
  friend bool operator==(const UnknownCommand&, const UnknownCommand&) = default;
};

using GuiCommand = std::variant<HubCommand, SetParamCommand, InitCommand, NewGameCommand,
                                PosCommand, LevelCommand, GoCommand, PonderHitCommand, StopCommand,
                                PingCommand, QuitCommand, UnknownCommand>;

rules::Result<GuiCommand> ParseGuiCommand(const HubLine& line);
rules::Result<GuiCommand> ParseGuiCommand(std::string_view text);
HubLine ToHubLine(const GuiCommand& command);
std::string FormatGuiCommand(const GuiCommand& command);

// ---- engine -> GUI ----

struct IdAnswer {
  std::string name;
  std::string version;
  std::string author;
  std::string country;
  friend bool operator==(const IdAnswer&, const IdAnswer&) = default;
};
// type is bool, int, real, string or enum; min/max for int and real,
// values for enum.
struct ParamAnswer {
  std::string name;
  std::string value;
  std::string type;
  std::optional<std::string> min = std::nullopt;
  std::optional<std::string> max = std::nullopt;
  std::vector<std::string> values = {};
  friend bool operator==(const ParamAnswer&, const ParamAnswer&) = default;
};
struct WaitAnswer {
  friend bool operator==(const WaitAnswer&, const WaitAnswer&) = default;
};
struct ReadyAnswer {
  friend bool operator==(const ReadyAnswer&, const ReadyAnswer&) = default;
};
// Progress of a search; every field is optional in the protocol.
struct InfoAnswer {
  std::optional<int> depth = std::nullopt;
  std::optional<double> mean_depth = std::nullopt;
  std::optional<double> score = std::nullopt;  // in men, from the side to move
  std::optional<std::int64_t> nodes = std::nullopt;
  std::optional<double> time = std::nullopt;  // seconds
  std::optional<double> nps = std::nullopt;   // millions of nodes per second, as Scan writes it
  std::vector<std::string> pv = {};
  friend bool operator==(const InfoAnswer&, const InfoAnswer&) = default;
};
struct DoneAnswer {
  std::optional<std::string> move = std::nullopt;
  std::optional<std::string> ponder = std::nullopt;
  friend bool operator==(const DoneAnswer&, const DoneAnswer&) = default;
};
struct PongAnswer {
  friend bool operator==(const PongAnswer&, const PongAnswer&) = default;
};
struct ErrorAnswer {
  std::string message;
  friend bool operator==(const ErrorAnswer&, const ErrorAnswer&) = default;
};
struct UnknownAnswer {
  std::string command;
  friend bool operator==(const UnknownAnswer&, const UnknownAnswer&) = default;
};

using EngineAnswer = std::variant<IdAnswer, ParamAnswer, WaitAnswer, ReadyAnswer, InfoAnswer,
                                  DoneAnswer, PongAnswer, ErrorAnswer, UnknownAnswer>;

rules::Result<EngineAnswer> ParseEngineAnswer(const HubLine& line);
rules::Result<EngineAnswer> ParseEngineAnswer(std::string_view text);
HubLine ToHubLine(const EngineAnswer& answer);
std::string FormatEngineAnswer(const EngineAnswer& answer);

// Numbers as the protocol writes them: the shortest text that reads back
// to the same double ("1.5", "2", "0.001").
std::string FormatHubNumber(double value);

// Space-separated words of a value such as moves="32-28 18-23".
std::vector<std::string> SplitWords(std::string_view text);
std::string JoinWords(const std::vector<std::string>& words);

}  // namespace draughts::hub
