#include "platform/config.h"

#include <cstdlib>
#include <iostream>
#include <sstream>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "platform/absl_compat.h"

namespace draughts::platform {
namespace {

std::string NormalizeName(std::string_view name) {
  return absl::StrReplaceAll(ToAbsl(name), {{"_", "-"}});
}

absl::string_view TypeName(OptionType type) {
  switch (type) {
    case OptionType::kString:
      return "string";
    case OptionType::kInt:
      return "int";
    case OptionType::kBool:
      return "bool";
    case OptionType::kDuration:
      return "duration";
  }
  return "?";
}

std::optional<bool> ParseBoolText(std::string_view text) {
  std::string lower = absl::AsciiStrToLower(ToAbsl(text));
  if (lower == "1" || lower == "true" || lower == "yes" || lower == "on") return true;
  if (lower == "0" || lower == "false" || lower == "no" || lower == "off") return false;
  return std::nullopt;
}

// Checks that `text` is a valid value of the option's type; the error
// names where the value came from so an operator can find it.
absl::Status Validate(const OptionSpec& option, std::string_view text, std::string_view origin) {
  bool ok = true;
  switch (option.type) {
    case OptionType::kString:
      break;
    case OptionType::kInt: {
      int64_t unused;
      ok = absl::SimpleAtoi(ToAbsl(text), &unused);
      break;
    }
    case OptionType::kBool:
      ok = ParseBoolText(text).has_value();
      break;
    case OptionType::kDuration: {
      absl::Duration unused;
      ok = absl::ParseDuration(ToAbsl(text), &unused);
      break;
    }
  }
  if (ok) return absl::OkStatus();
  return absl::InvalidArgumentError(absl::StrCat("option --", option.name, " (from ",
                                                 ToAbsl(origin), "): \"", ToAbsl(text),
                                                 "\" is not a valid ", TypeName(option.type)));
}

}  // namespace

ConfigSpec::ConfigSpec(std::string program, std::string summary)
    : program_(std::move(program)), summary_(std::move(summary)) {}

ConfigSpec& ConfigSpec::Add(OptionSpec option) {
  option.name = NormalizeName(option.name);
  // Redeclaring replaces: lets a service override a standard option's default.
  for (OptionSpec& existing : options_) {
    if (existing.name == option.name) {
      existing = std::move(option);
      return *this;
    }
  }
  options_.push_back(std::move(option));
  return *this;
}

ConfigSpec& ConfigSpec::AddString(std::string name, std::string env, std::string default_value,
                                  std::string help) {
  return Add({std::move(name), std::move(env), OptionType::kString, std::move(default_value),
              std::move(help)});
}

ConfigSpec& ConfigSpec::AddInt(std::string name, std::string env, int64_t default_value,
                               std::string help) {
  return Add({std::move(name), std::move(env), OptionType::kInt, absl::StrCat(default_value),
              std::move(help)});
}

ConfigSpec& ConfigSpec::AddBool(std::string name, std::string env, bool default_value,
                                std::string help) {
  return Add({std::move(name), std::move(env), OptionType::kBool, default_value ? "true" : "false",
              std::move(help)});
}

ConfigSpec& ConfigSpec::AddDuration(std::string name, std::string env, absl::Duration default_value,
                                    std::string help) {
  return Add({std::move(name), std::move(env), OptionType::kDuration,
              absl::FormatDuration(default_value), std::move(help)});
}

const OptionSpec* ConfigSpec::Find(std::string_view name) const {
  std::string normalized = NormalizeName(name);
  for (const OptionSpec& option : options_) {
    if (option.name == normalized) return &option;
  }
  return nullptr;
}

std::string ConfigSpec::Usage() const {
  std::ostringstream out;
  out << "Usage: " << program_ << " [--option=value ...]\n";
  if (!summary_.empty()) out << summary_ << "\n";
  out << "\nOptions (flag > environment variable > default):\n";
  for (const OptionSpec& option : options_) {
    out << "  --" << option.name << " <" << TypeName(option.type) << ">";
    if (!option.env.empty()) out << "  [env " << option.env << "]";
    out << "  (default \"" << option.default_value << "\")\n      " << option.help << "\n";
  }
  out << "  --help\n      Print this message and exit.\n";
  return out.str();
}

std::optional<std::string> ProcessEnv(const std::string& name) {
  const char* value = std::getenv(name.c_str());
  if (value == nullptr) return std::nullopt;
  return std::string(value);
}

absl::StatusOr<Config::Value const*> Config::Lookup(std::string_view name, OptionType type) const {
  auto it = values_.find(NormalizeName(name));
  if (it == values_.end()) {
    return absl::NotFoundError(absl::StrCat("option --", ToAbsl(name), " was not declared"));
  }
  if (it->second.type != type) {
    return absl::FailedPreconditionError(absl::StrCat("option --", ToAbsl(name), " is a ",
                                                      TypeName(it->second.type), ", not a ",
                                                      TypeName(type)));
  }
  return &it->second;
}

absl::StatusOr<std::string> Config::GetString(std::string_view name) const {
  auto value = Lookup(name, OptionType::kString);
  if (!value.ok()) return value.status();
  return (*value)->text;
}

absl::StatusOr<int64_t> Config::GetInt(std::string_view name) const {
  auto value = Lookup(name, OptionType::kInt);
  if (!value.ok()) return value.status();
  int64_t result = 0;
  (void)absl::SimpleAtoi((*value)->text, &result);  // validated while parsing
  return result;
}

absl::StatusOr<bool> Config::GetBool(std::string_view name) const {
  auto value = Lookup(name, OptionType::kBool);
  if (!value.ok()) return value.status();
  return ParseBoolText((*value)->text).value_or(false);
}

absl::StatusOr<absl::Duration> Config::GetDuration(std::string_view name) const {
  auto value = Lookup(name, OptionType::kDuration);
  if (!value.ok()) return value.status();
  absl::Duration result;
  (void)absl::ParseDuration((*value)->text, &result);
  return result;
}

absl::StatusOr<ValueSource> Config::Source(std::string_view name) const {
  auto it = values_.find(NormalizeName(name));
  if (it == values_.end()) {
    return absl::NotFoundError(absl::StrCat("option --", ToAbsl(name), " was not declared"));
  }
  return it->second.source;
}

absl::StatusOr<Config> ParseConfig(const ConfigSpec& spec, int argc, const char* const* argv,
                                   const ParseOptions& options) {
  Config config;
  // Defaults first, then the environment, then flags: later layers win.
  for (const OptionSpec& option : spec.options()) {
    Config::Value value{option.type, option.default_value, ValueSource::kDefault};
    if (!option.env.empty() && options.env) {
      if (std::optional<std::string> env = options.env(option.env)) {
        absl::Status valid = Validate(option, *env, "environment variable " + option.env);
        if (!valid.ok()) return valid;
        value.text = *env;
        value.source = ValueSource::kEnv;
      }
    }
    config.values_[option.name] = std::move(value);
  }

  for (int i = 1; i < argc; ++i) {
    std::string_view arg = argv[i];
    if (arg == "--help" || arg == "-h" || arg == "-help") {
      std::ostream& out = options.help_out != nullptr ? *options.help_out : std::cout;
      out << spec.Usage();
      config.help_requested_ = true;
      return config;
    }
    if (arg.size() < 3 || arg.substr(0, 2) != "--") {
      return absl::InvalidArgumentError(
          absl::StrCat("unexpected argument \"", ToAbsl(arg),
                       "\"; options look like --name=value (see --help)"));
    }
    std::string_view body = arg.substr(2);
    std::optional<std::string> inline_value;
    if (size_t eq = body.find('='); eq != std::string_view::npos) {
      inline_value = std::string(body.substr(eq + 1));
      body = body.substr(0, eq);
    }
    const OptionSpec* option = spec.Find(body);
    std::string text;
    if (option == nullptr && !inline_value && body.substr(0, 2) == "no") {
      // --noflag for booleans.
      const OptionSpec* negated = spec.Find(body.substr(2));
      if (negated != nullptr && negated->type == OptionType::kBool) {
        option = negated;
        text = "false";
      }
    } else if (option != nullptr) {
      if (inline_value) {
        text = *inline_value;
      } else if (option->type == OptionType::kBool) {
        text = "true";
      } else if (i + 1 < argc) {
        text = argv[++i];
      } else {
        return absl::InvalidArgumentError(
            absl::StrCat("option --", option->name, " needs a value"));
      }
    }
    if (option == nullptr) {
      return absl::InvalidArgumentError(absl::StrCat("unknown flag --", ToAbsl(body),
                                                     " (see --help for the options of ",
                                                     spec.program(), ")"));
    }
    absl::Status valid = Validate(*option, text, "flag --" + option->name);
    if (!valid.ok()) return valid;
    config.values_[option->name] = {option->type, text, ValueSource::kFlag};
  }
  return config;
}

absl::StatusOr<Config> ParseConfig(const ConfigSpec& spec, int argc, const char* const* argv) {
  return ParseConfig(spec, argc, argv, ParseOptions{&ProcessEnv, nullptr});
}

absl::StatusOr<Config> ParseConfig(const ConfigSpec& spec, int argc, char** argv) {
  return ParseConfig(spec, argc, const_cast<const char* const*>(argv));
}

}  // namespace draughts::platform
