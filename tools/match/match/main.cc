// match: plays two Hub protocol engines against each other.
//
//   match --engine1=CMD --engine2=CMD [--variant=international]
//         [--option1=NAME=VALUE]... [--option2=NAME=VALUE]... [--option=NAME=VALUE]...
//         [--name1=NAME] [--name2=NAME] [--openings=FILE] [--openings-count=20]
//         [--move-time=SECONDS] [--timeout=SECONDS] [--max-plies=600]
//         [--pdn=FILE] [--event=TEXT] [--quiet]
//
// Each engine command runs through /bin/sh -c. --option1/--option2 send
// "set-param name=NAME value=VALUE" to one engine, --option to both (e.g.
// --option1=level=hard). The variant is sent as the "variant" parameter to
// engines that declare one. Every opening (built-in, or one per line of
// FILE: a FEN or moves from the start) is played twice, colours swapped;
// built-in: the hand-picked lines, then three-ply ones (openings.h).
// --move-time sends "level move-time=S" before every move; a move slower
// than --timeout (default: twice the move time plus a second, or 30 s)
// loses. Prints one line per game, then the score from engine 1's side,
// the Elo difference with its 95% margin and each engine's time per move.
// Exit status: 0 after a match, 2 on bad arguments, 1 when an engine
// cannot be started.

#include <signal.h>

#include <charconv>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>

#include "match/match_runner.h"
#include "match/openings.h"
#include "rules/variant.h"

namespace {

using namespace draughts;

constexpr const char* kUsage =
    "usage: match --engine1=CMD --engine2=CMD [--variant=ID] [--option1=NAME=VALUE]...\n"
    "             [--option2=NAME=VALUE]... [--option=NAME=VALUE]... [--name1=NAME]\n"
    "             [--name2=NAME] [--openings=FILE] [--openings-count=N] [--move-time=S]\n"
    "             [--timeout=S] [--max-plies=N] [--pdn=FILE] [--event=TEXT] [--quiet]\n";

int Usage(const std::string& problem) {
  std::fprintf(stderr, "match: %s\n%s", problem.c_str(), kUsage);
  return 2;
}

bool ReadSeconds(std::string_view text, double& out) {
  double value = 0;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (ec != std::errc() || ptr != end || !std::isfinite(value) || value < 0 || value > 1e6) {
    return false;
  }
  out = value;
  return true;
}

bool ReadCount(std::string_view text, int max, int& out) {
  int value = 0;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (ec != std::errc() || ptr != end || value < 1 || value > max) return false;
  out = value;
  return true;
}

bool ReadParam(std::string_view text, std::pair<std::string, std::string>& out) {
  const auto eq = text.find('=');
  if (eq == std::string_view::npos || eq == 0) return false;
  out = {std::string(text.substr(0, eq)), std::string(text.substr(eq + 1))};
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  // A dead engine must show up as a write error, not kill the match.
  signal(SIGPIPE, SIG_IGN);

  match::MatchOptions options;
  std::string variant_id = "international";
  std::string openings_file;
  int openings_count = 20;
  double move_time = -1;
  double timeout = -1;
  bool quiet = false;
  std::vector<std::pair<std::string, std::string>> shared_params;

  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    const auto eq = arg.find('=');
    const std::string_view flag = arg.substr(0, eq);
    const std::string_view value = eq == std::string_view::npos ? "" : arg.substr(eq + 1);
    const bool has_value = eq != std::string_view::npos;
    std::pair<std::string, std::string> param;
    if (flag == "--quiet" && !has_value) {
      quiet = true;
    } else if (!has_value) {
      return Usage("unknown or incomplete argument '" + std::string(arg) + "'");
    } else if (flag == "--engine1" || flag == "--engine2") {
      options.engines[flag.back() - '1'].command = std::string(value);
    } else if (flag == "--name1" || flag == "--name2") {
      options.engines[flag.back() - '1'].display_name = std::string(value);
    } else if (flag == "--option1" || flag == "--option2") {
      if (!ReadParam(value, param)) return Usage("expected NAME=VALUE in " + std::string(arg));
      options.engines[flag.back() - '1'].params.push_back(param);
    } else if (flag == "--option") {
      if (!ReadParam(value, param)) return Usage("expected NAME=VALUE in " + std::string(arg));
      shared_params.push_back(param);
    } else if (flag == "--variant") {
      variant_id = std::string(value);
    } else if (flag == "--openings") {
      openings_file = std::string(value);
    } else if (flag == "--openings-count") {
      if (!ReadCount(value, 10000, openings_count)) return Usage("bad --openings-count");
    } else if (flag == "--move-time") {
      if (!ReadSeconds(value, move_time)) return Usage("bad --move-time");
    } else if (flag == "--timeout") {
      if (!ReadSeconds(value, timeout) || timeout == 0) return Usage("bad --timeout");
    } else if (flag == "--max-plies") {
      if (!ReadCount(value, 100000, options.game.max_plies)) return Usage("bad --max-plies");
    } else if (flag == "--pdn") {
      options.pdn_path = std::string(value);
    } else if (flag == "--event") {
      options.event = std::string(value);
    } else {
      return Usage("unknown argument '" + std::string(arg) + "'");
    }
  }
  for (auto& engine : options.engines) {
    if (engine.command.empty()) return Usage("both --engine1 and --engine2 are required");
    engine.params.insert(engine.params.begin(), shared_params.begin(), shared_params.end());
  }

  auto variant = rules::FindVariant(variant_id);
  if (!variant.ok()) return Usage(variant.error().message);
  options.variant = *variant;

  if (openings_file.empty()) {
    auto openings = match::BuiltInOpenings(options.variant, openings_count);
    if (!openings.ok()) return Usage(openings.error().message);
    options.openings = std::move(*openings);
  } else {
    std::ifstream in(openings_file);
    if (!in) return Usage("cannot read " + openings_file);
    std::stringstream text;
    text << in.rdbuf();
    auto openings = match::ParseOpenings(options.variant, text.str());
    if (!openings.ok()) return Usage(openings_file + ": " + openings.error().message);
    options.openings = std::move(*openings);
    if (static_cast<int>(options.openings.size()) > openings_count) {
      options.openings.resize(static_cast<std::size_t>(openings_count));
    }
  }

  if (move_time >= 0) options.game.level.move_time = move_time;
  if (timeout > 0) {
    options.game.timeout = std::chrono::milliseconds(static_cast<long long>(timeout * 1000));
  } else if (move_time >= 0) {
    options.game.timeout = std::chrono::milliseconds(
        static_cast<long long>(std::max(2 * move_time, move_time + 1) * 1000));
  }

  auto report = match::RunMatch(options, quiet ? nullptr : stdout);
  if (!report.ok()) {
    std::fprintf(stderr, "match: %s\n", report.error().message.c_str());
    return 1;
  }
  std::fputs(match::FormatReport(*report).c_str(), stdout);
  return 0;
}
