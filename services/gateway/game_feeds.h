// The table socket's three shared streams (shared_feeds.h): a game's
// events (GameService.WatchGame, each printed once as the sockets'
// `gameEvent` frame), a table's events (MatchmakingService.WatchTable; each
// socket builds its own view from them) and a chat room's messages
// (ChatService.WatchChat, printed once as `chatMessage`).
#ifndef DRAUGHTS_GATEWAY_GAME_FEEDS_H_
#define DRAUGHTS_GATEWAY_GAME_FEEDS_H_

#include "draughts/v1/chat.pb.h"
#include "draughts/v1/game.pb.h"
#include "draughts/v1/matchmaking.pb.h"
#include "gateway/shared_feeds.h"

namespace draughts::gateway {

using GameFeeds = SharedFeeds<v1::WatchGameRequest, v1::GameEvent>;
using FeedEvent = GameFeeds::Fed;
GameFeeds::Kind GameFeedKind();

using TableFeeds = SharedFeeds<v1::WatchTableRequest, v1::TableEvent>;
TableFeeds::Kind TableFeedKind();

// Keyed by table id (a table's room).
using ChatFeeds = SharedFeeds<v1::WatchChatRequest, v1::ChatMessage>;
ChatFeeds::Kind ChatFeedKind();

}  // namespace draughts::gateway

#endif  // DRAUGHTS_GATEWAY_GAME_FEEDS_H_
