#include "gateway/ws_protocol.h"

#include "absl/strings/str_cat.h"
#include "gateway/error_mapping.h"
#include "gateway/json_string.h"
#include "gateway/proto_json.h"
#include "gateway/rest_bodies.h"
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
      absl::StrCat("unknown action ", JsonQuote(name.substr(0, 40)),
                   " (expected move, resign, offerDraw, acceptDraw, declineDraw or ping)"));
}

absl::StatusOr<std::string> RequiredString(const google::protobuf::Struct& object,
                                           const std::string& name) {
  DRAUGHTS_ASSIGN_OR_RETURN(std::optional<std::string> value, OptionalStringField(object, name));
  if (!value.has_value() || value->empty()) {
    return absl::InvalidArgumentError(absl::StrCat("\"", name, "\" is required"));
  }
  return *std::move(value);
}

}  // namespace

absl::StatusOr<ClientAction> ParseClientAction(std::string_view frame, std::string* request_id) {
  DRAUGHTS_ASSIGN_OR_RETURN(google::protobuf::Struct object, ParseJsonObject(frame));
  ClientAction action;
  DRAUGHTS_ASSIGN_OR_RETURN(std::optional<std::string> id,
                            OptionalStringField(object, "requestId"));
  if (id.has_value()) {
    if (id->size() > kMaxRequestIdBytes) {
      return absl::InvalidArgumentError(
          absl::StrCat("\"requestId\" is longer than ", kMaxRequestIdBytes, " bytes"));
    }
    action.request_id = *id;
    if (request_id != nullptr) *request_id = *id;
  }
  DRAUGHTS_ASSIGN_OR_RETURN(std::string name, RequiredString(object, "action"));
  DRAUGHTS_ASSIGN_OR_RETURN(action.kind, KindFromName(name));
  if (action.kind == ActionKind::kPing) return action;
  DRAUGHTS_ASSIGN_OR_RETURN(action.token, RequiredString(object, "token"));
  DRAUGHTS_ASSIGN_OR_RETURN(std::optional<int> ply,
                            OptionalNonNegativeIntField(object, "expectedPly"));
  if (!ply.has_value()) return absl::InvalidArgumentError("\"expectedPly\" is required");
  action.expected_ply = *ply;
  if (action.kind == ActionKind::kMove) {
    DRAUGHTS_ASSIGN_OR_RETURN(action.move, RequiredString(object, "move"));
  }
  return action;
}

std::string SnapshotFrame(const GameView& view) {
  return absl::StrCat("{\"type\":\"snapshot\",", GameViewFields(view), "}");
}

std::string EventFrame(const v1::GameEvent& event) {
  return absl::StrCat("{\"type\":\"event\",\"event\":", MessageToJson(event), "}");
}

std::string AckFrame(std::string_view request_id) {
  return absl::StrCat("{\"type\":\"ack\",\"requestId\":", JsonQuote(request_id), "}");
}

std::string ErrorFrame(std::string_view request_id, const absl::Status& status) {
  return absl::StrCat("{\"type\":\"error\",\"requestId\":", JsonQuote(request_id),
                      ",\"error\":", ErrorObjectJson(status), "}");
}

std::string PongFrame() {
  return "{\"type\":\"pong\"}";
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
