#include "gateway/lobby_handlers.h"

#include <google/protobuf/util/json_util.h>

#include <chrono>
#include <cmath>
#include <functional>
#include <memory>
#include <optional>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "gateway/api_handlers.h"
#include "gateway/error_mapping.h"
#include "gateway/proto_json.h"
#include "platform/logging.h"
#include "platform/status_macros.h"

namespace draughts::gateway {
namespace {

// Matchmaking's bound (CreateTableRequest.password); checked here too so a
// long one never leaves the gateway.
constexpr std::size_t kMaxPasswordBytes = 64;
// The seed's longest time per move is 5 minutes; anything far above is a
// typo, refused before it reaches matchmaking.
constexpr int64_t kMaxTimePerMoveSeconds = 3600;

HttpResponse Json(const google::protobuf::Message& message) {
  HttpResponse response;
  response.body = MessageToJson(message);
  return response;
}

v1::Seat RequesterOf(const Session& session) {
  v1::Seat seat;
  seat.set_kind(session.is_person() ? v1::SEAT_KIND_PERSON : v1::SEAT_KIND_GUEST);
  seat.set_player_id(session.player_id);  // public, never the session secret
  seat.set_display_name(session.display_name);
  return seat;
}

// A body in protobuf's JSON mapping, strictly: unknown fields refused. An
// empty body is the empty object. The parser's message keeps its first
// line only: later lines quote the input, which may hold a password.
absl::Status ParseBody(const std::string& body, google::protobuf::Message* message) {
  if (absl::StripAsciiWhitespace(body).empty()) return absl::OkStatus();
  if (absl::StripAsciiWhitespace(body)[0] != '{') {
    return absl::InvalidArgumentError("the body must be a JSON object");
  }
  google::protobuf::util::JsonParseOptions options;
  options.ignore_unknown_fields = false;
  const auto status = google::protobuf::util::JsonStringToMessage(body, message, options);
  if (status.ok()) return absl::OkStatus();
  std::string detail(status.message());
  detail = detail.substr(0, detail.find('\n')).substr(0, 160);
  return absl::InvalidArgumentError(absl::StrCat("malformed body: ", detail));
}

absl::Status CheckPassword(const std::string& password) {
  if (password.size() > kMaxPasswordBytes) {
    return absl::InvalidArgumentError(
        absl::StrCat("password must be at most ", kMaxPasswordBytes, " bytes"));
  }
  return absl::OkStatus();
}

absl::Status CheckVariantGiven(const std::string& variant) {
  if (variant.empty()) return absl::InvalidArgumentError("\"variant\" is required");
  return absl::OkStatus();
}

absl::Status CheckTimePerMove(const google::protobuf::Duration& time, bool given) {
  if (!given) return absl::OkStatus();
  if (time.seconds() < 0 || time.nanos() != 0 || time.seconds() > kMaxTimePerMoveSeconds) {
    return absl::InvalidArgumentError(
        "timePerMove must be a whole number of seconds such as \"60s\" (\"0s\": no limit)");
  }
  return absl::OkStatus();
}

// The answer of every table route; the invite link only for a seated player.
v1::WebTableResponse TableAnswer(const v1::Table& table,
                                 const google::protobuf::RepeatedPtrField<v1::PlayerToken>& tokens,
                                 bool waiting = false) {
  v1::WebTableResponse answer;
  *answer.mutable_table() = table;
  if (!table.invite_code().empty()) {
    answer.set_invite_path(absl::StrCat("/join/", table.invite_code()));
  }
  *answer.mutable_your_tokens() = tokens;
  answer.set_waiting(waiting);
  return answer;
}

// "60", "60s", "0s": whole seconds.
std::optional<int64_t> ParseSeconds(std::string_view text) {
  if (text.ends_with('s')) text.remove_suffix(1);
  if (text.empty() || text.size() > 6) return std::nullopt;
  int64_t seconds = 0;
  for (char c : text) {
    if (!absl::ascii_isdigit(static_cast<unsigned char>(c))) return std::nullopt;
    seconds = seconds * 10 + (c - '0');
  }
  return seconds;
}

// A validated POST: what its fingerprint is computed from, and the call(s)
// to matchmaking given the backend idempotency key.
struct PreparedAction {
  std::string operation;  // the route and its table id
  std::unique_ptr<google::protobuf::Message> fingerprinted;
  std::function<absl::StatusOr<v1::WebTableResponse>(const std::string& backend_key)> call;
};

}  // namespace

LobbyHandlers::LobbyHandlers(IdempotencyStore* idempotency, MatchmakingBackend* matchmaking,
                             RatingReader* ratings, ActionRateLimits limits)
    : idempotency_(idempotency), matchmaking_(matchmaking), ratings_(ratings), limiter_(limits) {}

bool LobbyHandlers::IsLobbyRoute(Route route) {
  switch (route) {
    case Route::kListTables:
    case Route::kCreateTable:
    case Route::kGetTable:
    case Route::kJoinTable:
    case Route::kLeaveTable:
    case Route::kFillSeats:
    case Route::kStartTable:
    case Route::kTableInvite:
    case Route::kPairingStatus:
    case Route::kJoinByInvite:
    case Route::kQuickPair:
    case Route::kPlayComputer:
      return true;
    default:
      return false;
  }
}

HttpResponse LobbyHandlers::InvitePage(const RouteMatch& route) {
  HttpResponse response;
  response.status = 302;
  response.content_type = "text/plain; charset=utf-8";
  response.body = "joining the table\n";
  response.headers.emplace_back("Location", absl::StrCat("/#/join/", route.table_id));
  response.headers.emplace_back("Cache-Control", "no-store");
  return response;
}

HttpResponse LobbyHandlers::Handle(const RouteMatch& route, const HttpRequest& request,
                                   const Session& session) {
  switch (route.route) {
    case Route::kListTables:
      return ListTables(request);
    case Route::kGetTable:
      return GetTable(route, RequesterOf(session));
    case Route::kTableInvite:
      return TableInvite(route, RequesterOf(session));
    case Route::kPairingStatus:
      return PairingStatus(route, RequesterOf(session));
    default:
      return Act(route, request, session);
  }
}

HttpResponse LobbyHandlers::ListTables(const HttpRequest& request) {
  v1::ListTablesRequest list;
  if (std::optional<std::string> variant = QueryParameter(request.query, "variant")) {
    list.set_variant(*variant);
  }
  if (std::optional<std::string> time = QueryParameter(request.query, "timePerMove");
      time.has_value() && !time->empty()) {
    std::optional<int64_t> seconds = ParseSeconds(*time);
    if (!seconds.has_value() || *seconds > kMaxTimePerMoveSeconds) {
      return ErrorResponse(absl::InvalidArgumentError(
          "?timePerMove= must be whole seconds such as 60s (0s: no limit)"));
    }
    list.mutable_time_per_move()->set_seconds(*seconds);
  }
  if (std::optional<std::string> open = QueryParameter(request.query, "openSeatsOnly")) {
    if (*open != "true" && *open != "false" && !open->empty()) {
      return ErrorResponse(absl::InvalidArgumentError("?openSeatsOnly= must be true or false"));
    }
    list.set_open_seats_only(*open == "true");
  }
  if (std::optional<std::string> size = QueryParameter(request.query, "pageSize");
      size.has_value() && !size->empty()) {
    int page_size = 0;
    if (!absl::SimpleAtoi(*size, &page_size) || page_size < 1 || page_size > 100) {
      return ErrorResponse(absl::InvalidArgumentError("?pageSize= must be 1-100"));
    }
    list.set_page_size(page_size);
  }
  if (std::optional<std::string> token = QueryParameter(request.query, "pageToken")) {
    list.set_page_token(*token);
  }
  absl::StatusOr<v1::ListTablesResponse> listed = matchmaking_->ListTables(list);
  if (!listed.ok()) return ErrorResponse(listed.status());
  v1::WebListTablesResponse answer;
  for (v1::Table& table : *listed->mutable_tables()) {
    table.clear_invite_code();  // no requester here, so none; never pass one on
    *answer.add_tables() = std::move(table);
  }
  answer.set_next_page_token(listed->next_page_token());
  return Json(answer);
}

HttpResponse LobbyHandlers::GetTable(const RouteMatch& route, const v1::Seat& requester) {
  v1::GetTableRequest get;
  get.set_table_id(route.table_id);
  *get.mutable_requester() = requester;
  absl::StatusOr<v1::GetTableResponse> found = matchmaking_->GetTable(get);
  if (!found.ok()) return ErrorResponse(found.status());
  return Json(TableAnswer(found->table(), found->your_tokens()));
}

HttpResponse LobbyHandlers::TableInvite(const RouteMatch& route, const v1::Seat& requester) {
  v1::GetInviteLinkRequest get;
  get.set_table_id(route.table_id);
  *get.mutable_requester() = requester;
  absl::StatusOr<v1::GetInviteLinkResponse> link = matchmaking_->GetInviteLink(get);
  if (!link.ok()) return ErrorResponse(link.status());
  v1::WebInviteResponse answer;
  answer.set_invite_code(link->invite_code());
  answer.set_path(absl::StrCat("/join/", link->invite_code()));
  return Json(answer);
}

HttpResponse LobbyHandlers::PairingStatus(const RouteMatch& route, const v1::Seat& requester) {
  v1::GetTableRequest get;
  get.set_table_id(route.table_id);
  *get.mutable_requester() = requester;
  absl::StatusOr<v1::GetTableResponse> found = matchmaking_->GetTable(get);
  if (found.ok()) {
    const bool waiting = found->table().status() == v1::TABLE_STATUS_WAITING;
    return Json(TableAnswer(found->table(), found->your_tokens(), waiting));
  }
  if (!absl::IsNotFound(found.status())) return ErrorResponse(found.status());
  // Closed: its events (kept a while after) say where the player went. The
  // stream replays from the first event and ends after TableClosed.
  grpc::ClientContext context;
  context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(2));
  std::unique_ptr<grpc::ClientReaderInterface<v1::TableEvent>> events =
      matchmaking_->Watch(&context, route.table_id, "");
  v1::TableEvent event;
  std::string paired_table_id;
  while (events->Read(&event)) {
    if (event.has_table_closed()) {
      paired_table_id = event.table_closed().paired_table_id();
      break;
    }
  }
  context.TryCancel();
  (void)events->Finish();
  if (paired_table_id.empty()) return ErrorResponse(found.status());
  get.set_table_id(paired_table_id);
  found = matchmaking_->GetTable(get);
  if (!found.ok()) return ErrorResponse(found.status());
  return Json(TableAnswer(found->table(), found->your_tokens()));
}

