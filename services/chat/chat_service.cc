#include "chat/chat_service.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "chat/chat_text.h"
#include "google/protobuf/unknown_field_set.h"
#include "platform/event_id.h"
#include "platform/idempotency.h"
#include "platform/page_token.h"
#include "platform/secret_tokens.h"
#include "platform/status.h"
#include "platform/status_macros.h"

namespace draughts::chat {
namespace {

constexpr int kDefaultPageSize = 50;
constexpr int kMaxPageSize = 200;
// Page tokens of ListMessages, version 1: the last id returned and the room.
constexpr std::string_view kPageTokenKind = "c1";
// Player tokens and sessions are long random strings; anything far longer
// is not one, and is not worth hashing.
constexpr std::size_t kMaxSecretSize = 256;

bool IsIdChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         c == '-';
}

absl::Status ValidateId(absl::string_view id, absl::string_view field) {
  if (id.empty()) return absl::InvalidArgumentError(absl::StrCat(field, " is empty"));
  if (id.size() > 64) {
    return absl::InvalidArgumentError(absl::StrCat(field, " is longer than 64 characters"));
  }
  for (char c : id) {
    if (!IsIdChar(c)) {
      return absl::InvalidArgumentError(
          absl::StrCat(field, " may only contain letters, digits, '_' and '-'"));
    }
  }
  return absl::OkStatus();
}

absl::Status ValidateSecret(absl::string_view secret, absl::string_view field) {
  if (secret.empty()) return absl::InvalidArgumentError(absl::StrCat(field, " is empty"));
  if (secret.size() > kMaxSecretSize) {
    return absl::InvalidArgumentError(absl::StrCat(field, " is too long"));
  }
  return absl::OkStatus();
}

// The request's own checks (INVALID_ARGUMENT), before anything is asked.
absl::Status ValidatePost(const v1::PostMessageRequest& request, std::size_t max_name,
                          std::string* refusal) {
  *refusal = "bad_request";
  if (!request.has_room()) return absl::InvalidArgumentError("room is missing");
  DRAUGHTS_RETURN_IF_ERROR(ValidateRoom(request.room()));
  const v1::ChatAuthor& author = request.author();
  switch (author.credential_case()) {
    case v1::ChatAuthor::kPlayer:
      DRAUGHTS_RETURN_IF_ERROR(ValidateId(author.player().game_id(), "author.player.game_id"));
      DRAUGHTS_RETURN_IF_ERROR(
          ValidateSecret(author.player().player_token(), "author.player.player_token"));
      break;
    case v1::ChatAuthor::kSpectatorSession: {
      DRAUGHTS_RETURN_IF_ERROR(
          ValidateSecret(author.spectator_session(), "author.spectator_session"));
      const CheckedText name = CheckText(author.display_name(), max_name);
      if (name.problem != TextProblem::kNone) {
        return TextProblemStatus(name, "author.display_name", max_name);
      }
      if (!author.player_id().empty()) {
        DRAUGHTS_RETURN_IF_ERROR(ValidateId(author.player_id(), "author.player_id"));
      }
      break;
    }
    case v1::ChatAuthor::CREDENTIAL_NOT_SET:
      return absl::InvalidArgumentError(
          "author is missing: a player credential or a spectator session");
  }
  return platform::ValidateIdempotencyKey(request.idempotency_key());
}

// Why a PostMessageRequest does not parse. Its wire format does (the
// gRPC framing delivered it whole), so a string field is not valid UTF-8:
// name the one people type (text, the spectator's name) if it is that.
absl::Status WhyUnparsable(const std::string& bytes) {
  google::protobuf::UnknownFieldSet fields;
  if (!fields.ParseFromString(bytes)) {
    return absl::InvalidArgumentError("the request is not a PostMessageRequest");
  }
  constexpr int kText = 3;
  constexpr int kAuthor = 2;
  constexpr int kDisplayName = 3;
  const auto invalid = [](const google::protobuf::UnknownField& field) {
    return field.type() == google::protobuf::UnknownField::TYPE_LENGTH_DELIMITED &&
           CheckText(field.length_delimited(), SIZE_MAX).problem == TextProblem::kInvalidUtf8;
  };
  for (int i = 0; i < fields.field_count(); ++i) {
    const google::protobuf::UnknownField& field = fields.field(i);
    if (field.number() == kText && invalid(field)) {
      return absl::InvalidArgumentError("text is not valid UTF-8");
    }
    google::protobuf::UnknownFieldSet author;
    if (field.number() == kAuthor &&
        field.type() == google::protobuf::UnknownField::TYPE_LENGTH_DELIMITED &&
        author.ParseFromString(field.length_delimited())) {
      for (int k = 0; k < author.field_count(); ++k) {
        if (author.field(k).number() == kDisplayName && invalid(author.field(k))) {
          return absl::InvalidArgumentError("author.display_name is not valid UTF-8");
        }
      }
    }
  }
  return absl::InvalidArgumentError("a string field of the request is not valid UTF-8");
}

}  // namespace

