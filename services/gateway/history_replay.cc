#include "gateway/history_replay.h"

#include <optional>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "rules/fen.h"
#include "rules/pdn.h"
#include "rules/pdn_replay.h"
#include "rules/variant.h"

namespace draughts::gateway {
namespace {

std::string TagOrEmpty(const rules::PdnGame& game, std::string_view name) {
  const std::string* value = game.FindTag(name);
  return value == nullptr ? std::string() : *value;
}

}  // namespace

v1::Replay ReplayOf(const rules::GameRecord& record) {
  v1::Replay replay;
  replay.set_variant(std::string(record.variant().id));
  const std::vector<rules::Position> positions = record.positions();
  replay.set_initial_fen(rules::FormatFen(positions.front()));
  // The PDN writer's notation is the federation's (short form unless
  // ambiguous): the list reads as the game's PDN does.
  const rules::PdnGame written = rules::ToPdnGame(record);
  for (std::size_t i = 0; i < record.moves().size(); ++i) {
    const rules::Move& move = record.moves()[i];
    v1::ReplayPly* ply = replay.add_plies();
    ply->set_notation(i < written.moves.size() ? written.moves[i].text : std::string());
    ply->add_path(move.from);
    for (std::uint8_t landing : move.landing_squares()) ply->add_path(landing);
    for (std::uint8_t taken : move.captured_squares()) ply->add_captured(taken);
    ply->set_fen(rules::FormatFen(positions[i + 1]));
  }
  return replay;
}

absl::StatusOr<rules::GameRecord> ReplayRecord(const v1::ResultRecord& record) {
  rules::Result<rules::Variant> found = rules::FindVariant(record.variant());
  if (!found.ok()) return absl::InvalidArgumentError(found.error().ToString());
  rules::Variant variant = *found;
  // The one table option that changes which moves are legal (seed 003).
  if (record.options().has_mandatory_capture() && !record.options().mandatory_capture()) {
    variant.mandatory_capture = false;
  }
  std::optional<rules::GameRecord> game;
  if (record.initial_fen().empty()) {
    game.emplace(variant);
  } else {
    rules::Result<rules::Position> start = rules::ParseFen(variant, record.initial_fen());
    if (!start.ok()) {
      return absl::InvalidArgumentError("initial position: " + start.error().ToString());
    }
    game.emplace(variant, *start);
  }
  for (int i = 0; i < record.moves_size(); ++i) {
    rules::Result<rules::GameRecord> next = game->Play(record.moves(i));
    if (!next.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("move ", i + 1, " (", record.moves(i), "): ", next.error().message));
    }
    game.emplace(*std::move(next));
  }
  return *std::move(game);
}

v1::PdnUploadResult ReadUploadedPdn(std::string_view text) {
  v1::PdnUploadResult answer;
  const rules::PdnReadReport report = rules::ReadPdnGames(text);
  // A file without a GameType tag is international draughts, as PDN 3.0
  // says of a missing GameType.
  const rules::Variant fallback = *rules::FindVariant("international");
  for (const rules::PdnGame& game : report.games) {
    if (answer.games_size() >= kMaxUploadedGames) {
      v1::PdnUploadFailure* failure = answer.add_failures();
      failure->set_number(game.number);
      failure->set_message(
          absl::StrCat("not replayed: only the first ", kMaxUploadedGames, " games of a file are"));
      continue;
    }
    v1::UploadedGame* uploaded = answer.add_games();
    uploaded->set_number(game.number);
    uploaded->set_white(TagOrEmpty(game, "White"));
    uploaded->set_black(TagOrEmpty(game, "Black"));
    uploaded->set_event(TagOrEmpty(game, "Event"));
    uploaded->set_date(TagOrEmpty(game, "Date"));
    const rules::PdnScoreStyle style =
        game.GameType() == 21 ? rules::PdnScoreStyle::kOnePoint : rules::PdnScoreStyle::kTwoPoints;
    rules::Result<rules::PdnReplay> replayed = rules::ReplayPdn(game, fallback);
    if (!replayed.ok()) {
      uploaded->set_result(rules::FormatPdnResult(game.result, style));
      uploaded->set_error(replayed.error().message);
      continue;
    }
    uploaded->set_result(rules::FormatPdnResult(replayed->result, style));
    *uploaded->mutable_replay() = ReplayOf(replayed->record);
    for (const std::string& note : replayed->notes) uploaded->add_notes(note);
  }
  for (const rules::PdnProblem& problem : report.failures) {
    v1::PdnUploadFailure* failure = answer.add_failures();
    failure->set_number(problem.game);
    failure->set_line(problem.line);
    failure->set_column(problem.column);
    failure->set_message(problem.message);
  }
  return answer;
}

}  // namespace draughts::gateway
