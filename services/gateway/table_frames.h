// The table WebSocket's frames (proto/draughts/v1/web_socket.proto,
// docs/WEB_PROTOCOL.md "Table WebSocket"): parsing what a browser sends and
// building what the gateway sends, from the backends' messages. Pure
// functions and one small value class; nothing here blocks or throws, and a
// bad frame becomes an INVALID_ARGUMENT status.
#ifndef DRAUGHTS_GATEWAY_TABLE_FRAMES_H_
#define DRAUGHTS_GATEWAY_TABLE_FRAMES_H_

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "draughts/v1/clock.pb.h"
#include "draughts/v1/matchmaking.pb.h"
#include "draughts/v1/web_socket.pb.h"
#include "gateway/ws_protocol.h"

namespace draughts::gateway {

// What a client frame asks for. On INVALID_ARGUMENT, `request_id` (when not
// null) still receives the frame's requestId if one could be read.
absl::StatusOr<v1::ClientFrame> ParseClientFrame(std::string_view text,
                                                 std::string* request_id = nullptr);

// A frame's JSON (protobuf's mapping, every field printed).
std::string FrameJson(const v1::ServerFrame& frame);

v1::ServerFrame TableAckFrame(std::string_view request_id, bool started = false);
v1::ServerFrame TableErrorFrame(std::string_view request_id, const absl::Status& status);

// The table's finished games, counted by seat from its events (colours swap
// at rematches; seats do not). Events are applied in order, each once.
class TableScore {
 public:
  void Apply(const v1::TableEvent& event);
  const v1::ServerFrame::Score& score() const { return score_; }

 private:
  v1::ServerFrame::Score score_ = Empty();
  static v1::ServerFrame::Score Empty();
};

// Which seats a socket holds and, per game, which colours.
struct SeatBinding {
  std::vector<int> seat_indexes;  // empty: a spectator
  bool holds(int index) const;
};

// The colours `binding` plays in the table's current game (from the seats'
// colours).
std::vector<v1::Color> ColorsOf(const v1::Table& table, const SeatBinding& binding);

// The table view: `game` (may be null: no game yet) gives each seat's
// presence; `clock` (may be null) the abandon deadlines; `event` (may be
// null) the event the view follows.
v1::ServerFrame TableViewFrame(const v1::Table& table, const TableScore& score,
                               const SeatBinding& binding, const v1::GameState* game,
                               const v1::GetClockResponse* clock, const v1::TableEvent* event);

// What TableViewFrame reads from the game and the clock, as a short key:
// equal keys (with the same table, score and binding) make the same view.
std::string TableViewGameKey(const v1::GameState* game, const v1::GetClockResponse* clock);

// The move timer of a snapshot: the clock's own answer when `clock` is for
// this ply, else game_state's deadline counted from `now` (the gateway reads
// the clock only while a seat is away: gateway/game_snapshot_cache.h).
v1::ServerFrame::ClockView TableClockView(const v1::GameState& game,
                                          const v1::GetClockResponse* clock, absl::Time now);

// The game snapshot for a socket playing `colors`, with its move timer:
// legal moves only when it holds the side to move.
v1::ServerFrame TableSnapshotFrame(const GameView& view, const std::vector<v1::Color>& colors,
                                   const v1::ServerFrame::ClockView& clock);

// The JSON of the parts of a snapshot frame that do not depend on the
// socket, printed once per read rather than once per socket kind.
struct SnapshotJsonParts {
  std::string game;
  std::string legal_moves;  // a JSON array
  std::string clock;
};
SnapshotJsonParts PrintSnapshotParts(const GameView& view, const v1::ServerFrame::ClockView& clock);

// FrameJson(TableSnapshotFrame(view, colors, clock)), byte for byte, put
// together from `parts` (of the same view and clock).
std::string TableSnapshotJson(const GameView& view, const SnapshotJsonParts& parts,
                              const std::vector<v1::Color>& colors);

// FrameJson of a gameEvent frame with `snapshot_frame`'s snapshot as its
// snapshotAfter, put together from the two frames as printed (FrameJson of
// a gameEvent frame, TableSnapshotJson); nullopt when either is not of
// that shape.
std::optional<std::string> EventWithSnapshotJson(std::string_view event_frame,
                                                 std::string_view snapshot_frame);

v1::ServerFrame TableGameOverFrame(const v1::GameEvent& ended);

// Which colour a player's action is for: `asked` if given and held, else
// the side to move if held (for an answer to a draw: the side that did not
// offer), else the only colour held. PERMISSION_DENIED for a spectator or
// a colour not held, FAILED_PRECONDITION when there is no game.
absl::StatusOr<v1::Color> ActingColor(const std::vector<v1::Color>& held, v1::Color asked,
                                      const v1::GameState& game, bool answering_draw);

}  // namespace draughts::gateway

#endif  // DRAUGHTS_GATEWAY_TABLE_FRAMES_H_
