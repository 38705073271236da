#include "hub/commands.h"

#include <charconv>
#include <cmath>
#include <limits>
#include <system_error>
#include <type_traits>

namespace draughts::hub {
namespace {

template <typename... Ts>
struct Overloaded : Ts... {
  using Ts::operator()...;
};
template <typename... Ts>
Overloaded(Ts...) -> Overloaded<Ts...>;

rules::Error BadValue(std::string_view command, std::string_view name, std::string_view value,
                      std::string_view expected) {
  return rules::MakeError(std::string(command) + ": " + std::string(name) + "=" +
                          std::string(value) + " is not " + std::string(expected));
}

// Reads the whole of `text` as an integer in [min, max].
template <typename Int>
std::optional<Int> ReadInt(std::string_view text, Int min, Int max) {
  Int value{};
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (ec != std::errc() || ptr != end || value < min || value > max) return std::nullopt;
  return value;
}

// Reads the whole of `text` as a finite, non-negative real.
std::optional<double> ReadSeconds(std::string_view text) {
  double value = 0;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (ec != std::errc() || ptr != end || !std::isfinite(value) || value < 0) return std::nullopt;
  return value;
}

std::optional<double> ReadReal(std::string_view text) {
  double value = 0;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (ec != std::errc() || ptr != end || !std::isfinite(value)) return std::nullopt;
  return value;
}

// Helpers that read one optional argument of `line` into `out`; they return
// an error only when the argument is there and unreadable.
template <typename Int>
std::optional<rules::Error> ReadIntArg(const HubLine& line, std::string_view name, Int min,
                                       std::optional<Int>& out) {
  const auto text = line.Value(name);
  if (!text) return std::nullopt;
  out = ReadInt<Int>(*text, min, std::numeric_limits<Int>::max());
  if (!out) {
    return BadValue(line.command, name, *text,
                    min == 0 ? "a non-negative integer" : "an integer in range");
  }
  return std::nullopt;
}

std::optional<rules::Error> ReadSecondsArg(const HubLine& line, std::string_view name,
                                           std::optional<double>& out) {
  const auto text = line.Value(name);
  if (!text) return std::nullopt;
  out = ReadSeconds(*text);
  if (!out) return BadValue(line.command, name, *text, "a non-negative number of seconds");
  return std::nullopt;
}

std::optional<rules::Error> ReadRealArg(const HubLine& line, std::string_view name,
                                        std::optional<double>& out) {
  const auto text = line.Value(name);
  if (!text) return std::nullopt;
  out = ReadReal(*text);
  if (!out) return BadValue(line.command, name, *text, "a number");
  return std::nullopt;
}

std::string ValueOr(const HubLine& line, std::string_view name) {
  return std::string(line.Value(name).value_or(std::string_view()));
}

std::optional<std::string> OptionalValue(const HubLine& line, std::string_view name) {
  const auto value = line.Value(name);
  if (!value) return std::nullopt;
  return std::string(*value);
}

rules::Result<GuiCommand> ParseLevel(const HubLine& line) {
  LevelCommand level;
  if (auto e = ReadIntArg<int>(line, "depth", 0, level.depth)) return *e;
  if (auto e = ReadIntArg<std::int64_t>(line, "nodes", 0, level.nodes)) return *e;
  if (auto e = ReadSecondsArg(line, "move-time", level.move_time)) return *e;
  if (auto e = ReadIntArg<int>(line, "moves", 0, level.moves)) return *e;
  if (auto e = ReadSecondsArg(line, "time", level.time)) return *e;
  if (auto e = ReadSecondsArg(line, "inc", level.increment)) return *e;
  level.infinite = line.Has("infinite");
  return GuiCommand(level);
}

rules::Result<EngineAnswer> ParseInfo(const HubLine& line) {
  InfoAnswer info;
  if (auto e = ReadIntArg<int>(line, "depth", std::numeric_limits<int>::min(), info.depth)) {
    return *e;
  }
  if (auto e = ReadRealArg(line, "mean-depth", info.mean_depth)) return *e;
  if (auto e = ReadRealArg(line, "score", info.score)) return *e;
  if (auto e = ReadIntArg<std::int64_t>(line, "nodes", 0, info.nodes)) return *e;
  if (auto e = ReadSecondsArg(line, "time", info.time)) return *e;
  if (auto e = ReadRealArg(line, "nps", info.nps)) return *e;
  if (auto pv = line.Value("pv")) info.pv = SplitWords(*pv);
  return EngineAnswer(info);
}

}  // namespace

std::string FormatHubNumber(double value) {
  char buffer[64];
  auto [ptr, ec] = std::to_chars(buffer, buffer + sizeof buffer, value);
  if (ec != std::errc()) return "0";
  return std::string(buffer, ptr);
}

std::vector<std::string> SplitWords(std::string_view text) {
  std::vector<std::string> words;
  std::size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && (text[i] == ' ' || text[i] == '\t')) ++i;
    const std::size_t start = i;
    while (i < text.size() && text[i] != ' ' && text[i] != '\t') ++i;
    if (i > start) words.emplace_back(text.substr(start, i - start));
  }
  return words;
}