absl::Status ValidateRoom(const v1::ChatRoom& room) {
  switch (room.id_case()) {
    case v1::ChatRoom::kTableId:
      return ValidateId(room.table_id(), "room.table_id");
    case v1::ChatRoom::kGameId:
      return ValidateId(room.game_id(), "room.game_id");
    case v1::ChatRoom::ID_NOT_SET:
      break;
  }
  return absl::InvalidArgumentError("room is missing: a table_id or a game_id");
}

std::string AuthorKey(const v1::ChatAuthor& author, const SeatedPlayer* player) {
  if (player != nullptr) {
    if (!player->seat.player_id().empty()) return absl::StrCat("p.", player->seat.player_id());
    return absl::StrCat("seat.", author.player().game_id(), ".", static_cast<int>(player->color));
  }
  // 16 bytes of the session's digest: unique enough, and no secret.
  const std::string digest = platform::HashSecret(author.spectator_session());
  return absl::StrCat("s.", absl::BytesToHexString(digest.substr(0, 16)));
}

ChatServiceImpl::ChatServiceImpl(ChatServiceDeps deps, ChatServiceOptions options)
    : deps_(deps), options_(options), watch_openers_(options.watch_open_threads) {}

// --- PostMessage -------------------------------------------------------------

grpc::ServerUnaryReactor* ChatServiceImpl::PostMessage(grpc::CallbackServerContext* context,
                                                       const grpc::ByteBuffer* request,
                                                       grpc::ByteBuffer* response) {
  grpc::ServerUnaryReactor* reactor = context->DefaultReactor();
  std::vector<grpc::Slice> slices;
  std::string bytes;
  if (request->Dump(&slices).ok()) {
    for (const grpc::Slice& slice : slices) {
      bytes.append(reinterpret_cast<const char*>(slice.begin()), slice.size());
    }
  }
  absl::StatusOr<v1::PostMessageResponse> answer = PostBytes(bytes);
  if (!answer.ok()) {
    reactor->Finish(platform::ToGrpcStatus(answer.status()));
    return reactor;
  }
  bool own_buffer = false;
  reactor->Finish(grpc::SerializationTraits<v1::PostMessageResponse>::Serialize(*answer, response,
                                                                                &own_buffer));
  return reactor;
}

absl::StatusOr<v1::PostMessageResponse> ChatServiceImpl::PostBytes(const std::string& bytes) {
  v1::PostMessageRequest request;
  std::string refusal;
  absl::StatusOr<v1::ChatMessage> posted;
  if (!request.ParseFromString(bytes)) {
    refusal = "invalid_utf8";
    posted = WhyUnparsable(bytes);
  } else {
    posted = Post(request, &refusal);
  }
  if (!posted.ok()) {
    const absl::StatusCode code = posted.status().code();
    if (deps_.metrics != nullptr && code != absl::StatusCode::kUnavailable &&
        code != absl::StatusCode::kInternal && !refusal.empty()) {
      deps_.metrics->Refused(refusal);
    }
    return posted.status();
  }
  v1::PostMessageResponse response;
  *response.mutable_message() = *std::move(posted);
  return response;
}

absl::StatusOr<v1::ChatMessage> ChatServiceImpl::Post(const v1::PostMessageRequest& request,
                                                      std::string* refusal) {
  // 1. The request itself.
  DRAUGHTS_RETURN_IF_ERROR(ValidatePost(request, options_.max_name_characters, refusal));
  const CheckedText text = CheckText(request.text(), options_.max_text_characters);
  if (text.problem != TextProblem::kNone) {
    *refusal = std::string(TextProblemName(text.problem));
    return TextProblemStatus(text, "text", options_.max_text_characters);
  }

  // 2. The room.
  *refusal = "room_not_found";
  DRAUGHTS_ASSIGN_OR_RETURN(Room room, deps_.rooms->FindRoom(request.room()));

  // 3. The author.
  const v1::ChatAuthor& author = request.author();
  v1::ChatMessage message;
  *message.mutable_room() = room.id;
  message.set_text(text.text);
  std::optional<SeatedPlayer> player;
  if (author.has_player()) {
    *refusal = "not_seated";
    DRAUGHTS_ASSIGN_OR_RETURN(player, deps_.rooms->ResolvePlayer(author.player().game_id(),
                                                                 author.player().player_token()));
    v1::ChatRoom game_room;
    game_room.set_game_id(author.player().game_id());
    DRAUGHTS_ASSIGN_OR_RETURN(Room players_room, deps_.rooms->FindRoom(game_room));
    if (players_room.key != room.key) {
      return absl::PermissionDeniedError(
          "the player's game is not this room's (a game talks in its table's room)");
    }
    message.set_role(v1::CHAT_ROLE_PLAYER);
    message.set_color(player->color);
    message.set_display_name(player->seat.display_name());
    message.set_player_id(player->seat.player_id());
  } else {
    if (room.spectators_muted) {
      *refusal = "muted";
      return absl::PermissionDeniedError(
          "spectators are muted at this table: only its players may write");
    }
    message.set_role(v1::CHAT_ROLE_SPECTATOR);
    message.set_display_name(CheckText(author.display_name(), options_.max_name_characters).text);
    message.set_player_id(author.player_id());
  }
  const std::string author_key = AuthorKey(author, player.has_value() ? &*player : nullptr);

  // 4. A retry is answered with the first message, before any rate check.
  const std::string fingerprint = platform::RequestFingerprint(request);
  *refusal = "reused_key";
  const absl::Status reused = absl::InvalidArgumentError(
      "idempotency_key was already used by this author with a different request");
  DRAUGHTS_ASSIGN_OR_RETURN(std::optional<PostRecord> earlier,
                            deps_.store->FindPost(room.key, author_key, request.idempotency_key()));
  if (earlier.has_value()) {
    if (earlier->fingerprint != fingerprint) return reused;
    return earlier->message;
  }

  // 5. The rate.
  *refusal = "rate_limited";
  DRAUGHTS_RETURN_IF_ERROR(deps_.store->CountPost(author_key));

  *refusal = "reused_key";
  DRAUGHTS_ASSIGN_OR_RETURN(
      PostRecord record,
      deps_.store->Post(room.key, author_key, request.idempotency_key(), fingerprint, message));
  if (record.fingerprint != fingerprint) return reused;
  if (deps_.metrics != nullptr && record.appended) deps_.metrics->Posted(message.role());
  return record.message;
}

