#include "game_state/new_game.h"

#include <optional>
#include <utility>

#include "absl/strings/str_cat.h"
#include "game_state/game_change.h"
#include "game_state/game_id.h"
#include "game_state/proto_convert.h"
#include "platform/idempotency.h"
#include "platform/proto_time.h"
#include "platform/status_macros.h"
#include "platform/utf8.h"
#include "platform/variant_config.h"
#include "rules/fen.h"
#include "rules/game.h"

namespace draughts::game_state {
namespace {

constexpr std::size_t kMaxDisplayName = 40;  // characters (common.proto Seat)
constexpr std::size_t kMaxPlayerId = 128;    // bytes
constexpr std::size_t kMaxTableId = 128;     // bytes
constexpr std::size_t kMaxFen = 1000;        // bytes; a full 12x12 board needs far less

absl::Status CheckSeat(const v1::Seat& seat, const char* field) {
  switch (seat.kind()) {
    case v1::SEAT_KIND_PERSON:
    case v1::SEAT_KIND_GUEST:
      if (seat.player_id().empty()) {
        return absl::InvalidArgumentError(
            absl::StrCat(field, ".player_id is empty: a person or guest seat needs one"));
      }
      if (seat.player_id().size() > kMaxPlayerId) {
        return absl::InvalidArgumentError(
            absl::StrCat(field, ".player_id is longer than ", kMaxPlayerId, " bytes"));
      }
      if (seat.bot_level() != v1::BOT_LEVEL_UNSPECIFIED || !seat.engine_id().empty()) {
        return absl::InvalidArgumentError(
            absl::StrCat(field, ": bot_level and engine_id are for bot seats only"));
      }
      break;
    case v1::SEAT_KIND_BOT:
      if (seat.bot_level() == v1::BOT_LEVEL_UNSPECIFIED && seat.engine_id().empty()) {
        return absl::InvalidArgumentError(
            absl::StrCat(field, ": a bot seat needs a bot_level or an engine_id"));
      }
      if (!BotLevel_IsValid(seat.bot_level())) {
        return absl::InvalidArgumentError(absl::StrCat(field, ".bot_level is not a known level"));
      }
      if (seat.engine_id().size() > kMaxPlayerId) {
        return absl::InvalidArgumentError(absl::StrCat(field, ".engine_id is too long"));
      }
      break;
    default:
      return absl::InvalidArgumentError(
          absl::StrCat(field, ".kind is missing: PERSON, GUEST or BOT"));
  }
  // Every seat, bots included, is named by its caller (matchmaking names
  // its bots): the board shows the name as given, never an invented one.
  const std::optional<std::size_t> length = platform::CountCodePoints(seat.display_name());
  if (!length.has_value() || *length < 1 || *length > kMaxDisplayName) {
    return absl::InvalidArgumentError(absl::StrCat(field, ".display_name must be 1-",
                                                   kMaxDisplayName, " characters of valid UTF-8"));
  }
  return absl::OkStatus();
}

absl::StatusOr<absl::Duration> CheckTimePerMove(const v1::CreateGameRequest& request) {
  DRAUGHTS_ASSIGN_OR_RETURN(const absl::Duration per_move,
                            platform::CheckProtoDuration(request.time_per_move(), "time_per_move"));
  if (per_move < absl::ZeroDuration()) {
    return absl::InvalidArgumentError("time_per_move is negative");
  }
  if (per_move > absl::Hours(1)) {
    return absl::InvalidArgumentError("time_per_move is longer than 1 hour");
  }
  return per_move;
}

}  // namespace

absl::StatusOr<PreparedGame> PrepareNewGame(const v1::CreateGameRequest& request,
                                            const TokenSealer& sealer, absl::Time now) {
  if (absl::Status status = platform::ValidateIdempotencyKey(request.idempotency_key());
      !status.ok()) {
    return status;
  }
  absl::StatusOr<rules::Variant> variant =
      platform::ConfigureVariant(request.variant(), request.options());
  if (!variant.ok()) return variant.status();
  const v1::Seat& white = request.white();
  const v1::Seat& black = request.black();
  DRAUGHTS_RETURN_IF_ERROR(CheckSeat(white, "white"));
  DRAUGHTS_RETURN_IF_ERROR(CheckSeat(black, "black"));
  if (request.rated()) {
    if (white.kind() != v1::SEAT_KIND_PERSON || black.kind() != v1::SEAT_KIND_PERSON) {
      return absl::InvalidArgumentError(
          "rated: a rated game needs two PERSON seats (bots and guests are never rated)");
    }
    if (white.player_id() == black.player_id()) {
      return absl::InvalidArgumentError(
          "rated: one player holds both seats (hotseat); a rated game needs two players");
    }
  }
  absl::StatusOr<absl::Duration> per_move = CheckTimePerMove(request);
  if (!per_move.ok()) return per_move.status();
  if (request.table_id().size() > kMaxTableId) {
    return absl::InvalidArgumentError(
        absl::StrCat("table_id is longer than ", kMaxTableId, " bytes"));
  }

  rules::Position start = rules::Position::Initial(*variant);
  if (!request.initial_fen().empty()) {
    if (request.rated()) {
      return absl::InvalidArgumentError("initial_fen: a rated game starts from the usual position");
    }
    if (request.initial_fen().size() > kMaxFen) {
      return absl::InvalidArgumentError("initial_fen is too long");
    }
    rules::Result<rules::Position> parsed = rules::ParseFen(*variant, request.initial_fen());
    if (!parsed.ok()) {
      return absl::InvalidArgumentError("initial_fen: " + parsed.error().ToString());
    }
    start = *parsed;
  }
  for (rules::Color side : {rules::Color::kWhite, rules::Color::kBlack}) {
    // The rules decide only for the side to move; a side without a piece
    // (to move or not) means the game is decided before it starts.
    if (start.CountPieces(side) == 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("initial_fen: the game would be over before it starts (",
                       side == rules::Color::kWhite ? "white" : "black", " has no piece)"));
    }
  }
  const rules::GameRecord record(*variant, start);
  if (record.is_over()) {
    return absl::InvalidArgumentError("initial_fen: the game would be over before it starts (" +
                                      record.outcome().ToString() + ")");
  }

