// pdn check [--variant=ID] [--notes] FILE...
//   Reads and replays every game; prints each failure with its reason
//   ("FILE: game N, line L, column C: why") and the figures per rule set.
//   Exit status 1 when a game failed.
// pdn convert [--variant=ID] FILE...
//   Writes every game that replays to stdout as PDN 3.0: GameType and FEN
//   tags, moves in the federation's notation, the result. Failures go to
//   stderr; exit status 1 when a game failed.
// pdn fen [--variant=ID] FILE --game=N [--ply=K]
//   The position (draughts FEN) of game N after K plies (0: the start;
//   without --ply: the end).
//
// --variant names the rule set of games without a GameType tag
// (international when not given). Files may be UTF-8 or Latin-1, with any
// line ends.

#include <cstdio>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "pdn/commands.h"
#include "rules/variant.h"

namespace {

using namespace draughts;

int Usage(const std::string& problem) {
  std::fprintf(stderr,
               "pdn: %s\nusage:\n  pdn check [--variant=ID] [--notes] FILE...\n"
               "  pdn convert [--variant=ID] FILE...\n"
               "  pdn fen [--variant=ID] FILE --game=N [--ply=K]\n",
               problem.c_str());
  return 2;
}

std::optional<int> ParseCount(std::string_view text) {
  if (text.empty() || text.size() > 9) return std::nullopt;
  int value = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    value = value * 10 + (c - '0');
  }
  return value;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) return Usage("no command");
  const std::string command = argv[1];
  std::string variant_id = "international";
  bool notes = false;
  std::optional<int> game;
  std::optional<int> ply;
  std::vector<std::string> paths;
  for (int i = 2; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg.rfind("--variant=", 0) == 0) {
      variant_id = std::string(arg.substr(10));
    } else if (arg == "--notes") {
      notes = true;
    } else if (arg.rfind("--game=", 0) == 0) {
      game = ParseCount(arg.substr(7));
      if (!game || *game < 1) return Usage("--game must be a number from 1");
    } else if (arg.rfind("--ply=", 0) == 0) {
      ply = ParseCount(arg.substr(6));
      if (!ply) return Usage("--ply must be a number from 0");
    } else if (arg.rfind("--", 0) == 0) {
      return Usage("unknown flag " + std::string(arg));
    } else {
      paths.emplace_back(arg);
    }
  }
  auto variant = rules::FindVariant(variant_id);
  if (!variant.ok()) return Usage(variant.error().message);
  if (paths.empty()) return Usage("no file given");

  std::vector<pdn_tool::InputFile> files;
  for (const std::string& path : paths) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
      std::fprintf(stderr, "pdn: cannot read %s\n", path.c_str());
      return 2;
    }
    std::ostringstream text;
    text << in.rdbuf();
    files.push_back({path, text.str()});
  }

  if (command == "check") {
    const pdn_tool::CheckReport report = pdn_tool::Check(files, *variant, notes, std::cout);
    return report.total.failed > 0 ? 1 : 0;
  }
  if (command == "convert") {
    return pdn_tool::Convert(files, *variant, std::cout, std::cerr) > 0 ? 1 : 0;
  }
  if (command == "fen") {
    if (files.size() != 1) return Usage("fen reads one file");
    if (!game) return Usage("fen needs --game=N");
    std::string error;
    auto fen = pdn_tool::Fen(files.front(), *variant, *game, ply, error);
    if (!fen) {
      std::fprintf(stderr, "pdn: %s\n", error.c_str());
      return 1;
    }
    std::printf("%s\n", fen->c_str());
    return 0;
  }
  return Usage("unknown command " + command);
}
