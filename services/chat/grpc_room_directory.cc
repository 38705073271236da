#include "chat/grpc_room_directory.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "platform/status_macros.h"

namespace draughts::chat {
namespace {

// What the owner answered, in the codes chat.proto promises: an unknown id
// stays NOT_FOUND and a refused token PERMISSION_DENIED; anything that is
// not an answer about the request (a timeout, a fault) means "try again".
absl::Status AsChatStatus(const absl::Status& status, absl::string_view what) {
  switch (status.code()) {
    case absl::StatusCode::kOk:
    case absl::StatusCode::kNotFound:
    case absl::StatusCode::kInvalidArgument:
    case absl::StatusCode::kPermissionDenied:
    case absl::StatusCode::kUnavailable:
      return status;
    default:
      return absl::UnavailableError(absl::StrCat(what, " failed: ", status.message()));
  }
}

}  // namespace

std::string RoomKey(const v1::ChatRoom& id) {
  return id.has_game_id() ? absl::StrCat("game/", id.game_id())
                          : absl::StrCat("table/", id.table_id());
}

GrpcRoomDirectory::GrpcRoomDirectory(GameClient* games, MatchmakingClient* tables,
                                     RoomCacheOptions options, std::function<absl::Time()> now)
    : games_(games), tables_(tables), options_(options), now_(std::move(now)) {}

absl::StatusOr<Room> GrpcRoomDirectory::FindRoom(const v1::ChatRoom& id) {
  const std::string asked = RoomKey(id);
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto cached = cache_.find(asked);
    if (cached != cache_.end() && cached->second.expires > now_()) return cached->second.room;
  }
  DRAUGHTS_ASSIGN_OR_RETURN(Room room, AskOwner(id));
  std::lock_guard<std::mutex> lock(mu_);
  if (cache_.size() >= options_.max_rooms) cache_.clear();
  cache_[asked] = {room, now_() + options_.ttl};
  return room;
}

absl::StatusOr<Room> GrpcRoomDirectory::AskOwner(const v1::ChatRoom& id) {
  Room room;
  if (id.has_game_id()) {
    v1::GetGameRequest request;
    request.set_game_id(id.game_id());
    absl::StatusOr<v1::GetGameResponse> got =
        games_->Call(&GameClient::Stub::GetGame, request, {.safe_to_retry = true});
    if (!got.ok()) return AsChatStatus(got.status(), "GameService.GetGame");
    const v1::GameState& game = got->game();
    // A game at a table talks in the table's room, across rematches; the
    // game carries the table's options.
    if (!game.table_id().empty()) {
      room.id.set_table_id(game.table_id());
    } else {
      room.id.set_game_id(game.game_id().empty() ? id.game_id() : game.game_id());
    }
    room.spectators_muted = game.options().spectators_muted();
  } else {
    v1::GetTableRequest request;
    request.set_table_id(id.table_id());
    absl::StatusOr<v1::GetTableResponse> got =
        tables_->Call(&MatchmakingClient::Stub::GetTable, request, {.safe_to_retry = true});
    if (!got.ok()) return AsChatStatus(got.status(), "MatchmakingService.GetTable");
    room.id.set_table_id(id.table_id());
    room.spectators_muted = got->table().options().spectators_muted();
  }
  room.key = RoomKey(room.id);
  return room;
}

absl::StatusOr<SeatedPlayer> GrpcRoomDirectory::ResolvePlayer(const std::string& game_id,
                                                              const std::string& player_token) {
  v1::ResolvePlayerTokenRequest request;
  request.set_game_id(game_id);
  request.set_player_token(player_token);
  absl::StatusOr<v1::ResolvePlayerTokenResponse> got =
      games_->Call(&GameClient::Stub::ResolvePlayerToken, request, {.safe_to_retry = true});
  if (!got.ok()) return AsChatStatus(got.status(), "GameService.ResolvePlayerToken");
  SeatedPlayer player;
  player.color = got->color();
  player.seat = got->seat();
  return player;
}

}  // namespace draughts::chat
