#include "rating/result_rules.h"

#include <string>

#include "absl/strings/str_cat.h"

namespace draughts::rating {
namespace {

bool IsFinished(v1::GameResult result) {
  return result == v1::GAME_RESULT_WHITE_WINS || result == v1::GAME_RESULT_BLACK_WINS ||
         result == v1::GAME_RESULT_DRAW;
}

absl::Status CheckSeat(const std::string& game_id, const char* side, const v1::Seat& seat) {
  if (seat.kind() == v1::SEAT_KIND_UNSPECIFIED || !v1::SeatKind_IsValid(seat.kind())) {
    return absl::InvalidArgumentError(absl::StrCat("game ", game_id, ": ", side, " has no kind"));
  }
  if (seat.kind() == v1::SEAT_KIND_PERSON && seat.player_id().empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat("game ", game_id, ": ", side, " is a PERSON without player_id"));
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status CheckFinishedRecord(const v1::ResultRecord& record) {
  if (record.game_id().empty()) return absl::InvalidArgumentError("record has no game_id");
  if (!IsFinished(record.result())) {
    return absl::InvalidArgumentError(absl::StrCat(
        "game ", record.game_id(), " is not finished (result ",
        v1::GameResult_Name(record.result()).empty() ? absl::StrCat(record.result())
                                                     : v1::GameResult_Name(record.result()),
        ")"));
  }
  if (record.variant().empty()) {
    return absl::InvalidArgumentError(absl::StrCat("game ", record.game_id(), " has no variant"));
  }
  return absl::OkStatus();
}

absl::Status CheckCompleteRecord(const v1::ResultRecord& record) {
  if (absl::Status finished = CheckFinishedRecord(record); !finished.ok()) return finished;
  if (absl::Status white = CheckSeat(record.game_id(), "white", record.white()); !white.ok()) {
    return white;
  }
  if (absl::Status black = CheckSeat(record.game_id(), "black", record.black()); !black.ok()) {
    return black;
  }
  if (!record.has_finished_at()) {
    return absl::InvalidArgumentError(
        absl::StrCat("game ", record.game_id(), " has no finished_at (it picks the month)"));
  }
  return absl::OkStatus();
}

bool ChangesElo(const v1::ResultRecord& record) {
  return record.rated() && record.white().kind() == v1::SEAT_KIND_PERSON &&
         record.black().kind() == v1::SEAT_KIND_PERSON && !record.white().player_id().empty() &&
         record.white().player_id() != record.black().player_id();
}

}  // namespace draughts::rating
