// Before a table socket is upgraded (blocking; runs on a worker): the
// session, the Origin, the query, and the binding of the socket to the
// session's seats at the table (MatchmakingService.GetTable with the
// session's player as requester). The error maps to the HTTP answer that
// replaces the upgrade.
#ifndef DRAUGHTS_GATEWAY_TABLE_SOCKET_OPEN_H_
#define DRAUGHTS_GATEWAY_TABLE_SOCKET_OPEN_H_

#include <map>
#include <string>

#include "absl/status/statusor.h"
#include "draughts/v1/matchmaking.pb.h"
#include "gateway/api_handlers.h"
#include "gateway/http_types.h"
#include "gateway/matchmaking_backend.h"
#include "gateway/session_store.h"
#include "gateway/table_frames.h"

namespace draughts::gateway {

// The seat tokens of one game, by colour. Kept server-side only.
struct GameTokens {
  std::string game_id;
  std::map<v1::Color, std::string> by_color;
};

struct TableSocketOpening {
  std::string table_id;
  // The session's secret id: only for the chat's spectator rate limit and
  // the per-session socket count; never sent, never logged.
  std::string session_id;
  // The session's player as matchmaking knows requesters.
  v1::Seat requester;
  v1::Table table;
  SeatBinding binding;
  GameTokens tokens;
  bool chat_muted = false;
  std::string invite_path;
  // Resume: the game and its last event seen, the last chat message seen.
  std::string resume_game_id;
  std::string resume_game_after;
  std::string resume_chat_after;
  // The client reads ServerFrame.snapshot_after (?snapshotAfter=1): an
  // event that changes the game then carries its snapshot. Pages loaded
  // before it existed do not ask, and get the snapshot in a frame of its
  // own as they always did.
  bool snapshot_after_events = false;
};

// The requester Seat for a session.
v1::Seat RequesterOf(const Session& session);

// The tokens of `response` (GetTable, StartGame, VoteRematch answers).
GameTokens TokensOf(const google::protobuf::RepeatedPtrField<v1::PlayerToken>& tokens);

absl::StatusOr<TableSocketOpening> OpenTableSocket(ApiHandlers& handlers,
                                                   MatchmakingBackend& matchmaking,
                                                   const std::string& table_id,
                                                   const HttpRequest& request);

}  // namespace draughts::gateway

#endif  // DRAUGHTS_GATEWAY_TABLE_SOCKET_OPEN_H_