// --- ListMessages ------------------------------------------------------------

grpc::Status ChatServiceImpl::ListMessages(grpc::ServerContext*,
                                           const v1::ListMessagesRequest* request,
                                           v1::ListMessagesResponse* response) {
  return platform::ToGrpcStatus(DoList(*request, *response));
}

absl::Status ChatServiceImpl::DoList(const v1::ListMessagesRequest& request,
                                     v1::ListMessagesResponse& response) {
  DRAUGHTS_RETURN_IF_ERROR(ValidateRoom(request.room()));
  if (request.page_size() < 0) return absl::InvalidArgumentError("page_size is negative");
  const int page_size =
      request.page_size() == 0 ? kDefaultPageSize : std::min(request.page_size(), kMaxPageSize);
  const std::string filter = platform::PageFilterDigest(RoomKey(request.room()));
  std::optional<platform::EventId> before;
  if (!request.page_token().empty()) {
    DRAUGHTS_ASSIGN_OR_RETURN(std::vector<std::string> fields,
                              platform::DecodePageToken(request.page_token(), kPageTokenKind, 2));
    absl::StatusOr<platform::EventId> last = platform::ParseEventId(fields[0]);
    if (!last.ok() || fields[1] != filter) {
      return absl::InvalidArgumentError("page_token is malformed or belongs to another room");
    }
    before = *last;
  }
  DRAUGHTS_ASSIGN_OR_RETURN(Room room, deps_.rooms->FindRoom(request.room()));
  // One more than asked tells whether another page follows.
  DRAUGHTS_ASSIGN_OR_RETURN(std::vector<v1::ChatMessage> messages,
                            deps_.store->ListNewestFirst(room.key, before, page_size + 1));
  const bool more = static_cast<int>(messages.size()) > page_size;
  if (more) messages.resize(static_cast<std::size_t>(page_size));
  for (v1::ChatMessage& message : messages) *response.add_messages() = std::move(message);
  if (more) {
    response.set_next_page_token(platform::EncodePageToken(
        kPageTokenKind, {response.messages(response.messages_size() - 1).message_id(), filter}));
  }
  return absl::OkStatus();
}

// --- WatchChat ---------------------------------------------------------------

grpc::ServerWriteReactor<v1::ChatMessage>* ChatServiceImpl::WatchChat(
    grpc::CallbackServerContext*, const v1::WatchChatRequest* request) {
  platform::StreamWatchOptions<v1::ChatMessage> options;
  if (deps_.metrics != nullptr) {
    options.on_start = [metrics = deps_.metrics] { metrics->WatchStarted(); };
    options.on_end = [metrics = deps_.metrics] { metrics->WatchEnded(); };
  }
  options.headers_when_positioned = true;
  return platform::OpenStreamWatch<v1::ChatMessage>(
      watch_pump_, watch_openers_, std::move(options),
      [this, request] { return OpenWatch(*request); });
}

absl::Status ChatServiceImpl::Draining() {
  return absl::UnavailableError(
      "the server is shutting down: resume from the last message id received, on any replica");
}

void ChatServiceImpl::BeginShutdown() {
  shutting_down_.store(true);
  watch_pump_.Drain(platform::ToGrpcStatus(Draining()));
}

absl::StatusOr<std::unique_ptr<MessageSubscription>> ChatServiceImpl::OpenWatch(
    const v1::WatchChatRequest& request) {
  DRAUGHTS_RETURN_IF_ERROR(ValidateRoom(request.room()));
  DRAUGHTS_ASSIGN_OR_RETURN(
      std::optional<platform::EventId> from,
      platform::ParseResumePoint("from_message_id", request.from_message_id()));
  if (shutting_down_.load()) return Draining();
  DRAUGHTS_ASSIGN_OR_RETURN(Room room, deps_.rooms->FindRoom(request.room()));
  return deps_.store->Subscribe(room.key, from);
}

}  // namespace draughts::chat
