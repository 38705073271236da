#include "gateway/chat_backend.h"

#include <algorithm>
#include <utility>

#include "platform/status_macros.h"

namespace draughts::gateway {
namespace {

platform::CallOptions Repeatable() {
  platform::CallOptions options;
  options.safe_to_retry = true;
  return options;
}

}  // namespace

ChatBackend::ChatBackend(std::unique_ptr<ChatClient> client) : client_(std::move(client)) {}

absl::StatusOr<v1::PostMessageResponse> ChatBackend::Post(const v1::PostMessageRequest& request) {
  return client_->Call(&ChatClient::Stub::PostMessage, request, Repeatable());
}

absl::StatusOr<std::vector<v1::ChatMessage>> ChatBackend::Recent(const std::string& table_id,
                                                                 int count) {
  v1::ListMessagesRequest request;
  request.mutable_room()->set_table_id(table_id);
  request.set_page_size(count);
  DRAUGHTS_ASSIGN_OR_RETURN(v1::ListMessagesResponse listed,
                            client_->Call(&ChatClient::Stub::ListMessages, request, Repeatable()));
  std::vector<v1::ChatMessage> messages(listed.messages().begin(), listed.messages().end());
  std::reverse(messages.begin(), messages.end());  // newest first -> oldest first
  return messages;
}

}  // namespace draughts::gateway
