#include "hub/line.h"

#include <cstddef>

namespace draughts::hub {
namespace {

bool IsSpace(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f';
}

bool NeedsQuotes(std::string_view value) {
  if (value.empty()) return true;
  for (char c : value) {
    if (IsSpace(c) || c == '=' || c == '"') return true;
  }
  return false;
}

}  // namespace

const HubArg* HubLine::Find(std::string_view name) const {
  for (const HubArg& arg : args) {
    if (arg.name == name) return &arg;
  }
  return nullptr;
}

std::optional<std::string_view> HubLine::Value(std::string_view name) const {
  const HubArg* arg = Find(name);
  if (arg == nullptr) return std::nullopt;
  if (!arg->value) return std::string_view();
  return std::string_view(*arg->value);
}

HubLine& HubLine::Add(std::string name, std::string value) {
  args.push_back(HubArg{std::move(name), std::move(value)});
  return *this;
}

HubLine& HubLine::AddFlag(std::string name) {
  args.push_back(HubArg{std::move(name), std::nullopt});
  return *this;
}

rules::Result<HubLine> ParseHubLine(std::string_view text) {
  HubLine line;
  std::size_t i = 0;
  const std::size_t n = text.size();
  auto skip_spaces = [&] {
    while (i < n && IsSpace(text[i])) ++i;
  };

  skip_spaces();
  const std::size_t command_start = i;
  while (i < n && !IsSpace(text[i])) ++i;
  line.command = std::string(text.substr(command_start, i - command_start));

  while (true) {
    skip_spaces();
    if (i >= n) break;
    // A name runs to whitespace or '='; "=value" is optional.
    const std::size_t name_start = i;
    while (i < n && !IsSpace(text[i]) && text[i] != '=') ++i;
    HubArg arg{std::string(text.substr(name_start, i - name_start)), std::nullopt};
    if (arg.name.empty()) return rules::MakeError("argument without a name", name_start);
    if (i < n && text[i] == '=') {
      ++i;
      if (i < n && text[i] == '"') {
        const std::size_t quote = i;
        const std::size_t close = text.find('"', quote + 1);
        if (close == std::string_view::npos) return rules::MakeError("unterminated quote", quote);
        arg.value = std::string(text.substr(quote + 1, close - quote - 1));
        i = close + 1;
        if (i < n && !IsSpace(text[i])) {
          return rules::MakeError("expected a space after the closing quote", i);
        }
      } else {
        const std::size_t value_start = i;
        while (i < n && !IsSpace(text[i])) ++i;
        arg.value = std::string(text.substr(value_start, i - value_start));
      }
    }
    line.args.push_back(std::move(arg));
  }
  return line;
}

std::string QuoteHubValue(std::string_view value) {
  if (!NeedsQuotes(value)) return std::string(value);
  std::string out = "\"";
  for (char c : value) {
    // A line break would end the protocol line early.
    if (c == '\n' || c == '\r') c = ' ';
    out += c == '"' ? '\'' : c;
  }
  out += '"';
  return out;
}

std::string FormatHubLine(const HubLine& line) {
  std::string out = line.command;
  for (const HubArg& arg : line.args) {
    out += ' ';
    out += arg.name;
    if (arg.value) {
      out += '=';
      out += QuoteHubValue(*arg.value);
    }
  }
  return out;
}

}  // namespace draughts::hub
