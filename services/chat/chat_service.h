// draughts.v1.ChatService: one room per table (or per game without a
// table) for its players and spectators. Checks each request in the order
// chat.proto documents, over a ChatStore (messages, idempotency records,
// rate limit) and a RoomDirectory (rooms and seats, from the services that
// own them); absl::Status inside, gRPC codes at the edge.
//
// PostMessage takes its request as raw bytes and parses it itself: protobuf
// refuses a proto3 string that is not valid UTF-8 while parsing, and gRPC
// would answer that with INTERNAL ("failed to parse") before any code of
// ours runs. The contract promises INVALID_ARGUMENT naming the field.
#ifndef DRAUGHTS_CHAT_CHAT_SERVICE_H_
#define DRAUGHTS_CHAT_CHAT_SERVICE_H_

#include <atomic>
#include <cstddef>
#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "chat/chat_metrics.h"
#include "chat/chat_store.h"
#include "chat/room_directory.h"
#include "draughts/v1/chat.grpc.pb.h"
#include "platform/blocking_pool.h"
#include "platform/stream_watch.h"

namespace draughts::chat {

struct ChatServiceDeps {
  ChatStore* store = nullptr;
  RoomDirectory* rooms = nullptr;
  ChatMetrics* metrics = nullptr;  // may be null
};

struct ChatServiceOptions {
  std::size_t max_text_characters = 500;
  std::size_t max_name_characters = 40;
  // Threads that open watch streams (a room lookup, a Redis read), off
  // gRPC's own.
  int watch_open_threads = 4;
};

// The author of a post as the rate limit and the idempotency records know
// them: the seat's public player id (or the seat itself when it has none),
// or a digest of a spectator's session. Never the secret itself.
std::string AuthorKey(const v1::ChatAuthor& author, const SeatedPlayer* player);

// PostMessage and WatchChat use gRPC's callback API: a watcher holds no
// thread while it waits for messages (platform/stream_watch.h).
class ChatServiceImpl final
    : public v1::ChatService::WithRawCallbackMethod_PostMessage<
          v1::ChatService::WithCallbackMethod_WatchChat<v1::ChatService::Service>> {
 public:
  explicit ChatServiceImpl(ChatServiceDeps deps, ChatServiceOptions options = {});

  // Watch streams end with UNAVAILABLE ("resume elsewhere") from now on.
  void BeginShutdown();

  grpc::ServerUnaryReactor* PostMessage(grpc::CallbackServerContext* context,
                                        const grpc::ByteBuffer* request,
                                        grpc::ByteBuffer* response) override;
  grpc::Status ListMessages(grpc::ServerContext* context, const v1::ListMessagesRequest* request,
                            v1::ListMessagesResponse* response) override;
  grpc::ServerWriteReactor<v1::ChatMessage>* WatchChat(
      grpc::CallbackServerContext* context, const v1::WatchChatRequest* request) override;

  // PostMessage without the gRPC edge: the request's bytes in, the
  // response or the status out (refusals counted).
  absl::StatusOr<v1::PostMessageResponse> PostBytes(const std::string& request);
  // PostMessage on a parsed request; `refusal` is the metric's reason.
  absl::StatusOr<v1::ChatMessage> Post(const v1::PostMessageRequest& request, std::string* refusal);

 private:
  absl::Status DoList(const v1::ListMessagesRequest& request, v1::ListMessagesResponse& response);
  // The room's messages positioned as `request` asks.
  absl::StatusOr<std::unique_ptr<MessageSubscription>> OpenWatch(
      const v1::WatchChatRequest& request);
  static absl::Status Draining();

  ChatServiceDeps deps_;
  ChatServiceOptions options_;
  std::atomic<bool> shutting_down_{false};
  platform::WatchPump watch_pump_;
  // Last member: destroyed first, finishing its work while the rest lives.
  platform::BlockingPool watch_openers_;
};

// INVALID_ARGUMENT unless `room` names a table or a game by a well-formed
// id (1-64 of [A-Za-z0-9_-]).
absl::Status ValidateRoom(const v1::ChatRoom& room);

}  // namespace draughts::chat

#endif  // DRAUGHTS_CHAT_CHAT_SERVICE_H_
