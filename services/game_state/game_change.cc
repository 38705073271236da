#include "game_state/game_change.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "game_state/player_tokens.h"
#include "game_state/proto_convert.h"
#include "game_state/request_checks.h"
#include "platform/proto_time.h"
#include "rules/fen.h"

namespace draughts::game_state {
namespace {

// Three automatic moves in a row lose the game (PRODUCT.md).
constexpr int kAutomaticMovesToLose = 3;

// The level the computer plays at for a person who is away.
constexpr v1::BotLevel kStandInLevel = v1::BOT_LEVEL_MEDIUM;

}  // namespace

v1::PlayerState& PlayerOf(v1::GameState& state, v1::Color color) {
  return color == v1::COLOR_WHITE ? *state.mutable_white() : *state.mutable_black();
}
const v1::PlayerState& PlayerOf(const v1::GameState& state, v1::Color color) {
  return color == v1::COLOR_WHITE ? state.white() : state.black();
}
SeatSecrets& SecretsOf(StoredGame& game, v1::Color color) {
  return color == v1::COLOR_WHITE ? *game.mutable_white() : *game.mutable_black();
}
const SeatSecrets& SecretsOf(const StoredGame& game, v1::Color color) {
  return color == v1::COLOR_WHITE ? game.white() : game.black();
}

bool IsComputerControlled(const v1::PlayerState& player) {
  return player.seat().kind() == v1::SEAT_KIND_BOT || player.computer_playing();
}

bool IsOver(const v1::GameState& state) {
  return state.result() != v1::GAME_RESULT_ONGOING && state.result() != v1::GAME_RESULT_UNSPECIFIED;
}

GameChange::GameChange(const StoredGame& before, absl::Time now)
    : base_version_(before.state().version()), now_(now) {
  change_.expected_version = before.state().version();
  change_.previous_activity = platform::FromProtoTime(before.state().updated_at());
  change_.game = before;
  v1::GameState& state = *change_.game.mutable_state();
  state.clear_last_event_id();
  *state.mutable_updated_at() = platform::ToProtoTime(now);
}

v1::GameEvent& GameChange::AddEvent() {
  v1::GameEvent& event = change_.events.emplace_back();
  event.set_game_id(change_.game.state().game_id());
  event.set_version(base_version_ + static_cast<int64_t>(change_.events.size()));
  *event.mutable_timestamp() = platform::ToProtoTime(now_);
  return event;
}

void GameChange::ResetDeadline() {
  clock_changed_ = true;
  v1::GameState& s = state();
  const absl::Duration per_move = platform::FromProtoDuration(s.time_per_move());
  if (per_move > absl::ZeroDuration() && !IsOver(s)) {
    *s.mutable_move_deadline() = platform::ToProtoTime(now_ + per_move);
  } else {
    s.clear_move_deadline();
  }
}

v1::MovePlayed GameChange::PlayMove(rules::GameRecord& record, const rules::Move& move,
                                    bool automatic) {
  v1::GameState& s = state();
  const rules::Color mover = record.position().side_to_move();
  const v1::Color color = ToProto(mover);
  const rules::MoveList legal_before = record.legal_moves();
  if (std::optional<rules::Error> error = record.Apply(move)) {
    // Callers only pass moves from legal_moves(); keep the state unchanged
    // rather than crash if that promise is ever broken.
    return {};
  }

  v1::MovePlayed played = DescribeMove(legal_before, move, mover, record.position());
  // MovePlayed comes first; a lapsed offer and the end of the game follow it.
  const std::size_t moved_event = change_.events.size();
  AddEvent();
  s.add_moves(played.notation());
  s.set_fen(played.fen_after());
  s.set_ply(s.ply() + 1);

  v1::PlayerState& player = PlayerOf(s, color);
  player.set_pieces_captured(player.pieces_captured() + move.capture_count);
  if (automatic) {
    player.set_consecutive_automatic_moves(player.consecutive_automatic_moves() + 1);
    game().add_automatic_plies(s.ply() - 1);
  } else {
    player.set_consecutive_automatic_moves(0);
  }
  played.set_automatic(automatic);
  played.set_consecutive_automatic_moves(automatic ? player.consecutive_automatic_moves() : 0);

  const ProtoOutcome outcome = ToProto(record);
  const bool goes_on = outcome.result == v1::GAME_RESULT_ONGOING;
  const bool timed_out =
      goes_on && automatic && player.consecutive_automatic_moves() >= kAutomaticMovesToLose;
  s.set_side_to_move(goes_on && !timed_out ? ToProto(record.position().side_to_move())
                                           : v1::COLOR_UNSPECIFIED);
  // Provisional (EndGame below completes it): a finished game has no deadline.
  s.set_result(timed_out ? WinFor(OpponentOf(color)) : outcome.result);
  ResetDeadline();
  if (s.has_move_deadline()) *played.mutable_next_move_deadline() = s.move_deadline();
  *s.mutable_last_move() = played;
  *change_.events[moved_event].mutable_move_played() = played;

  // An offer stands until its addressee answers or plays on; a move by the
  // player who offered leaves it standing.
  if (s.draw_offered_by() == OpponentOf(color)) {
    v1::GameEvent& lapsed = AddEvent();
    lapsed.mutable_draw_declined()->set_by(color);
    lapsed.mutable_draw_declined()->set_lapsed(true);
    s.set_draw_offered_by(v1::COLOR_UNSPECIFIED);
  }

  if (!goes_on) {
    const bool decisive = outcome.reason == v1::RESULT_REASON_NO_PIECES ||
                          outcome.reason == v1::RESULT_REASON_NO_MOVES;
    // Who could not move is the side to move in the final position.
    EndGame(outcome.result, outcome.reason,
            decisive ? ToProto(record.position().side_to_move()) : v1::COLOR_UNSPECIFIED);
  } else if (timed_out) {
    EndGame(WinFor(OpponentOf(color)), v1::RESULT_REASON_TIMEOUTS, color);
  }
  return played;
}

void GameChange::EndGame(v1::GameResult result, v1::ResultReason reason, v1::Color by) {
  v1::GameState& s = state();
  s.set_result(result);
  s.set_reason(reason);
  s.set_side_to_move(v1::COLOR_UNSPECIFIED);
  s.set_draw_offered_by(v1::COLOR_UNSPECIFIED);
  s.clear_move_deadline();
  clock_changed_ = true;
  v1::GameEvent& event = AddEvent();
  v1::GameEnded& ended = *event.mutable_game_ended();
  ended.set_result(result);
  ended.set_reason(reason);
  ended.set_by(by);
  ended.set_final_fen(s.fen());
  QueueResult(by);
}

void GameChange::QueueResult(v1::Color ended_by) {
  const v1::GameState& s = state();
  v1::ResultRecord record;
  record.set_game_id(s.game_id());
  record.set_table_id(s.table_id());
  record.set_variant(s.variant());
  *record.mutable_options() = s.options();
  *record.mutable_white() = s.white().seat();
  *record.mutable_black() = s.black().seat();
  record.set_rated(s.rated());
  record.set_result(s.result());
  record.set_reason(s.reason());
  record.set_ply(s.ply());
  *record.mutable_started_at() = s.created_at();
  *record.mutable_finished_at() = platform::ToProtoTime(now_);
  record.set_initial_fen(s.initial_fen());
  *record.mutable_moves() = s.moves();
  record.set_final_fen(s.fen());
  if (s.has_time_per_move()) *record.mutable_time_per_move() = s.time_per_move();
  record.set_ended_by(ended_by);
  change_.outbox.push_back({OutboxMessage::Kind::kResult, record.SerializeAsString()});
}

void GameChange::QueueClockUpdate() {
  const v1::GameState& s = state();
  v1::ClockUpdate update;
  update.set_game_id(s.game_id());
  update.set_game_version(s.version());
  update.set_expected_ply(s.ply());
  const bool over = IsOver(s);
  update.set_game_over(over);
  update.set_color(over ? v1::COLOR_UNSPECIFIED : s.side_to_move());
  if (!over && s.has_move_deadline()) *update.mutable_deadline() = s.move_deadline();
  for (v1::Color color : {v1::COLOR_WHITE, v1::COLOR_BLACK}) {
    const v1::SeatKind kind = PlayerOf(s, color).seat().kind();
    if (kind == v1::SEAT_KIND_PERSON || kind == v1::SEAT_KIND_GUEST) update.add_human_seats(color);
  }
  change_.outbox.push_back({OutboxMessage::Kind::kClockUpdate, update.SerializeAsString()});
}

void GameChange::SetComputerPlaying(v1::Color color, bool playing) {
  v1::PlayerState& player = PlayerOf(state(), color);
  SeatSecrets& secrets = SecretsOf(game(), color);
  player.set_computer_playing(playing);
  if (playing) {
    if (secrets.computer_token().empty()) secrets.set_computer_token(NewPlayerToken());
  } else if (player.seat().kind() != v1::SEAT_KIND_BOT) {
    secrets.clear_computer_token();
  }
}

void GameChange::QueueBotJobIfComputerToMove() {
  const v1::GameState& s = state();
  if (IsOver(s)) return;
  const v1::Color color = s.side_to_move();
  const v1::PlayerState& player = PlayerOf(s, color);
  if (!IsComputerControlled(player)) return;
  v1::BotJob job;
  job.set_game_id(s.game_id());
  job.set_ply(s.ply());
  job.set_variant(s.variant());
  *job.mutable_options() = s.options();
  job.set_color(color);
  job.set_initial_fen(s.initial_fen());
  *job.mutable_moves() = s.moves();
  job.set_fen(s.fen());
  const bool bot = player.seat().kind() == v1::SEAT_KIND_BOT;
  job.set_level(bot ? player.seat().bot_level() : kStandInLevel);
  if (bot) job.set_engine_id(player.seat().engine_id());
  if (s.has_move_deadline()) *job.mutable_deadline() = s.move_deadline();
  job.set_player_token(SecretsOf(game(), color).computer_token());
  change_.outbox.push_back({OutboxMessage::Kind::kBotJob, job.SerializeAsString()});
}

Change GameChange::Build() {
  v1::GameState& s = state();
  for (std::size_t i = 0; i < change_.events.size(); ++i) {
    change_.events[i].set_ply(s.ply());
  }
  s.set_version(base_version_ + static_cast<int64_t>(change_.events.size()));
  if (clock_changed_) QueueClockUpdate();
  QueueChatNotices();
  return std::move(change_);
}

// The events the game's chat room announces (events.proto,
// ChatNoticeRecord): the chat service posts them as system lines.
void GameChange::QueueChatNotices() {
  const v1::GameState& s = state();
  for (const v1::GameEvent& event : change_.events) {
    v1::ChatNotice notice;
    if (event.has_chat_notice()) {
      notice = event.chat_notice();
    } else if (event.has_draw_offered()) {
      notice.set_kind(v1::ChatNotice::KIND_DRAW_OFFERED);
      notice.set_color(event.draw_offered().by());
      notice.set_text(absl::StrCat(ColorName(s, notice.color()), " offers a draw"));
    } else if (event.has_draw_declined() && !event.draw_declined().lapsed()) {
      notice.set_kind(v1::ChatNotice::KIND_DRAW_DECLINED);
      notice.set_color(event.draw_declined().by());
      notice.set_text(absl::StrCat(ColorName(s, notice.color()), " declines the draw"));
    } else if (event.has_game_ended() &&
               event.game_ended().reason() == v1::RESULT_REASON_ABANDONED) {
      notice.set_kind(v1::ChatNotice::KIND_PLAYER_LEFT);
      notice.set_color(event.game_ended().by());
      notice.set_text(absl::StrCat(ColorName(s, notice.color()), " left the game; ",
                                   ColorName(s, OpponentOf(notice.color())), " wins"));
    } else {
      continue;
    }
    v1::ChatNoticeRecord record;
    record.set_game_id(s.game_id());
    record.set_table_id(s.table_id());
    record.set_game_version(event.version());
    *record.mutable_happened_at() = event.timestamp();
    *record.mutable_notice() = std::move(notice);
    change_.outbox.push_back({OutboxMessage::Kind::kChatNotice, record.SerializeAsString()});
  }
}

void RecountPlayers(const rules::GameRecord& record, StoredGame& game) {
  v1::GameState& s = *game.mutable_state();
  const std::vector<rules::Position> positions = record.positions();
  std::vector<bool> automatic(record.moves().size(), false);
  for (int ply : game.automatic_plies()) {
    if (ply >= 0 && static_cast<std::size_t>(ply) < automatic.size()) {
      automatic[static_cast<std::size_t>(ply)] = true;
    }
  }
  game.clear_automatic_plies();
  for (v1::Color color : {v1::COLOR_WHITE, v1::COLOR_BLACK}) {
    int captured = 0;
    int in_a_row = 0;
    for (std::size_t i = 0; i < record.moves().size(); ++i) {
      if (ToProto(positions[i].side_to_move()) != color) continue;
      captured += record.moves()[i].capture_count;
      in_a_row = automatic[i] ? in_a_row + 1 : 0;
    }
    PlayerOf(s, color).set_pieces_captured(captured);
    PlayerOf(s, color).set_consecutive_automatic_moves(in_a_row);
  }
  for (std::size_t i = 0; i < automatic.size(); ++i) {
    if (automatic[i]) game.add_automatic_plies(static_cast<int>(i));
  }
}

}  // namespace draughts::game_state
