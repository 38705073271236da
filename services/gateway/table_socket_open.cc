#include "gateway/table_socket_open.h"

#include "absl/strings/str_cat.h"
#include "gateway/account_handlers.h"
#include "gateway/router.h"
#include "platform/event_id.h"
#include "platform/status_macros.h"

namespace draughts::gateway {
namespace {

absl::StatusOr<std::string> EventIdParameter(const HttpRequest& request, std::string_view name) {
  std::optional<std::string> value = QueryParameter(request.query, name);
  if (!value.has_value() || value->empty()) return std::string();
  if (!platform::ParseEventId(*value).ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("?", std::string(name), "= must be an event id such as 1700000000000-0"));
  }
  return *value;
}

}  // namespace

v1::Seat RequesterOf(const Session& session) {
  v1::Seat seat;
  seat.set_kind(session.is_person() ? v1::SEAT_KIND_PERSON : v1::SEAT_KIND_GUEST);
  seat.set_player_id(session.player_id);
  seat.set_display_name(session.display_name);
  return seat;
}

GameTokens TokensOf(const google::protobuf::RepeatedPtrField<v1::PlayerToken>& tokens) {
  GameTokens result;
  for (const v1::PlayerToken& token : tokens) {
    result.game_id = token.game_id();
    result.by_color[token.color()] = token.player_token();
  }
  return result;
}

absl::StatusOr<TableSocketOpening> OpenTableSocket(ApiHandlers& handlers,
                                                   MatchmakingBackend& matchmaking,
                                                   const std::string& table_id,
                                                   const HttpRequest& request) {
  DRAUGHTS_ASSIGN_OR_RETURN(Session session, handlers.RequireSession(request));
  DRAUGHTS_RETURN_IF_ERROR(CheckSameOrigin(request));
  TableSocketOpening opening;
  opening.table_id = table_id;
  opening.session_id = session.id;
  opening.requester = RequesterOf(session);
  std::optional<std::string> game = QueryParameter(request.query, "game");
  if (game.has_value() && !game->empty() && !LooksLikeGameId(*game)) {
    return absl::InvalidArgumentError("?game= is not a game id");
  }
  opening.resume_game_id = game.value_or("");
  DRAUGHTS_ASSIGN_OR_RETURN(opening.resume_game_after, EventIdParameter(request, "after"));
  DRAUGHTS_ASSIGN_OR_RETURN(opening.resume_chat_after, EventIdParameter(request, "chatAfter"));
  const std::string snapshot_after = QueryParameter(request.query, "snapshotAfter").value_or("0");
  if (snapshot_after != "0" && snapshot_after != "1") {
    return absl::InvalidArgumentError("?snapshotAfter= must be 1 or 0");
  }
  opening.snapshot_after_events = snapshot_after == "1";

  v1::GetTableRequest get;
  get.set_table_id(table_id);
  *get.mutable_requester() = opening.requester;
  DRAUGHTS_ASSIGN_OR_RETURN(v1::GetTableResponse got, matchmaking.GetTable(get));
  opening.table = std::move(*got.mutable_table());
  for (const v1::TableSeat& seat : opening.table.seats()) {
    if (seat.has_occupant() && seat.occupant().kind() != v1::SEAT_KIND_BOT &&
        seat.occupant().player_id() == session.player_id) {
      opening.binding.seat_indexes.push_back(seat.index());
    }
  }
  opening.tokens = TokensOf(got.your_tokens());
  if (!opening.binding.seat_indexes.empty() && !opening.table.invite_code().empty()) {
    opening.invite_path = absl::StrCat("/join/", opening.table.invite_code());
  }
  opening.table.clear_invite_code();
  opening.chat_muted =
      opening.binding.seat_indexes.empty() && opening.table.options().spectators_muted();
  return opening;
}

}  // namespace draughts::gateway
