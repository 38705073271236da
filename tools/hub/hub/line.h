#pragma once

// One line of the Hub protocol (version 2, as published with Scan 3.x in
// its protocol.txt): a command word followed by arguments
//
//   <command> <name>=<value> <name>="<value with spaces>" <flag> ...
//
// Values may be quoted with double quotes and must be when they are empty
// or contain a space or '='. An argument without "=value" is a flag. The
// protocol defines no escape inside quotes, so a value can never contain a
// double quote: the formatter writes one as a single quote instead.
//
// This layer knows no commands; commands.h gives them meaning.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rules/result.h"

namespace draughts::hub {

struct HubArg {
  std::string name;
  std::optional<std::string> value;  // nullopt for a flag

  friend bool operator==(const HubArg&, const HubArg&) = default;
};

struct HubLine {
  std::string command;  // empty for a blank line
  std::vector<HubArg> args;

  // The first argument with this name, or nullptr.
  const HubArg* Find(std::string_view name) const;
  // Whether the argument is present (flag or with a value).
  bool Has(std::string_view name) const { return Find(name) != nullptr; }
  // The value of the first argument with this name; "" for a flag.
  std::optional<std::string_view> Value(std::string_view name) const;

  // Appends an argument; returns *this so lines can be built in one
  // expression.
  HubLine& Add(std::string name, std::string value);
  HubLine& AddFlag(std::string name);

  friend bool operator==(const HubLine&, const HubLine&) = default;
};

// Splits a line into its command and arguments. Leading and trailing
// whitespace and a trailing '\r' are ignored. Errors (with the offset) for
// an unterminated quote or text glued to a closing quote; never throws.
rules::Result<HubLine> ParseHubLine(std::string_view text);

// The line as text, without a newline; values are quoted when needed.
std::string FormatHubLine(const HubLine& line);

// A value as it would appear after "name=": quoted if it is empty or holds
// whitespace, '=' or a quote (which becomes a single quote).
std::string QuoteHubValue(std::string_view value);

}  // namespace draughts::hub
