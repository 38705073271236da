#include "game_state/request_checks.h"

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "game_state/game_change.h"
#include "game_state/game_id.h"
#include "game_state/player_tokens.h"
#include "platform/absl_compat.h"
#include "rules/move_text.h"
#include "rules/variant.h"

namespace draughts::game_state {
namespace {

using platform::ToAbsl;

// Tokens are 32 characters; anything much longer cannot be one, and is not
// worth hashing.
constexpr std::size_t kMaxTokenBytes = 256;

std::string ReasonText(v1::ResultReason reason) {
  std::string name = v1::ResultReason_Name(reason);
  constexpr std::string_view kPrefix = "RESULT_REASON_";
  if (name.rfind(kPrefix, 0) == 0) name = name.substr(kPrefix.size());
  for (char& c : name) c = c == '_' ? ' ' : absl::ascii_tolower(static_cast<unsigned char>(c));
  return name;
}

}  // namespace

absl::Status CheckGameAndPly(std::string_view game_id, int expected_ply) {
  if (absl::Status status = ValidateGameId(game_id); !status.ok()) return status;
  if (expected_ply < 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("expected_ply is negative (", expected_ply, ")"));
  }
  return absl::OkStatus();
}

absl::Status CheckTokenPresent(std::string_view player_token) {
  if (player_token.empty()) {
    return absl::InvalidArgumentError(
        "player_token is empty: only the two players act, with the token of their seat "
        "(spectators have none)");
  }
  return absl::OkStatus();
}

absl::Status CheckColor(v1::Color color, std::string_view field) {
  if (color != v1::COLOR_WHITE && color != v1::COLOR_BLACK) {
    return absl::InvalidArgumentError(absl::StrCat(ToAbsl(field), " must be WHITE or BLACK"));
  }
  return absl::OkStatus();
}

absl::Status CheckMoveText(std::string_view move) {
  if (move.empty()) return absl::InvalidArgumentError("move is empty");
  if (move.size() > kMaxMoveTextBytes) {
    return absl::InvalidArgumentError(
        absl::StrCat("move is longer than ", kMaxMoveTextBytes, " bytes"));
  }
  rules::Result<rules::MoveText> text = rules::ParseMoveText(move);
  if (!text.ok()) {
    return absl::InvalidArgumentError(absl::StrCat("move \"", ToAbsl(move),
                                                   "\" is not notation: ", text.error().ToString(),
                                                   "; write e.g. 32-28, 28x19 or 28x19x10"));
  }
  return absl::OkStatus();
}

absl::StatusOr<v1::Color> AuthenticateSeat(const StoredGame& game, std::string_view token) {
  const absl::Status denied = absl::PermissionDeniedError(
      token.empty() ? "player_token is missing: only the two players may act (spectators watch)"
                    : "player_token is not a player token of this game");
  if (token.empty() || token.size() > kMaxTokenBytes) return denied;
  const v1::GameState& state = game.state();
  v1::Color found = v1::COLOR_UNSPECIFIED;
  // Both seats are always compared, so the time taken does not say which
  // one (if any) came close.
  for (v1::Color color : {v1::COLOR_WHITE, v1::COLOR_BLACK}) {
    const SeatSecrets& secrets = SecretsOf(game, color);
    bool match = platform::SecretMatchesHash(token, secrets.token_hash());
    if (!secrets.computer_token().empty() && PlayerOf(state, color).computer_playing()) {
      match = platform::SecretMatchesHash(token, platform::HashSecret(secrets.computer_token())) ||
              match;
    }
    if (match) found = color;
  }
  if (found == v1::COLOR_UNSPECIFIED) return denied;
  return found;
}

absl::Status CheckOngoing(const v1::GameState& state) {
  if (IsOver(state)) {
    return absl::FailedPreconditionError(absl::StrCat("the game is over: ", DescribeResult(state)));
  }
  return absl::OkStatus();
}

absl::Status CheckPly(const v1::GameState& state, int expected_ply) {
  if (expected_ply != state.ply()) {
    return absl::AbortedError(absl::StrCat("expected_ply ", expected_ply,
                                           " is stale: the game is at ply ", state.ply(),
                                           "; re-read it and decide again"));
  }
  return absl::OkStatus();
}

std::string ColorName(const v1::GameState& state, v1::Color color) {
  rules::Result<rules::Variant> variant = rules::FindVariant(state.variant());
  const bool white = color == v1::COLOR_WHITE;
  if (!variant.ok()) return white ? "White" : "Black";
  return std::string(white ? variant->white_name : variant->black_name);
}

std::string DescribeResult(const v1::GameState& state) {
  std::string head;
  switch (state.result()) {
    case v1::GAME_RESULT_WHITE_WINS:
      head = ColorName(state, v1::COLOR_WHITE) + " wins";
      break;
    case v1::GAME_RESULT_BLACK_WINS:
      head = ColorName(state, v1::COLOR_BLACK) + " wins";
      break;
    case v1::GAME_RESULT_DRAW:
      head = "draw";
      break;
    default:
      return "ongoing";
  }
  return absl::StrCat(head, " (", ReasonText(state.reason()), ")");
}

}  // namespace draughts::game_state
