#include "pdn/commands.h"

#include <cstdio>

#include "rules/fen.h"
#include "rules/pdn.h"
#include "rules/pdn_replay.h"

namespace draughts::pdn_tool {
namespace {

// Tags the writer sets itself from the replayed game.
bool WrittenByConvert(const std::string& name) {
  return name == "GameType" || name == "FEN" || name == "Result";
}

std::string VariantKey(const rules::PdnGame& game, const rules::Variant& fallback) {
  auto variant = rules::VariantForPdn(game, fallback);
  return variant.ok() ? std::string(variant->id) : "?";
}

}  // namespace

CheckReport Check(const std::vector<InputFile>& files, const rules::Variant& fallback,
                  bool show_notes, std::ostream& out) {
  CheckReport report;
  for (const InputFile& file : files) {
    const rules::PdnReadReport read = rules::ReadPdnGames(file.text);
    for (const rules::PdnProblem& failure : read.failures) {
      // The rule set of a game that cannot be read is not known.
      Figures& figures = report.by_variant["?"];
      ++figures.failed;
      out << file.name << ": " << failure.ToString() << " (not read)\n";
    }
    if (show_notes) {
      for (const rules::PdnProblem& note : read.notes) {
        out << file.name << ": note: " << note.ToString() << "\n";
      }
    }
    for (const rules::PdnGame& game : read.games) {
      auto replay = rules::ReplayPdn(game, fallback);
      // Counted under the rule set it replays in (a game without GameType
      // may be recognised), else the one it names or the fallback.
      Figures& figures = report.by_variant[replay.ok() ? std::string(replay->record.variant().id)
                                                       : VariantKey(game, fallback)];
      ++figures.read;
      if (!replay.ok()) {
        ++figures.failed;
        out << file.name << ": game " << game.number << ": " << replay.error().message << "\n";
        continue;
      }
      ++figures.replayed;
      figures.notes += static_cast<int>(replay->notes.size());
      if (show_notes) {
        for (const std::string& note : replay->notes) {
          out << file.name << ": game " << game.number << ": note: " << note << "\n";
        }
      }
    }
  }
  out << "rule set        read  replayed  failed  notes\n";
  for (const auto& [id, figures] : report.by_variant) {
    report.total.read += figures.read;
    report.total.replayed += figures.replayed;
    report.total.failed += figures.failed;
    report.total.notes += figures.notes;
    char line[128];
    std::snprintf(line, sizeof line, "%-14s %5d %9d %7d %6d\n", id.c_str(), figures.read,
                  figures.replayed, figures.failed, figures.notes);
    out << line;
  }
  char line[128];
  std::snprintf(line, sizeof line, "%-14s %5d %9d %7d %6d\n", "total", report.total.read,
                report.total.replayed, report.total.failed, report.total.notes);
  out << line;
  return report;
}

int Convert(const std::vector<InputFile>& files, const rules::Variant& fallback, std::ostream& out,
            std::ostream& errors) {
  int failed = 0;
  bool first = true;
  for (const InputFile& file : files) {
    const rules::PdnReadReport read = rules::ReadPdnGames(file.text);
    for (const rules::PdnProblem& failure : read.failures) {
      ++failed;
      errors << file.name << ": " << failure.ToString() << " (not read)\n";
    }
    for (const rules::PdnGame& game : read.games) {
      auto replay = rules::ReplayPdn(game, fallback);
      if (!replay.ok()) {
        ++failed;
        errors << file.name << ": game " << game.number << ": " << replay.error().message << "\n";
        continue;
      }
      std::vector<rules::PdnTag> tags;
      for (const rules::PdnTag& tag : game.tags) {
        if (!WrittenByConvert(tag.name)) tags.push_back(tag);
      }
      rules::PdnGame normalised = rules::ToPdnGame(replay->record, std::move(tags));
      normalised.result = replay->result;
      normalised.leading_comment = game.leading_comment;
      for (std::size_t i = 0; i < normalised.moves.size() && i < game.moves.size(); ++i) {
        normalised.moves[i].comment = game.moves[i].comment;
      }
      if (!first) out << "\n";
      first = false;
      out << rules::WritePdn(normalised);
    }
  }
  return failed;
}

std::optional<std::string> Fen(const InputFile& file, const rules::Variant& fallback, int game,
                               std::optional<int> ply, std::string& error) {
  const rules::PdnReadReport read = rules::ReadPdnGames(file.text);
  for (const rules::PdnProblem& failure : read.failures) {
    if (failure.game == game) {
      error = failure.ToString();
      return std::nullopt;
    }
  }
  for (const rules::PdnGame& candidate : read.games) {
    if (candidate.number != game) continue;
    auto replay = rules::ReplayPdn(candidate, fallback);
    if (!replay.ok()) {
      error = "game " + std::to_string(game) + ": " + replay.error().message;
      return std::nullopt;
    }
    const std::vector<rules::Position> positions = replay->record.positions();
    const int last = static_cast<int>(positions.size()) - 1;
    const int at = ply.value_or(last);
    if (at < 0 || at > last) {
      error = "game " + std::to_string(game) + " has " + std::to_string(last) +
              " plies; --ply must be 0.." + std::to_string(last);
      return std::nullopt;
    }
    return rules::FormatFen(positions[static_cast<std::size_t>(at)]);
  }
  error = "the file has no game " + std::to_string(game) +
          " (games: " + std::to_string(read.games.size() + read.failures.size()) + ")";
  return std::nullopt;
}

}  // namespace draughts::pdn_tool