std::string JoinWords(const std::vector<std::string>& words) {
  std::string out;
  for (const std::string& word : words) {
    if (!out.empty()) out += ' ';
    out += word;
  }
  return out;
}

rules::Result<GuiCommand> ParseGuiCommand(const HubLine& line) {
  const std::string& c = line.command;
  if (c == "hub") return GuiCommand(HubCommand{});
  if (c == "set-param") {
    if (!line.Value("name") || line.Value("name")->empty()) {
      return rules::MakeError("set-param: missing name");
    }
    return GuiCommand(SetParamCommand{ValueOr(line, "name"), ValueOr(line, "value")});
  }
  if (c == "init") return GuiCommand(InitCommand{});
  if (c == "new-game") return GuiCommand(NewGameCommand{});
  if (c == "pos") {
    PosCommand pos;
    pos.position = OptionalValue(line, "pos");
    if (pos.position && pos.position->empty()) pos.position.reset();
    if (auto moves = line.Value("moves")) pos.moves = SplitWords(*moves);
    return GuiCommand(pos);
  }
  if (c == "level") return ParseLevel(line);
  if (c == "go") {
    GoCommand go;
    if (line.Has("ponder")) go.mode = GoMode::kPonder;
    if (line.Has("analyze") || line.Has("analyse")) go.mode = GoMode::kAnalyze;
    return GuiCommand(go);
  }
  if (c == "ponder-hit") return GuiCommand(PonderHitCommand{});
  if (c == "stop") return GuiCommand(StopCommand{});
  if (c == "ping") return GuiCommand(PingCommand{});
  if (c == "quit") return GuiCommand(QuitCommand{});
  return GuiCommand(UnknownCommand{c});
}

rules::Result<GuiCommand> ParseGuiCommand(std::string_view text) {
  auto line = ParseHubLine(text);
  if (!line.ok()) return line.error();
  return ParseGuiCommand(*line);
}

HubLine ToHubLine(const GuiCommand& command) {
  return std::visit(Overloaded{
                        [](const HubCommand&) {
                          return HubLine{"hub", {}};
                        },
                        [](const SetParamCommand& c) {
                          return HubLine{"set-param", {}}.Add("name", c.name).Add("value", c.value);
                        },
                        [](const InitCommand&) {
                          return HubLine{"init", {}};
                        },
                        [](const NewGameCommand&) {
                          return HubLine{"new-game", {}};
                        },
                        [](const PosCommand& c) {
                          HubLine line{"pos", {}};
                          if (c.position) {
                            line.Add("pos", *c.position);
                          } else {
                            line.AddFlag("start");
                          }
                          if (!c.moves.empty()) line.Add("moves", JoinWords(c.moves));
                          return line;
                        },
                        [](const LevelCommand& c) {
                          HubLine line{"level", {}};
                          if (c.depth) line.Add("depth", std::to_string(*c.depth));
                          if (c.nodes) line.Add("nodes", std::to_string(*c.nodes));
                          if (c.move_time) line.Add("move-time", FormatHubNumber(*c.move_time));
                          if (c.moves) line.Add("moves", std::to_string(*c.moves));
                          if (c.time) line.Add("time", FormatHubNumber(*c.time));
                          if (c.increment) line.Add("inc", FormatHubNumber(*c.increment));
                          if (c.infinite) line.AddFlag("infinite");
                          return line;
                        },
                        [](const GoCommand& c) {
                          HubLine line{"go", {}};
                          switch (c.mode) {
                            case GoMode::kThink:
                              line.AddFlag("think");
                              break;
                            case GoMode::kPonder:
                              line.AddFlag("ponder");
                              break;
                            case GoMode::kAnalyze:
                              line.AddFlag("analyze");
                              break;
                          }
                          return line;
                        },
                        [](const PonderHitCommand&) {
                          return HubLine{"ponder-hit", {}};
                        },
                        [](const StopCommand&) {
                          return HubLine{"stop", {}};
                        },
                        [](const PingCommand&) {
                          return HubLine{"ping", {}};
                        },
                        [](const QuitCommand&) {
                          return HubLine{"quit", {}};
                        },
                        [](const UnknownCommand& c) {
                          return HubLine{c.command, {}};
                        },
                    },
                    command);
}

