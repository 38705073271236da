// Declarative service configuration: every option has a flag name, an
// environment variable, a default and a help line. Precedence is
// flag > environment > default, so the same binary runs from a shell
// (flags) and from a Kubernetes manifest (env).
//
//   ConfigSpec spec("rating", "Elo ratings and leaderboards.");
//   AddStandardServiceOptions(spec, 50055);
//   spec.AddString("pg", "RATING_PG", "dbname=draughts", "libpq connection string");
//   DRAUGHTS_ASSIGN_OR_RETURN(Config config, ParseConfig(spec, argc, argv));
//   if (config.help_requested()) return 0;   // usage was printed
//
// Values are validated while parsing (an int option holding "abc" is an
// error naming the flag and the env var), so getters cannot fail on a value.
#ifndef DRAUGHTS_PLATFORM_CONFIG_H_
#define DRAUGHTS_PLATFORM_CONFIG_H_

#include <cstdint>
#include <functional>
#include <iosfwd>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"

namespace draughts::platform {

enum class OptionType { kString, kInt, kBool, kDuration };

struct OptionSpec {
  std::string name;  // flag name without dashes, e.g. "metrics-port"
  std::string env;   // environment variable, may be empty (flag only)
  OptionType type = OptionType::kString;
  std::string default_value;  // textual, parsed like flag values
  std::string help;
};

class ConfigSpec {
 public:
  explicit ConfigSpec(std::string program, std::string summary = "");

  ConfigSpec& AddString(std::string name, std::string env, std::string default_value,
                        std::string help);
  ConfigSpec& AddInt(std::string name, std::string env, int64_t default_value, std::string help);
  ConfigSpec& AddBool(std::string name, std::string env, bool default_value, std::string help);
  // Durations use Abseil syntax: "500ms", "5s", "1m30s".
  ConfigSpec& AddDuration(std::string name, std::string env, absl::Duration default_value,
                          std::string help);

  const std::string& program() const { return program_; }
  const std::vector<OptionSpec>& options() const { return options_; }
  const OptionSpec* Find(std::string_view name) const;
  std::string Usage() const;

 private:
  ConfigSpec& Add(OptionSpec option);

  std::string program_;
  std::string summary_;
  std::vector<OptionSpec> options_;
};

struct ParseOptions {
  // Returns the value of an environment variable, or nullopt when unset.
  std::function<std::optional<std::string>(const std::string&)> env;
  // Where --help writes the usage text; nullptr means stdout.
  std::ostream* help_out = nullptr;
};

enum class ValueSource { kDefault, kEnv, kFlag };

class Config {
 public:
  bool help_requested() const { return help_requested_; }

  // Getters for declared options. Asking for an undeclared name or with the
  // wrong type is a programming error reported as a status, never a crash.
  absl::StatusOr<std::string> GetString(std::string_view name) const;
  absl::StatusOr<int64_t> GetInt(std::string_view name) const;
  absl::StatusOr<bool> GetBool(std::string_view name) const;
  absl::StatusOr<absl::Duration> GetDuration(std::string_view name) const;
  absl::StatusOr<ValueSource> Source(std::string_view name) const;

 private:
  friend absl::StatusOr<Config> ParseConfig(const ConfigSpec&, int, const char* const*,
                                            const ParseOptions&);
  struct Value {
    OptionType type;
    std::string text;
    ValueSource source;
  };
  absl::StatusOr<const Value*> Lookup(std::string_view name, OptionType type) const;

  bool help_requested_ = false;
  std::map<std::string, Value, std::less<>> values_;
};

// Reads the process environment.
std::optional<std::string> ProcessEnv(const std::string& name);

// Accepts --name=value, --name value, and for booleans --name / --noname.
// Dashes and underscores in names are interchangeable. "--help" / "-h"
// prints the usage and returns a Config with help_requested() set.
absl::StatusOr<Config> ParseConfig(const ConfigSpec& spec, int argc, const char* const* argv,
                                   const ParseOptions& options);
absl::StatusOr<Config> ParseConfig(const ConfigSpec& spec, int argc, const char* const* argv);
absl::StatusOr<Config> ParseConfig(const ConfigSpec& spec, int argc, char** argv);

}  // namespace draughts::platform

#endif  // DRAUGHTS_PLATFORM_CONFIG_H_
