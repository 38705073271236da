#include "gateway/history_handlers.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "gateway/api_handlers.h"
#include "gateway/error_mapping.h"
#include "gateway/history_replay.h"
#include "gateway/json_string.h"
#include "gateway/proto_json.h"
#include "gateway/rating_changes.h"
#include "rules/variant.h"

namespace draughts::gateway {
namespace {

constexpr int kLeaderboardPageSize = 100;
constexpr int kHistoryPoints = 100;
constexpr int kRecentGames = 20;
// A rating change is looked up in the player's history this many pages
// deep (100 games each): an old game's change may no longer be shown.
constexpr int kChangeSearchPages = 5;

HttpResponse Json(const google::protobuf::Message& message) {
  HttpResponse response;
  response.body = MessageToJson(message);
  return response;
}

bool PersonSeat(const v1::Seat& seat) {
  return seat.kind() == v1::SEAT_KIND_PERSON && !seat.player_id().empty();
}

}  // namespace

std::string MonthOf(absl::Time time) {
  return absl::FormatTime("%Y-%m", time, absl::UTCTimeZone());
}

std::string MonthBefore(const std::string& month) {
  int year = 0;
  int number = 0;
  if (month.size() != 7 || !absl::SimpleAtoi(month.substr(0, 4), &year) ||
      !absl::SimpleAtoi(month.substr(5, 2), &number)) {
    return "";
  }
  if (--number == 0) {
    number = 12;
    --year;
  }
  return absl::StrFormat("%04d-%02d", year, number);
}

HistoryHandlers::HistoryHandlers(SessionStore* sessions, ArchiveBackend* archive,
                                 std::function<absl::Time()> now)
    : sessions_(sessions), archive_(archive), ratings_(archive->client()), now_(std::move(now)) {}

std::optional<Session> HistoryHandlers::OptionalSession(const HttpRequest& request) {
  const std::string id = SessionIdFromCookie(request.cookie);
  if (id.empty()) return std::nullopt;
  absl::StatusOr<std::optional<Session>> found = sessions_->Find(id);
  // A page anyone may read is still answered when Redis is not: only the
  // highlighting of the caller's line is lost.
  if (!found.ok()) return std::nullopt;
  return *found;
}

HttpResponse HistoryHandlers::Leaderboard(const HttpRequest& request) {
  const std::string variant = QueryParameter(request.query, "variant").value_or("");
  if (variant.empty()) return ErrorResponse(absl::InvalidArgumentError("?variant= is required"));
  if (!rules::FindVariant(variant).ok()) {
    return ErrorResponse(absl::InvalidArgumentError(
        absl::StrCat("unknown variant ", JsonQuote(variant.substr(0, 40)))));
  }
  v1::LeaderboardPage page;
  page.set_variant(variant);
  page.set_current_month(MonthOf(now_()));
  page.set_previous_month(MonthBefore(page.current_month()));
  std::string month = QueryParameter(request.query, "month").value_or("");
  if (month.empty()) month = page.current_month();
  if (MonthBefore(month).empty()) {
    return ErrorResponse(absl::InvalidArgumentError("?month= must be YYYY-MM"));
  }
  page.set_month(month);
  page.set_final(month < page.current_month());

  v1::GetLeaderboardRequest ask;
  ask.set_variant(variant);
  ask.set_month(month);
  ask.set_page_size(kLeaderboardPageSize);
  ask.set_page_token(QueryParameter(request.query, "pageToken").value_or(""));
  const std::optional<Session> session = OptionalSession(request);
  if (session.has_value()) {
    page.set_own_player_id(session->player_id);
    // Guests are never rated: only an account has a line to look for.
    if (session->is_person()) ask.set_player_id(session->player_id);
    page.set_own_is_account(session->is_person());
  }
  absl::StatusOr<v1::GetLeaderboardResponse> board = ratings_.GetLeaderboard(ask);
  if (!board.ok()) return ErrorResponse(board.status());
  *page.mutable_entries() = std::move(*board->mutable_entries());
  page.set_next_page_token(board->next_page_token());
  if (board->has_player()) *page.mutable_own() = board->player();
  return Json(page);
}

HttpResponse HistoryHandlers::Player(const RouteMatch& route) {
  v1::PlayerPage page;
  page.set_player_id(route.player_id);
  page.set_current_month(MonthOf(now_()));
  v1::GetHistoryRequest ask;
  ask.set_player_id(route.player_id);
  ask.set_page_size(kHistoryPoints);
  absl::StatusOr<v1::GetHistoryResponse> history = ratings_.GetHistory(ask);
  if (!history.ok()) return ErrorResponse(history.status());

  std::vector<std::string> variants;
  for (const v1::HistoryEntry& entry : history->entries()) {
    if (std::find(variants.begin(), variants.end(), entry.variant()) == variants.end()) {
      variants.push_back(entry.variant());
    }
    if (page.recent_games_size() < kRecentGames) *page.add_recent_games() = entry;
  }
  // Oldest first, as a chart reads.
  for (auto entry = history->entries().rbegin(); entry != history->entries().rend(); ++entry) {
    if (!entry->elo_changed()) continue;
    v1::RatingPoint* point = page.add_history();
    point->set_variant(entry->variant());
    point->set_game_id(entry->game_id());
    *point->mutable_finished_at() = entry->finished_at();
    point->set_month(MonthOf(absl::FromUnixSeconds(entry->finished_at().seconds())));
    point->set_elo_before(entry->elo_before());
    point->set_elo_after(entry->elo_after());
  }
  for (const std::string& variant : variants) {
    v1::GetRatingRequest rating_ask;
    rating_ask.set_player_id(route.player_id);
    rating_ask.set_variant(variant);
    rating_ask.set_month(page.current_month());
    absl::StatusOr<v1::GetRatingResponse> rating = ratings_.GetRating(rating_ask);
    if (!rating.ok()) return ErrorResponse(rating.status());
    if (page.display_name().empty()) page.set_display_name(rating->rating().display_name());
    v1::PlayerRating* line = page.add_ratings();
    line->set_variant(variant);
    *line->mutable_rating() = rating->rating();
    line->set_rank(rating->rank());
  }
  return Json(page);
}

absl::StatusOr<std::optional<v1::RatingChange>> HistoryHandlers::ChangeFor(
    const v1::ResultRecord& record, const v1::Seat& seat, v1::Color color) {
  absl::StatusOr<std::optional<v1::HistoryEntry>> entry = FindHistoryEntry(
      ratings_, seat.player_id(), record.variant(), record.game_id(), kChangeSearchPages);
  if (!entry.ok()) return entry.status();
  if (!entry->has_value() || !(*entry)->elo_changed()) return std::nullopt;
  return RatingChangeOf(**entry, seat.player_id(), color);
}

HttpResponse HistoryHandlers::GameReplay(const RouteMatch& route) {
  absl::StatusOr<v1::ArchivedGame> game = archive_->Find(route.game_id);
  if (!game.ok()) return ErrorResponse(game.status());
  const v1::ResultRecord& record = game->record();
  absl::StatusOr<rules::GameRecord> replayed = ReplayRecord(record);
  if (!replayed.ok()) {
    return ErrorResponse(absl::InternalError(absl::StrCat(
        "archived game ", route.game_id, " does not replay: ", replayed.status().message())));
  }
  v1::ArchivedReplay answer;
  answer.set_game_id(record.game_id());
  *answer.mutable_white() = record.white();
  *answer.mutable_black() = record.black();
  answer.set_rated(record.rated());
  answer.set_result(record.result());
  answer.set_reason(record.reason());
  *answer.mutable_finished_at() = record.finished_at();
  *answer.mutable_replay() = ReplayOf(*replayed);
  answer.set_pdn_url(absl::StrCat("/api/games/", route.game_id, "/pdn"));
  // Only a rated game between two different accounts changes Elo.
  if (record.rated() && PersonSeat(record.white()) && PersonSeat(record.black()) &&
      record.white().player_id() != record.black().player_id()) {
    for (const auto& [seat, color] : {std::pair{&record.white(), v1::COLOR_WHITE},
                                      std::pair{&record.black(), v1::COLOR_BLACK}}) {
      absl::StatusOr<std::optional<v1::RatingChange>> change = ChangeFor(record, *seat, color);
      if (!change.ok()) return ErrorResponse(change.status());
      if (change->has_value()) *answer.add_changes() = **change;
    }
  }
  return Json(answer);
}

HttpResponse HistoryHandlers::PdnReplay(const HttpRequest& request) {
  if (request.body.empty()) {
    return ErrorResponse(absl::InvalidArgumentError("the body must be the text of a PDN file"));
  }
  v1::PdnUploadResult result = ReadUploadedPdn(request.body);
  if (result.games_size() == 0 && result.failures_size() == 0) {
    return ErrorResponse(absl::InvalidArgumentError("no game found in this file"));
  }
  return Json(result);
}

}  // namespace draughts::gateway
