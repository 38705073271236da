// The gateway's calls to the chat (draughts.v1.ChatService) for table
// sockets: posting, the recent history, and the WatchChat stream's stub.
// Thread-safe (the client is).
#ifndef DRAUGHTS_GATEWAY_CHAT_BACKEND_H_
#define DRAUGHTS_GATEWAY_CHAT_BACKEND_H_

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "draughts/v1/chat.grpc.pb.h"
#include "platform/grpc_client.h"

namespace draughts::gateway {

using ChatClient = platform::GrpcClient<v1::ChatService>;

class ChatBackend {
 public:
  explicit ChatBackend(std::unique_ptr<ChatClient> client);

  // Carries an idempotency key, so a retry after UNAVAILABLE posts once.
  absl::StatusOr<v1::PostMessageResponse> Post(const v1::PostMessageRequest& request);
  // The table room's newest `count` messages, oldest first.
  absl::StatusOr<std::vector<v1::ChatMessage>> Recent(const std::string& table_id, int count);

  // For WatchChat (a stream: the caller resumes it itself).
  ChatClient& client() { return *client_; }

 private:
  std::unique_ptr<ChatClient> client_;
};

}  // namespace draughts::gateway

#endif  // DRAUGHTS_GATEWAY_CHAT_BACKEND_H_