std::string FormatGuiCommand(const GuiCommand& command) {
  return FormatHubLine(ToHubLine(command));
}

rules::Result<EngineAnswer> ParseEngineAnswer(const HubLine& line) {
  const std::string& c = line.command;
  if (c == "id") {
    return EngineAnswer(IdAnswer{ValueOr(line, "name"), ValueOr(line, "version"),
                                 ValueOr(line, "author"), ValueOr(line, "country")});
  }
  if (c == "param") {
    ParamAnswer param{ValueOr(line, "name"),      ValueOr(line, "value"),     ValueOr(line, "type"),
                      OptionalValue(line, "min"), OptionalValue(line, "max"), {}};
    if (auto values = line.Value("values")) param.values = SplitWords(*values);
    return EngineAnswer(param);
  }
  if (c == "wait") return EngineAnswer(WaitAnswer{});
  if (c == "ready") return EngineAnswer(ReadyAnswer{});
  if (c == "info") return ParseInfo(line);
  if (c == "done") {
    DoneAnswer done{OptionalValue(line, "move"), OptionalValue(line, "ponder")};
    if (done.move && done.move->empty()) done.move.reset();
    if (done.ponder && done.ponder->empty()) done.ponder.reset();
    return EngineAnswer(done);
  }
  if (c == "pong") return EngineAnswer(PongAnswer{});
  if (c == "error") return EngineAnswer(ErrorAnswer{ValueOr(line, "message")});
  return EngineAnswer(UnknownAnswer{c});
}

rules::Result<EngineAnswer> ParseEngineAnswer(std::string_view text) {
  auto line = ParseHubLine(text);
  if (!line.ok()) return line.error();
  return ParseEngineAnswer(*line);
}

HubLine ToHubLine(const EngineAnswer& answer) {
  return std::visit(Overloaded{
                        [](const IdAnswer& a) {
                          return HubLine{"id", {}}
                              .Add("name", a.name)
                              .Add("version", a.version)
                              .Add("author", a.author)
                              .Add("country", a.country);
                        },
                        [](const ParamAnswer& a) {
                          HubLine line{"param", {}};
                          line.Add("name", a.name).Add("value", a.value).Add("type", a.type);
                          if (a.min) line.Add("min", *a.min);
                          if (a.max) line.Add("max", *a.max);
                          if (!a.values.empty()) line.Add("values", JoinWords(a.values));
                          return line;
                        },
                        [](const WaitAnswer&) {
                          return HubLine{"wait", {}};
                        },
                        [](const ReadyAnswer&) {
                          return HubLine{"ready", {}};
                        },
                        [](const InfoAnswer& a) {
                          HubLine line{"info", {}};
                          if (a.depth) line.Add("depth", std::to_string(*a.depth));
                          if (a.mean_depth) line.Add("mean-depth", FormatHubNumber(*a.mean_depth));
                          if (a.score) line.Add("score", FormatHubNumber(*a.score));
                          if (a.nodes) line.Add("nodes", std::to_string(*a.nodes));
                          if (a.time) line.Add("time", FormatHubNumber(*a.time));
                          if (a.nps) line.Add("nps", FormatHubNumber(*a.nps));
                          if (!a.pv.empty()) line.Add("pv", JoinWords(a.pv));
                          return line;
                        },
                        [](const DoneAnswer& a) {
                          HubLine line{"done", {}};
                          if (a.move) line.Add("move", *a.move);
                          if (a.ponder) line.Add("ponder", *a.ponder);
                          return line;
                        },
                        [](const PongAnswer&) {
                          return HubLine{"pong", {}};
                        },
                        [](const ErrorAnswer& a) {
                          return HubLine{"error", {}}.Add("message", a.message);
                        },
                        [](const UnknownAnswer& a) {
                          return HubLine{a.command, {}};
                        },
                    },
                    answer);
}

std::string FormatEngineAnswer(const EngineAnswer& answer) {
  return FormatHubLine(ToHubLine(answer));
}

}  // namespace draughts::hub