  PreparedGame prepared;
  prepared.game_id = GameIdForKey(request.idempotency_key());
  prepared.tokens = {NewPlayerToken(), NewPlayerToken()};

  StoredGame stored;
  v1::GameState& s = *stored.mutable_state();
  s.set_game_id(prepared.game_id);
  s.set_table_id(request.table_id());
  s.set_variant(request.variant());
  *s.mutable_options() = request.options();
  s.set_rated(request.rated());
  if (*per_move > absl::ZeroDuration()) *s.mutable_time_per_move() = request.time_per_move();
  *s.mutable_white()->mutable_seat() = white;
  *s.mutable_black()->mutable_seat() = black;
  // Nobody is connected until the clock reports it (RecordPresence); a bot
  // is always there.
  s.mutable_white()->set_connected(white.kind() == v1::SEAT_KIND_BOT);
  s.mutable_black()->set_connected(black.kind() == v1::SEAT_KIND_BOT);
  s.set_initial_fen(rules::FormatFen(start));
  s.set_fen(s.initial_fen());
  s.set_side_to_move(ToProto(start.side_to_move()));
  s.set_ply(0);
  s.set_result(v1::GAME_RESULT_ONGOING);
  s.set_draw_offered_by(v1::COLOR_UNSPECIFIED);
  *s.mutable_created_at() = platform::ToProtoTime(now);
  *s.mutable_updated_at() = s.created_at();

  for (v1::Color color : {v1::COLOR_WHITE, v1::COLOR_BLACK}) {
    const std::string& token =
        color == v1::COLOR_WHITE ? prepared.tokens.white : prepared.tokens.black;
    SeatSecrets& secrets = SecretsOf(stored, color);
    secrets.set_token_hash(platform::HashSecret(token));
    if (PlayerOf(s, color).seat().kind() == v1::SEAT_KIND_BOT) secrets.set_computer_token(token);
  }
  stored.set_create_fingerprint(platform::RequestFingerprint(request));
  stored.set_sealed_tokens(sealer.Seal(prepared.tokens));

  // The first event takes the game from version 0 (nothing) to 1.
  StoredGame empty;
  *empty.mutable_state()->mutable_game_id() = prepared.game_id;
  GameChange change(empty, now);
  change.game() = stored;
  change.ResetDeadline();  // the first move's deadline, and its ClockUpdate
  const v1::GameState& first = change.state();
  v1::GameEvent& created_event = change.AddEvent();
  v1::GameCreated& created = *created_event.mutable_game_created();
  created.set_variant(s.variant());
  *created.mutable_options() = s.options();
  *created.mutable_white() = s.white().seat();
  *created.mutable_black() = s.black().seat();
  created.set_initial_fen(s.initial_fen());
  if (s.has_time_per_move()) *created.mutable_time_per_move() = s.time_per_move();
  created.set_rated(s.rated());
  created.set_table_id(s.table_id());
  if (first.has_move_deadline()) *created.mutable_move_deadline() = first.move_deadline();
  change.QueueBotJobIfComputerToMove();
  Change built = change.Build();

  prepared.game.game = std::move(built.game);
  prepared.game.created = std::move(built.events.front());
  prepared.game.outbox = std::move(built.outbox);
  return prepared;
}

}  // namespace draughts::game_state
