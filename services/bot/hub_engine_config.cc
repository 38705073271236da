#include "bot/hub_engine_config.h"

#include <fstream>
#include <set>
#include <sstream>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "hub/commands.h"
#include "hub/line.h"
#include "platform/absl_compat.h"
#include "rules/variant.h"

namespace draughts::bot {
namespace {

constexpr std::size_t kMaxIdLength = 40;
constexpr int kMaxProcesses = 64;

bool ValidId(std::string_view id) {
  if (id.empty() || id.size() > kMaxIdLength || id.starts_with("builtin-")) return false;
  for (char c : id) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '_' || c == '.' || c == '-';
    if (!ok) return false;
  }
  return true;
}

absl::StatusOr<HubEngineConfig> ParseEngineLine(const hub::HubLine& line) {
  if (line.command != "engine") {
    return absl::InvalidArgumentError(
        absl::StrCat("expected a line starting with \"engine\", got \"", line.command, "\""));
  }
  HubEngineConfig config;
  bool variants_given = false;
  for (const hub::HubArg& arg : line.args) {
    if (!arg.value.has_value()) {
      return absl::InvalidArgumentError(
          absl::StrCat(arg.name, " needs a value (", arg.name, "=...)"));
    }
    const std::string& value = *arg.value;
    if (arg.name == "id") {
      if (!ValidId(value)) {
        return absl::InvalidArgumentError(
            absl::StrCat("id \"", value, "\": 1-40 of [A-Za-z0-9_.-], not starting with builtin-"));
      }
      config.id = value;
    } else if (arg.name == "name") {
      config.display_name = value;
    } else if (arg.name == "command") {
      config.command = value;
    } else if (arg.name == "variants") {
      variants_given = true;
      for (const std::string& variant : hub::SplitWords(value)) {
        if (!rules::FindVariant(variant).ok()) {
          return absl::InvalidArgumentError(absl::StrCat("unknown rule set \"", variant, "\""));
        }
        config.variants.push_back(variant);
      }
    } else if (arg.name == "processes") {
      int processes = 0;
      if (!absl::SimpleAtoi(value, &processes) || processes < 1 || processes > kMaxProcesses) {
        return absl::InvalidArgumentError(
            absl::StrCat("processes=", value, ": expected 1-", kMaxProcesses));
      }
      config.processes = processes;
    } else if (arg.name == "move-time") {
      absl::Duration move_time;
      if (!absl::ParseDuration(value, &move_time) || move_time <= absl::ZeroDuration() ||
          move_time > absl::Seconds(60)) {
        return absl::InvalidArgumentError(
            absl::StrCat("move-time=", value, ": expected a duration up to 60s, e.g. 1s"));
      }
      config.move_time = move_time;
    } else if (arg.name.starts_with("param.") && arg.name.size() > 6) {
      config.params.emplace_back(arg.name.substr(6), value);
    } else {
      return absl::InvalidArgumentError(absl::StrCat("unknown key \"", arg.name, "\""));
    }
  }
  if (config.id.empty()) return absl::InvalidArgumentError("missing id=");
  if (config.command.empty()) return absl::InvalidArgumentError("missing command=");
  if (config.display_name.empty()) config.display_name = config.id;
  if (!variants_given) config.variants = {"international"};
  if (config.variants.empty()) return absl::InvalidArgumentError("variants= lists no rule set");
  return config;
}

}  // namespace

absl::StatusOr<std::vector<HubEngineConfig>> ParseHubEngineConfig(std::string_view text) {
  std::vector<HubEngineConfig> engines;
  std::set<std::string> ids;
  int number = 0;
  for (absl::string_view raw : absl::StrSplit(platform::ToAbsl(text), '\n')) {
    ++number;
    const std::string_view trimmed = platform::ToStd(absl::StripAsciiWhitespace(raw));
    if (trimmed.empty() || trimmed.front() == '#') continue;
    rules::Result<hub::HubLine> line = hub::ParseHubLine(trimmed);
    absl::StatusOr<HubEngineConfig> engine =
        line.ok()
            ? ParseEngineLine(*line)
            : absl::StatusOr<HubEngineConfig>(absl::InvalidArgumentError(line.error().ToString()));
    if (!engine.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("engines config line ", number, ": ", engine.status().message()));
    }
    if (!ids.insert(engine->id).second) {
      return absl::InvalidArgumentError(
          absl::StrCat("engines config line ", number, ": id \"", engine->id, "\" is repeated"));
    }
    engines.push_back(*std::move(engine));
  }
  return engines;
}

absl::StatusOr<std::vector<HubEngineConfig>> LoadHubEngineConfig(const std::string& path) {
  std::ifstream in(path);
  if (!in) return absl::NotFoundError(absl::StrCat("cannot read the engines config ", path));
  std::ostringstream text;
  text << in.rdbuf();
  absl::StatusOr<std::vector<HubEngineConfig>> engines = ParseHubEngineConfig(text.str());
  if (!engines.ok()) {
    return absl::InvalidArgumentError(absl::StrCat(path, ": ", engines.status().message()));
  }
  return engines;
}

}  // namespace draughts::bot
