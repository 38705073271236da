#include "gateway/table_frames.h"

#include <google/protobuf/util/json_util.h>

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "gateway/error_mapping.h"
#include "gateway/proto_json.h"
#include "platform/proto_time.h"

namespace draughts::gateway {
namespace {

bool Holds(const std::vector<v1::Color>& colors, v1::Color color) {
  return std::find(colors.begin(), colors.end(), color) != colors.end();
}

const v1::PlayerState* PlayerOf(const v1::GameState& game, v1::Color color) {
  if (color == v1::COLOR_WHITE) return &game.white();
  if (color == v1::COLOR_BLACK) return &game.black();
  return nullptr;
}

// Legal moves go only to a socket holding the side to move of an ongoing game.
bool ShowsLegalMoves(const GameView& view, const std::vector<v1::Color>& colors) {
  return view.game.result() == v1::GAME_RESULT_ONGOING && Holds(colors, view.game.side_to_move());
}

v1::Color Opponent(v1::Color color) {
  return color == v1::COLOR_WHITE ? v1::COLOR_BLACK : v1::COLOR_WHITE;
}

}  // namespace

absl::StatusOr<v1::ClientFrame> ParseClientFrame(std::string_view text, std::string* request_id) {
  v1::ClientFrame frame;
  google::protobuf::util::JsonParseOptions options;
  options.ignore_unknown_fields = false;
  const auto parsed = google::protobuf::util::JsonStringToMessage(
      google::protobuf::StringPiece(text.data(), text.size()), &frame, options);
  if (!parsed.ok()) {
    // The request id from a lenient read, so even a frame the strict parse
    // refuses is answered under its id. Only here: JSON parsing is a large
    // part of a move's cost in the gateway, and a valid frame has it.
    absl::StatusOr<google::protobuf::Struct> object = ParseJsonObject(text);
    if (!object.ok()) return object.status();
    absl::StatusOr<std::optional<std::string>> id = OptionalStringField(*object, "requestId");
    if (id.ok() && id->has_value() && request_id != nullptr &&
        (*id)->size() <= kMaxRequestIdBytes) {
      *request_id = **id;
    }
    std::string why(parsed.message());
    if (why.size() > 200) why.resize(200);
    return absl::InvalidArgumentError(absl::StrCat("not a ClientFrame: ", why));
  }
  if (frame.request_id().size() > kMaxRequestIdBytes) {
    return absl::InvalidArgumentError(
        absl::StrCat("\"requestId\" is longer than ", kMaxRequestIdBytes, " bytes"));
  }
  if (request_id != nullptr) *request_id = frame.request_id();
  if (frame.action_case() == v1::ClientFrame::ACTION_NOT_SET) {
    return absl::InvalidArgumentError(
        "no action: send one of ping, move, resign, offerDraw, answerDraw, undo, voteRematch, "
        "startGame, leave, postChat");
  }
  if (frame.has_move() && frame.move().notation().empty()) {
    return absl::InvalidArgumentError("\"move.notation\" is required");
  }
  for (int ply : {frame.move().expected_ply(), frame.resign().expected_ply(),
                  frame.offer_draw().expected_ply(), frame.answer_draw().expected_ply(),
                  frame.undo().expected_ply()}) {
    if (ply < 0) return absl::InvalidArgumentError("\"expectedPly\" must be 0 or more");
  }
  return frame;
}

std::string FrameJson(const v1::ServerFrame& frame) {
  return MessageToJson(frame);
}

v1::ServerFrame TableAckFrame(std::string_view request_id, bool started) {
  v1::ServerFrame frame;
  frame.set_request_id(std::string(request_id));
  frame.mutable_ack()->set_started(started);
  return frame;
}

v1::ServerFrame TableErrorFrame(std::string_view request_id, const absl::Status& status) {
  v1::ServerFrame frame;
  frame.set_request_id(std::string(request_id));
  frame.mutable_error()->set_code(std::string(StatusCodeName(status.code())));
  frame.mutable_error()->set_message(std::string(status.message()));
  return frame;
}

v1::ServerFrame::Score TableScore::Empty() {
  v1::ServerFrame::Score score;
  score.add_wins(0);
  score.add_wins(0);
  return score;
}

void TableScore::Apply(const v1::TableEvent& event) {
  if (!event.has_game_finished()) return;
  const v1::GameResult result = event.game_finished().result();
  score_.set_games_finished(score_.games_finished() + 1);
  if (result == v1::GAME_RESULT_DRAW) {
    score_.set_draws(score_.draws() + 1);
    return;
  }
  const v1::Color winner = result == v1::GAME_RESULT_WHITE_WINS   ? v1::COLOR_WHITE
                           : result == v1::GAME_RESULT_BLACK_WINS ? v1::COLOR_BLACK
                                                                  : v1::COLOR_UNSPECIFIED;
  for (const v1::TableSeat& seat : event.table().seats()) {
    if (winner != v1::COLOR_UNSPECIFIED && seat.color() == winner && seat.index() >= 0 &&
        seat.index() < 2) {
      score_.set_wins(seat.index(), score_.wins(seat.index()) + 1);
    }
  }
}

bool SeatBinding::holds(int index) const {
  return std::find(seat_indexes.begin(), seat_indexes.end(), index) != seat_indexes.end();
}

std::vector<v1::Color> ColorsOf(const v1::Table& table, const SeatBinding& binding) {
  std::vector<v1::Color> colors;
  for (const v1::TableSeat& seat : table.seats()) {
    if (binding.holds(seat.index()) && seat.color() != v1::COLOR_UNSPECIFIED) {
      colors.push_back(seat.color());
    }
  }
  return colors;
}

v1::ServerFrame TableViewFrame(const v1::Table& table, const TableScore& score,
                               const SeatBinding& binding, const v1::GameState* game,
                               const v1::GetClockResponse* clock, const v1::TableEvent* event) {
  v1::ServerFrame frame;
  v1::ServerFrame::TableView* view = frame.mutable_table();
  *view->mutable_table() = table;
  view->mutable_table()->clear_invite_code();
  *view->mutable_score() = score.score();
  const bool game_is_current = game != nullptr && game->game_id() == table.game_id();
  for (int index = 0; index < 2; ++index) {
    v1::ServerFrame::SeatView* seat = view->add_seats();
    seat->set_index(index);
    seat->set_yours(binding.holds(index));
    seat->set_wins(score.score().wins(index));
    for (const v1::TableSeat& table_seat : table.seats()) {
      if (table_seat.index() != index) continue;
      if (table_seat.has_occupant()) *seat->mutable_occupant() = table_seat.occupant();
      seat->set_color(table_seat.color());
      seat->set_rematch_vote(table_seat.rematch_vote());
    }
    if (seat->occupant().kind() == v1::SEAT_KIND_BOT) seat->set_connected(true);
    if (!game_is_current || seat->color() == v1::COLOR_UNSPECIFIED) continue;
    const v1::PlayerState* player = PlayerOf(*game, seat->color());
    if (player == nullptr) continue;
    seat->set_connected(player->connected() || seat->occupant().kind() == v1::SEAT_KIND_BOT);
    seat->set_computer_playing(player->computer_playing());
    if (clock == nullptr || game->result() != v1::GAME_RESULT_ONGOING) continue;
    for (const v1::SeatPresence& presence : clock->presence()) {
      if (presence.color() == seat->color() && !presence.connected() &&
          presence.has_abandon_deadline() && !player->computer_playing()) {
        *seat->mutable_abandon_deadline() = presence.abandon_deadline();
      }
    }
  }
  if (event != nullptr) {
    view->set_last_event_id(event->event_id());
    *view->mutable_event() = *event;
    view->mutable_event()->mutable_table()->clear_invite_code();
  }
  return frame;
}

std::string TableViewGameKey(const v1::GameState* game, const v1::GetClockResponse* clock) {
  if (game == nullptr) return "";
  std::string key = absl::StrCat(game->game_id(), "|", game->result());
  for (const v1::PlayerState* player : {&game->white(), &game->black()}) {
    absl::StrAppend(&key, "|", player->connected() ? 1 : 0, player->computer_playing() ? 1 : 0);
  }
  if (clock != nullptr) {
    for (const v1::SeatPresence& presence : clock->presence()) {
      absl::StrAppend(&key, "|", presence.color(), presence.connected() ? 1 : 0);
      if (presence.has_abandon_deadline()) {
        absl::StrAppend(&key, ":", presence.abandon_deadline().seconds(), ".",
                        presence.abandon_deadline().nanos());
      }
    }
  }
  return key;
}

v1::ServerFrame TableSnapshotFrame(const GameView& view, const std::vector<v1::Color>& colors,
                                   const v1::ServerFrame::ClockView& clock) {
  v1::ServerFrame frame;
  v1::ServerFrame::Snapshot* snapshot = frame.mutable_snapshot();
  *snapshot->mutable_game() = view.game;
  for (v1::Color color : colors) snapshot->add_your_colors(color);
  if (ShowsLegalMoves(view, colors)) {
    *snapshot->mutable_legal_moves() = view.moves.moves();
    snapshot->set_must_capture(view.moves.must_capture());
  }
  *snapshot->mutable_clock() = clock;
  return frame;
}

SnapshotJsonParts PrintSnapshotParts(const GameView& view,
                                     const v1::ServerFrame::ClockView& clock) {
  SnapshotJsonParts parts;
  parts.game = MessageToJson(view.game);
  parts.clock = MessageToJson(clock);
  parts.legal_moves = "[";
  for (const v1::LegalMove& move : view.moves.moves()) {
    if (parts.legal_moves.size() > 1) parts.legal_moves.push_back(',');
    parts.legal_moves += MessageToJson(move);
  }
  parts.legal_moves.push_back(']');
  return parts;
}

std::string TableSnapshotJson(const GameView& view, const SnapshotJsonParts& parts,
                              const std::vector<v1::Color>& colors) {
  // Fields in the order protobuf's printer writes them (the differential
  // test in table_frames_test.cc compares with FrameJson).
  const bool with_moves = ShowsLegalMoves(view, colors);
  std::string json;
  json.reserve(parts.game.size() + (with_moves ? parts.legal_moves.size() : 0) +
               parts.clock.size() + 128);
  absl::StrAppend(&json, R"({"requestId":"","snapshot":{"game":)", parts.game, R"(,"legalMoves":)",
                  with_moves ? parts.legal_moves : "[]", R"(,"mustCapture":)",
                  with_moves && view.moves.must_capture() ? "true" : "false", R"(,"yourColors":[)");
  for (std::size_t i = 0; i < colors.size(); ++i) {
    absl::StrAppend(&json, i > 0 ? "," : "", "\"", v1::Color_Name(colors[i]), "\"");
  }
  absl::StrAppend(&json, R"(],"clock":)", parts.clock, "}}");
  return json;
}

std::optional<std::string> EventWithSnapshotJson(std::string_view event_frame,
                                                 std::string_view snapshot_frame) {
  constexpr std::string_view kEventStart = R"({"requestId":"","gameEvent":{)";
  constexpr std::string_view kSnapshotStart = R"({"requestId":"","snapshot":)";
  if (!event_frame.starts_with(kEventStart) || !event_frame.ends_with("}") ||
      !snapshot_frame.starts_with(kSnapshotStart) || !snapshot_frame.ends_with("}}")) {
    return std::nullopt;
  }
  // snapshot_after (21) comes after the oneof's game_event (13) in
  // protobuf's field order.
  constexpr std::string_view kMember = R"(,"snapshotAfter":)";
  const std::string_view snapshot = snapshot_frame.substr(
      kSnapshotStart.size(), snapshot_frame.size() - kSnapshotStart.size() - 1);
  std::string json;
  json.reserve(event_frame.size() + kMember.size() + snapshot.size());
  json.append(event_frame.substr(0, event_frame.size() - 1));
  json.append(kMember);
  json.append(snapshot);
  json.push_back('}');
  return json;
}

v1::ServerFrame::ClockView TableClockView(const v1::GameState& game,
                                          const v1::GetClockResponse* clock, absl::Time now) {
  v1::ServerFrame::ClockView timer;
  timer.set_game_id(game.game_id());
  timer.set_white_timeouts(game.white().consecutive_automatic_moves());
  timer.set_black_timeouts(game.black().consecutive_automatic_moves());
  timer.set_color(game.side_to_move());
  timer.set_expected_ply(game.ply());
  if (clock != nullptr && clock->armed() && game.result() == v1::GAME_RESULT_ONGOING &&
      clock->expected_ply() == game.ply()) {
    timer.set_armed(true);
    timer.set_color(clock->color());
    if (clock->has_deadline()) *timer.mutable_deadline() = clock->deadline();
    if (clock->has_remaining()) *timer.mutable_remaining() = clock->remaining();
    if (clock->has_server_time()) *timer.mutable_server_time() = clock->server_time();
  } else if (game.result() == v1::GAME_RESULT_ONGOING && game.has_move_deadline()) {
    // Not read, or not caught up with this ply yet: game_state's own
    // deadline is the one the clock arms.
    timer.set_armed(true);
    *timer.mutable_deadline() = game.move_deadline();
    const absl::Duration remaining =
        std::max(platform::FromProtoTime(game.move_deadline()) - now, absl::ZeroDuration());
    *timer.mutable_remaining() = platform::ToProtoDuration(remaining);
    *timer.mutable_server_time() = platform::ToProtoTime(now);
  }
  return timer;
}

v1::ServerFrame TableGameOverFrame(const v1::GameEvent& ended) {
  v1::ServerFrame frame;
  v1::ServerFrame::GameOver* over = frame.mutable_game_over();
  over->set_game_id(ended.game_id());
  over->set_result(ended.game_ended().result());
  over->set_reason(ended.game_ended().reason());
  over->set_by(ended.game_ended().by());
  return frame;
}

absl::StatusOr<v1::Color> ActingColor(const std::vector<v1::Color>& held, v1::Color asked,
                                      const v1::GameState& game, bool answering_draw) {
  if (held.empty()) {
    return absl::PermissionDeniedError("you are watching this table: only its players can do this");
  }
  if (game.game_id().empty()) return absl::FailedPreconditionError("no game is being played");
  if (asked != v1::COLOR_UNSPECIFIED) {
    if (!Holds(held, asked)) return absl::PermissionDeniedError("you do not play that colour");
    return asked;
  }
  if (held.size() == 1) return held.front();
  // Both colours (hotseat): the one whose turn it is to act.
  if (answering_draw && game.draw_offered_by() != v1::COLOR_UNSPECIFIED) {
    return Opponent(game.draw_offered_by());
  }
  if (Holds(held, game.side_to_move())) return game.side_to_move();
  return held.front();
}

}  // namespace draughts::gateway
