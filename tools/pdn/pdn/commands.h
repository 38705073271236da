#pragma once

// The commands of the pdn tool, on texts already read, writing to streams,
// so tests can run them without files or processes.
//
//   check:   every game read and replayed; failures with their reasons,
//            figures per rule set.
//   convert: every game that replays, as PDN 3.0 in the federation's
//            notation with GameType (and FEN when the start is not the
//            usual one); failures reported and left out.
//   fen:     the position of game N after K plies.

#include <map>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "rules/variant.h"

namespace draughts::pdn_tool {

struct InputFile {
  std::string name;
  std::string text;
};

struct Figures {
  int read = 0;      // games read
  int replayed = 0;  // of those, replayed to the end of their moves
  int failed = 0;    // unreadable games and games that do not replay
  int notes = 0;     // guesses made on games that replayed
};

struct CheckReport {
  std::map<std::string, Figures> by_variant;  // rule set id ("?" when unknown)
  Figures total;
};

// Writes one line per failure ("FILE: game N, line L, column C: why"), with
// `show_notes` one per note too, then the figures per rule set.
CheckReport Check(const std::vector<InputFile>& files, const rules::Variant& fallback,
                  bool show_notes, std::ostream& out);

// Returns the number of games that could not be converted.
int Convert(const std::vector<InputFile>& files, const rules::Variant& fallback, std::ostream& out,
            std::ostream& errors);

// The FEN after `ply` plies of game `game` (1-based, as numbered in the
// file; ply 0 is the start, no ply means the end), or why not.
std::optional<std::string> Fen(const InputFile& file, const rules::Variant& fallback, int game,
                               std::optional<int> ply, std::string& error);

}  // namespace draughts::pdn_tool
