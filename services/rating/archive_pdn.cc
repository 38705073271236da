#include "rating/archive_pdn.h"

#include <google/protobuf/util/time_util.h>

#include <optional>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/time/time.h"
#include "rules/fen.h"
#include "rules/game.h"
#include "rules/pdn.h"
#include "rules/pdn_replay.h"

namespace draughts::rating {
namespace {

rules::PdnResult ToPdnResult(v1::GameResult result) {
  switch (result) {
    case v1::GAME_RESULT_WHITE_WINS:
      return rules::PdnResult::kWhiteWins;
    case v1::GAME_RESULT_BLACK_WINS:
      return rules::PdnResult::kBlackWins;
    case v1::GAME_RESULT_DRAW:
      return rules::PdnResult::kDraw;
    default:
      return rules::PdnResult::kUnknown;
  }
}

std::string PdnDate(const v1::ResultRecord& record) {
  const google::protobuf::Timestamp* at = record.has_started_at()    ? &record.started_at()
                                          : record.has_finished_at() ? &record.finished_at()
                                                                     : nullptr;
  if (at == nullptr) return "????.??.??";
  const absl::Time time =
      absl::FromUnixMicros(google::protobuf::util::TimeUtil::TimestampToMicroseconds(*at));
  return absl::FormatTime("%Y.%m.%d", time, absl::UTCTimeZone());
}

// A tag value on one line: control characters (a newline in a display
// name, say) would break the tag pair, so they become spaces.
std::string TagText(std::string text) {
  for (char& c : text) {
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = ' ';
  }
  return text;
}

std::string PlayerName(const v1::Seat& seat) {
  return seat.display_name().empty() ? "?" : TagText(seat.display_name());
}

absl::Status Invalid(const v1::ResultRecord& record, const std::string& what) {
  return absl::InvalidArgumentError(
      absl::StrCat("game ", record.game_id(), " does not replay: ", what));
}

}  // namespace

absl::StatusOr<rules::Variant> ReplayVariant(const v1::ResultRecord& record) {
  rules::Result<rules::Variant> found = rules::FindVariant(record.variant());
  if (!found.ok()) return absl::InvalidArgumentError(found.error().ToString());
  rules::Variant variant = *found;
  if (record.options().has_mandatory_capture() && !record.options().mandatory_capture()) {
    variant.mandatory_capture = false;
  }
  return variant;
}

absl::StatusOr<std::string> ArchivedGamePdn(const v1::ResultRecord& record,
                                            const PdnSettings& settings) {
  absl::StatusOr<rules::Variant> variant = ReplayVariant(record);
  if (!variant.ok()) return variant.status();

  std::optional<rules::GameRecord> game;
  if (record.initial_fen().empty()) {
    game.emplace(*variant);
  } else {
    rules::Result<rules::Position> start = rules::ParseFen(*variant, record.initial_fen());
    if (!start.ok()) return Invalid(record, "initial_fen: " + start.error().ToString());
    game.emplace(*variant, *start);
  }
  for (int i = 0; i < record.moves_size(); ++i) {
    if (game->is_over()) {
      return Invalid(record, absl::StrCat("move ", i + 1, " (", record.moves(i),
                                          ") after the end: ", game->outcome().ToString()));
    }
    rules::Result<rules::GameRecord> next = game->Play(record.moves(i));
    if (!next.ok()) {
      return Invalid(
          record, absl::StrCat("move ", i + 1, " (", record.moves(i), "): ", next.error().message));
    }
    game.emplace(*std::move(next));
  }
  if (!record.final_fen().empty()) {
    rules::Result<rules::Position> final_position = rules::ParseFen(*variant, record.final_fen());
    if (!final_position.ok()) {
      return Invalid(record, "final_fen: " + final_position.error().ToString());
    }
    // Compared as canonical FEN: a FEN carries no king-move counts.
    if (rules::FormatFen(*final_position) != rules::FormatFen(game->position())) {
      return Invalid(record, absl::StrCat("the moves end on ", rules::FormatFen(game->position()),
                                          ", not on final_fen ", record.final_fen()));
    }
  }

  std::vector<rules::PdnTag> tags = {
      {"Event",
       absl::StrCat(record.rated() ? "Rated" : "Casual", " game, ", std::string(variant->name))},
      {"Site", TagText(settings.site)},
      {"Date", PdnDate(record)},
      {"Round", "-"},
      {"White", PlayerName(record.white())},
      {"Black", PlayerName(record.black())},
      {"Result", ""},  // set by the writer from the result below
  };
  rules::PdnGame pdn = rules::ToPdnGame(*game, std::move(tags));
  pdn.result = ToPdnResult(record.result());
  return rules::WritePdn(pdn);
}

}  // namespace draughts::rating