absl::StatusOr<int> LobbyHandlers::RatingFor(const Session& session, const std::string& variant) {
  if (!session.is_person()) return 0;  // guests play unrated (0 = 1500)
  if (ratings_ == nullptr) return absl::UnavailableError("ratings are not configured");
  v1::GetRatingRequest get;
  get.set_player_id(session.player_id);
  get.set_variant(variant);
  platform::CallOptions options;
  options.safe_to_retry = true;
  absl::StatusOr<v1::GetRatingResponse> rating =
      ratings_->Call(&RatingReader::Stub::GetRating, get, options);
  if (!rating.ok()) {
    return absl::Status(rating.status().code(),
                        absl::StrCat("the rating service: ", rating.status().message()));
  }
  return rating->rating().elo();
}

HttpResponse LobbyHandlers::Act(const RouteMatch& route, const HttpRequest& request,
                                const Session& session) {
  if (request.idempotency_key.has_value()) {
    if (absl::Status key = ValidateIdempotencyKey(*request.idempotency_key); !key.ok()) {
      return ErrorResponse(key);
    }
  }
  const v1::Seat requester = RequesterOf(session);
  PreparedAction action;
  action.operation = absl::StrCat(std::string(RouteLabel(route.route)), ":", route.table_id);
  const std::string table_id = route.table_id;
  absl::Status parsed = absl::OkStatus();
  MatchmakingBackend* matchmaking = matchmaking_;

  switch (route.route) {
    case Route::kCreateTable: {
      auto body = std::make_shared<v1::WebCreateTableRequest>();
      parsed = ParseBody(request.body, body.get());
      if (parsed.ok()) parsed = CheckVariantGiven(body->variant());
      if (parsed.ok()) parsed = CheckPassword(body->password());
      if (parsed.ok()) parsed = CheckTimePerMove(body->time_per_move(), body->has_time_per_move());
      if (parsed.ok() && body->rated() && !session.is_person()) {
        parsed = absl::InvalidArgumentError("rated tables are for accounts: log in first");
      }
      action.call = [=](const std::string& key) -> absl::StatusOr<v1::WebTableResponse> {
        v1::CreateTableRequest create;
        create.set_idempotency_key(key);
        *create.mutable_requester() = requester;
        create.set_variant(body->variant());
        *create.mutable_options() = body->options();
        if (body->has_time_per_move()) *create.mutable_time_per_move() = body->time_per_move();
        create.set_rated(body->rated());
        create.set_password(body->password());
        DRAUGHTS_ASSIGN_OR_RETURN(v1::CreateTableResponse created,
                                  matchmaking->CreateTable(create));
        platform::LogInfo("table created", {{"table", created.table().table_id()},
                                            {"variant", created.table().variant()},
                                            {"private", created.table().has_password()}});
        return TableAnswer(created.table(), {});
      };
      auto fingerprinted = std::make_unique<v1::WebCreateTableRequest>(*body);
      // A digest of a password could be guessed back from; presence is
      // enough to tell two requests apart.
      fingerprinted->set_password(body->password().empty() ? "" : "set");
      action.fingerprinted = std::move(fingerprinted);
      break;
    }
    case Route::kJoinTable:
    case Route::kJoinByInvite: {
      auto body = std::make_shared<v1::WebJoinTableRequest>();
      parsed = ParseBody(request.body, body.get());
      if (parsed.ok()) parsed = CheckPassword(body->password());
      if (parsed.ok() && route.route == Route::kJoinByInvite && !body->password().empty()) {
        parsed = absl::InvalidArgumentError("an invite link needs no password");
      }
      const bool by_invite = route.route == Route::kJoinByInvite;
      action.call = [=](const std::string& key) -> absl::StatusOr<v1::WebTableResponse> {
        v1::JoinTableRequest join;
        join.set_idempotency_key(key);
        *join.mutable_requester() = requester;
        if (by_invite) {
          join.set_invite_code(table_id);
        } else {
          join.set_table_id(table_id);
          join.set_password(body->password());
        }
        DRAUGHTS_ASSIGN_OR_RETURN(v1::JoinTableResponse joined, matchmaking->JoinTable(join));
        return TableAnswer(joined.table(), {});
      };
      action.fingerprinted = std::make_unique<v1::WebJoinTableRequest>();
      break;
    }
    case Route::kLeaveTable:
    case Route::kStartTable: {
      v1::WebJoinTableRequest none;  // no body fields: {} or nothing
      parsed = ParseBody(request.body, &none);
      if (parsed.ok() && !none.password().empty()) {
        parsed = absl::InvalidArgumentError("this route takes no body");
      }
      const bool leave = route.route == Route::kLeaveTable;
      action.call = [=](const std::string& key) -> absl::StatusOr<v1::WebTableResponse> {
        if (leave) {
          v1::LeaveTableRequest request;
          request.set_idempotency_key(key);
          *request.mutable_requester() = requester;
          request.set_table_id(table_id);
          DRAUGHTS_ASSIGN_OR_RETURN(v1::LeaveTableResponse left, matchmaking->LeaveTable(request));
          return TableAnswer(left.table(), {});
        }
        v1::StartGameRequest request;
        request.set_idempotency_key(key);
        *request.mutable_requester() = requester;
        request.set_table_id(table_id);
        DRAUGHTS_ASSIGN_OR_RETURN(v1::StartGameResponse started, matchmaking->StartGame(request));
        return TableAnswer(started.table(), started.your_tokens());
      };
      action.fingerprinted = std::make_unique<v1::WebJoinTableRequest>();
      break;
    }
    case Route::kFillSeats: {
      auto body = std::make_shared<v1::WebFillSeatsRequest>();
      parsed = ParseBody(request.body, body.get());
      if (parsed.ok() && body->level() == v1::BOT_LEVEL_UNSPECIFIED && body->engine_id().empty()) {
        parsed = absl::InvalidArgumentError("\"level\" (or \"engineId\") is required");
      }
      action.call = [=](const std::string& key) -> absl::StatusOr<v1::WebTableResponse> {
        v1::FillSeatsWithBotsRequest fill;
        fill.set_idempotency_key(key);
        *fill.mutable_requester() = requester;
        fill.set_table_id(table_id);
        fill.set_level(body->level());
        fill.set_engine_id(body->engine_id());
        DRAUGHTS_ASSIGN_OR_RETURN(v1::FillSeatsWithBotsResponse filled,
                                  matchmaking->FillSeatsWithBots(fill));
        return TableAnswer(filled.table(), {});
      };
      action.fingerprinted = std::make_unique<v1::WebFillSeatsRequest>(*body);
      break;
    }
    case Route::kQuickPair: {
      auto body = std::make_shared<v1::WebQuickPairRequest>();
      parsed = ParseBody(request.body, body.get());
      if (parsed.ok()) parsed = CheckVariantGiven(body->variant());
      if (parsed.ok()) parsed = CheckTimePerMove(body->time_per_move(), body->has_time_per_move());
      if (parsed.ok() && body->rated() && !session.is_person()) {
        parsed = absl::InvalidArgumentError("rated games are for accounts: log in first");
      }
      const Session player = session;
      action.call = [=, this](const std::string& key) -> absl::StatusOr<v1::WebTableResponse> {
        absl::StatusOr<int> rating = RatingFor(player, body->variant());
        if (!rating.ok() && body->rated()) return rating.status();
        if (!rating.ok()) {
          // Unrated: pairing by a default rating beats not pairing at all.
          platform::LogWarn("quick pair without the player's rating",
                            {{"error", std::string(rating.status().message())}});
          rating = 0;
        }
        v1::QuickPairRequest pair;
        pair.set_idempotency_key(key);
        *pair.mutable_requester() = requester;
        pair.set_variant(body->variant());
        *pair.mutable_options() = body->options();
        if (body->has_time_per_move()) *pair.mutable_time_per_move() = body->time_per_move();
        pair.set_rated(body->rated());
        pair.set_rating(*rating);
        DRAUGHTS_ASSIGN_OR_RETURN(v1::QuickPairResponse paired, matchmaking->QuickPair(pair));
        return TableAnswer(paired.table(), paired.your_tokens(), paired.created());
      };
      action.fingerprinted = std::make_unique<v1::WebQuickPairRequest>(*body);
      break;
    }
    case Route::kPlayComputer: {
      auto body = std::make_shared<v1::WebPlayComputerRequest>();
      parsed = ParseBody(request.body, body.get());
      if (parsed.ok()) parsed = CheckVariantGiven(body->variant());
      if (parsed.ok()) parsed = CheckTimePerMove(body->time_per_move(), body->has_time_per_move());
      action.call = [=](const std::string& key) -> absl::StatusOr<v1::WebTableResponse> {
        v1::CreateTableRequest create;
        create.set_idempotency_key(absl::StrCat(key, ".t"));
        *create.mutable_requester() = requester;
        create.set_variant(body->variant());
        *create.mutable_options() = body->options();
        if (body->has_time_per_move()) *create.mutable_time_per_move() = body->time_per_move();
        create.set_vs_computer(true);
        create.set_bot_level(body->level() == v1::BOT_LEVEL_UNSPECIFIED ? v1::BOT_LEVEL_EASY
                                                                        : body->level());
        create.set_creator_color(body->color());
        DRAUGHTS_ASSIGN_OR_RETURN(v1::CreateTableResponse created,
                                  matchmaking->CreateTable(create));
        v1::StartGameRequest start;
        start.set_idempotency_key(absl::StrCat(key, ".g"));
        *start.mutable_requester() = requester;
        start.set_table_id(created.table().table_id());
        DRAUGHTS_ASSIGN_OR_RETURN(v1::StartGameResponse started, matchmaking->StartGame(start));
        platform::LogInfo("game against the computer started",
                          {{"table", started.table().table_id()},
                           {"game", started.table().game_id()},
                           {"variant", started.table().variant()}});
        return TableAnswer(started.table(), started.your_tokens());
      };
      action.fingerprinted = std::make_unique<v1::WebPlayComputerRequest>(*body);
      break;
    }
    default:
      return ErrorResponse(absl::NotFoundError("no such path"));
  }
  // Bad input changes nothing and costs no token.
  if (!parsed.ok()) return ErrorResponse(parsed);
  if (const absl::Duration wait = limiter_.Take(session.player_id); wait > absl::ZeroDuration()) {
    HttpResponse limited = ErrorResponse(
        absl::ResourceExhaustedError("too many actions in a row: wait a moment and retry"));
    limited.headers.emplace_back(
        "Retry-After", absl::StrCat(std::max<int64_t>(1, std::ceil(absl::ToDoubleSeconds(wait)))));
    return limited;
  }
  auto answer = [&](const std::string& backend_key) {
    absl::StatusOr<v1::WebTableResponse> result = action.call(backend_key);
    if (!result.ok()) return ErrorResponse(result.status());
    return Json(*result);
  };
  if (!request.idempotency_key.has_value()) {
    // No key, no dedupe: a fresh random key, so a retry acts again.
    return answer(absl::StrCat("gw-", NewSessionId()));
  }
  const std::string& key = *request.idempotency_key;
  const std::string fingerprint = RequestFingerprint(action.operation, *action.fingerprinted);
  return RespondOnce(*idempotency_, session.player_id, key, fingerprint, [&] {
    return answer(BackendIdempotencyKey(action.operation, session.player_id, key));
  });
}

}  // namespace draughts::gateway
