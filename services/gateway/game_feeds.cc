#include "gateway/game_feeds.h"

#include <memory>
#include <string>

#include "draughts/v1/web_socket.pb.h"
#include "gateway/table_frames.h"

namespace draughts::gateway {

GameFeeds::Kind GameFeedKind() {
  GameFeeds::Kind kind;
  kind.request = [](const std::string& game_id, const std::string& after) {
    v1::WatchGameRequest request;
    request.set_game_id(game_id);
    request.set_from_event_id(after);
    return request;
  };
  kind.id_of = [](const v1::GameEvent& event) { return event.event_id(); };
  kind.frame_of = [](const v1::GameEvent& event) {
    v1::ServerFrame frame;
    *frame.mutable_game_event() = event;
    return std::make_shared<const std::string>(FrameJson(frame));
  };
  return kind;
}

TableFeeds::Kind TableFeedKind() {
  TableFeeds::Kind kind;
  kind.request = [](const std::string& table_id, const std::string& after) {
    v1::WatchTableRequest request;
    request.set_table_id(table_id);
    request.set_from_event_id(after);
    return request;
  };
  kind.id_of = [](const v1::TableEvent& event) { return event.event_id(); };
  return kind;
}

ChatFeeds::Kind ChatFeedKind() {
  ChatFeeds::Kind kind;
  kind.request = [](const std::string& table_id, const std::string& after) {
    v1::WatchChatRequest request;
    request.mutable_room()->set_table_id(table_id);
    request.set_from_message_id(after);
    return request;
  };
  kind.id_of = [](const v1::ChatMessage& message) { return message.message_id(); };
  kind.frame_of = [](const v1::ChatMessage& message) {
    v1::ServerFrame frame;
    *frame.mutable_chat_message() = message;
    return std::make_shared<const std::string>(FrameJson(frame));
  };
  return kind;
}

}  // namespace draughts::gateway
