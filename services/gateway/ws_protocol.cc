#include "gateway/ws_protocol.h"

#include <google/protobuf/util/json_util.h>

#include "absl/strings/str_cat.h"
#include "gateway/error_mapping.h"
#include "gateway/json_string.h"
#include "gateway/proto_json.h"
#include "gateway/rest_bodies.h"
#include "platform/absl_compat.h"
#include "platform/status_macros.h"

namespace draughts::gateway {
namespace {

absl::StatusOr<ActionKind> KindFromName(std::string_view name) {
  if (name == "ping") return ActionKind::kPing;
  if (name == "move") return ActionKind::kMove;
  if (name == "resign") return ActionKind::kResign;
  if (name == "offerDraw") return ActionKind::kOfferDraw;
  if (name == "acceptDraw") return ActionKind::kAcceptDraw;
  if (name == "declineDraw") return ActionKind::kDeclineDraw;
  return absl::InvalidArgumentError(
      absl::StrCat("unknown action \"", std::string(name.substr(0, 40)), "\"",
                   " (expected move, resign, offerDraw, acceptDraw, declineDraw or ping)"));
}

absl::Status Required(const std::string& value, std::string_view name) {
  if (value.empty())
    return absl::InvalidArgumentError(absl::StrCat("\"", std::string(name), "\" is required"));
  return absl::OkStatus();
}

// The client frame in protobuf's JSON mapping, strictly: a field the message
// does not declare, or of the wrong JSON type, is refused.
absl::StatusOr<v1::GameSocketClientFrame> ParseDeclared(std::string_view text) {
  v1::GameSocketClientFrame frame;
  google::protobuf::util::JsonParseOptions options;
  options.ignore_unknown_fields = false;
  const auto parsed = google::protobuf::util::JsonStringToMessage(
      google::protobuf::StringPiece(text.data(), text.size()), &frame, options);
  if (!parsed.ok()) {
    std::string why(parsed.message());
    if (why.size() > 200) why.resize(200);
    return absl::InvalidArgumentError(absl::StrCat("not a GameSocketClientFrame: ", why));
  }
  return frame;
}

}  // namespace

absl::StatusOr<ClientAction> ParseClientAction(std::string_view text, std::string* request_id) {
  // A lenient read first: the request id survives for the error frame even
  // when the strict parse refuses the frame.
  DRAUGHTS_ASSIGN_OR_RETURN(google::protobuf::Struct object, ParseJsonObject(text));
  DRAUGHTS_ASSIGN_OR_RETURN(std::optional<std::string> id,
                            OptionalStringField(object, "requestId"));
  if (id.has_value()) {
    if (id->size() > kMaxRequestIdBytes) {
      return absl::InvalidArgumentError(
          absl::StrCat("\"requestId\" is longer than ", kMaxRequestIdBytes, " bytes"));
    }
    if (request_id != nullptr) *request_id = *id;
  }
  DRAUGHTS_ASSIGN_OR_RETURN(v1::GameSocketClientFrame frame, ParseDeclared(text));
  // The JSON mapping also takes "7" and 7.0 for an int32; the protocol
  // wants a plain whole number.
  DRAUGHTS_ASSIGN_OR_RETURN(std::optional<int> ply,
                            OptionalNonNegativeIntField(object, "expectedPly"));
  ClientAction action;
  action.request_id = frame.request_id();
  DRAUGHTS_RETURN_IF_ERROR(Required(frame.action(), "action"));
  DRAUGHTS_ASSIGN_OR_RETURN(action.kind, KindFromName(frame.action()));
  if (action.kind == ActionKind::kPing) return action;
  DRAUGHTS_RETURN_IF_ERROR(Required(frame.token(), "token"));
  action.token = frame.token();
  if (!ply.has_value()) return absl::InvalidArgumentError("\"expectedPly\" is required");
  action.expected_ply = *ply;
  if (action.kind == ActionKind::kMove) {
    DRAUGHTS_RETURN_IF_ERROR(Required(frame.move(), "move"));
    action.move = frame.move();
  }
  return action;
}

std::string SnapshotFrame(const GameView& view) {
  v1::GameViewBody body = GameViewBodyOf(view);
  v1::GameSnapshotFrame frame;
  frame.set_type("snapshot");
  *frame.mutable_game() = std::move(*body.mutable_game());
  *frame.mutable_legal_moves() = std::move(*body.mutable_legal_moves());
  frame.set_must_capture(body.must_capture());
  return MessageToJson(frame);
}

std::string EventFrame(const v1::GameEvent& event) {
  v1::GameEventFrame frame;
  frame.set_type("event");
  *frame.mutable_event() = event;
  return MessageToJson(frame);
}

std::string AckFrame(std::string_view request_id) {
  v1::GameAckFrame frame;
  frame.set_type("ack");
  frame.set_request_id(std::string(request_id));
  return MessageToJson(frame);
}

std::string ErrorFrame(std::string_view request_id, const absl::Status& status) {
  v1::GameErrorFrame frame;
  frame.set_type("error");
  frame.set_request_id(std::string(request_id));
  frame.mutable_error()->set_code(std::string(StatusCodeName(status.code())));
  frame.mutable_error()->set_message(ValidUtf8(platform::ToStd(status.message())));
  return MessageToJson(frame);
}

std::string PongFrame() {
  v1::GamePongFrame frame;
  frame.set_type("pong");
  return MessageToJson(frame);
}

bool EventChangesSnapshot(const v1::GameEvent& event) {
  switch (event.event_case()) {
    case v1::GameEvent::kMovePlayed:
    case v1::GameEvent::kMoveUndone:
    case v1::GameEvent::kGameEnded:
    case v1::GameEvent::kDrawOffered:
    case v1::GameEvent::kDrawDeclined:
    case v1::GameEvent::kSeatConnected:
    case v1::GameEvent::kSeatDisconnected:
      return true;
    default:
      return false;
  }
}

}  // namespace draughts::gateway
