// The WebSocket of one table for one browser tab (docs/WEB_PROTOCOL.md,
// "Table WebSocket"): the table's events (WatchTable), its current game
// (snapshots and WatchGame), the move timer (GetClock), the chat
// (ListMessages + WatchChat), and the player's actions, as the ClientFrame
// and ServerFrame messages of web_socket.proto.
//
// Bound once, at opening, to the session's seats (TableSocketOpening): seat
// tokens stay in this object and go only to game_state and chat.
//
// Threads: socket I/O and all of this object's state live on the
// connection's strand. The three streams are read with gRPC's callback API
// (stream_reactor.h: no thread per stream), each shared by the sockets of
// its table in this process (game_feeds.h); their events, the answers of game
// actions (callback API) and of the other calls (blocking, on the worker
// pool) are posted back to the strand. Closing the socket cancels the
// streams.
#ifndef DRAUGHTS_GATEWAY_TABLE_SOCKET_H_
#define DRAUGHTS_GATEWAY_TABLE_SOCKET_H_

#include <atomic>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>
#include <chrono>
#include <deque>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <string>

#include "draughts/v1/chat.pb.h"
#include "draughts/v1/web_socket.pb.h"
#include "gateway/game_feeds.h"
#include "gateway/game_snapshot_cache.h"
#include "gateway/gateway_context.h"
#include "gateway/socket_hub.h"
#include "gateway/socket_writer.h"
#include "gateway/stream_reactor.h"
#include "gateway/table_frames.h"
#include "gateway/table_socket_limits.h"
#include "gateway/table_socket_open.h"
#include "gateway/table_socket_services.h"

namespace draughts::gateway {

class TableSocket : public HubMember, public std::enable_shared_from_this<TableSocket> {
 public:
  static constexpr int kMaxActionsInFlight = 8;
  // Actions per second per socket, on average and at once (pings are free).
  static constexpr double kActionsPerSecond = 5;
  static constexpr double kActionBurst = 10;
  static constexpr int kChatHistory = 50;
  // Polls of the rating histories after a rated game, backing off from
  // 100 ms (about 13 s in all), before giving up on its changes.
  static constexpr int kRatingChangePolls = 8;

  // The caller had SocketHub::Admit() and the session counter's TryAcquire
  // succeed for this socket; the destructor gives both back.
  TableSocket(boost::asio::ip::tcp::socket socket, GatewayContext context,
              TableSocketServices* services, TableSocketOpening opening);
  ~TableSocket() override;

  void Start(const boost::beast::http::request<boost::beast::http::string_body>& request);
  void CloseGoingAway() override;

 private:
  // --- I/O (as GameSocket) ---
  void OnAccept(boost::beast::error_code error);
  void Read();
  void OnRead(boost::beast::error_code error, std::size_t bytes);
  void Send(const v1::ServerFrame& frame);
  // A frame printed once for every socket of the game.
  void SendJson(std::shared_ptr<const std::string> json);
  void MarkClosed();
  bool open() const { return !writer_.closing() && !closed_; }
  // Runs `work` on the strand if the socket is still open then.
  void OnStrand(std::function<void()> work);
  // Runs `work` on the worker pool.
  void OnWorker(std::function<void()> work);
  // Runs `work` on the strand after a backoff for `failures`.
  void After(int failures, std::function<void()> work);
  // Follows one of the three streams (shared with the other sockets of this
  // process, game_feeds.h): its events and its end are posted to the
  // strand, to `on_event` and `on_done` with `generation` (which drop them
  // once a newer stream has replaced this one).
  template <typename Feeds>
  std::shared_ptr<typename Feeds::Subscription> Follow(
      Feeds& feeds, const std::string& key, const std::string& after, int generation,
      void (TableSocket::*on_event)(int, std::shared_ptr<const typename Feeds::Fed>),
      void (TableSocket::*on_done)(int, const grpc::Status&));

  // --- the table ---
  void SendWelcome();
  void WatchTable();
  void OnTableEvent(int generation, std::shared_ptr<const TableFeeds::Fed> fed);
  void OnTableDone(int generation, const grpc::Status& status);
  void SendTableView(const v1::TableEvent* event);
  // A game newer than the one shown started: refresh the tokens, then feed it.
  void SwitchGame(const std::string& game_id);

  // --- the game ---
  void FeedGame(const std::string& game_id, const std::string& after);
  void WatchGame();
  void OnGameEvent(int generation, std::shared_ptr<const FeedEvent> fed);
  void OnGameDone(int generation, const grpc::Status& status);
  // Reads the game and its clock at `min_version` or newer (< 0: a read
  // started now) and sends snapshot, clock and table.
  void RefreshGame(int64_t min_version, std::function<void()> then = nullptr);
  void ShowGame(std::shared_ptr<const GameSnapshot> snapshot);
  // A frame of the game (an event that needs no snapshot, gameOver): sent
  // now, or after the events held before it.
  void SendGameFrame(std::shared_ptr<const std::string> json);
  // Sends the held frames up to `version`'s snapshot, that snapshot inside
  // the frame of its event (snapshotAfter) or else after them; with
  // kEveryVersion and no snapshot, every held frame as it is.
  static constexpr int64_t kEveryVersion = std::numeric_limits<int64_t>::max();
  void ReleaseHeld(int64_t version, const std::shared_ptr<const std::string>& snapshot_frame);
  // The game last shown (null before the first snapshot of a game).
  const v1::GameState* shown_game() const;
  std::vector<v1::Color> MyColors() const;
  // A rated game between two accounts ended: polls both players' histories
  // (on the worker pool, backing off on the strand) until the rating
  // service has recorded it, then sends `over` again with the changes.
  struct RatedGameOver {
    v1::ServerFrame over;
    std::string variant;
    v1::Seat white;
    v1::Seat black;
  };
  void SendRatingChanges(std::shared_ptr<const RatedGameOver> ended, int attempt);

  // --- presence ---
  void Heartbeat();
  // All beats answered: the next in `interval`, or none (`stop`).
  void NextHeartbeat(const std::string& game_id, absl::Duration interval, bool stop);
  void StopHeartbeats(bool send_closing);

  // --- chat ---
  void LoadChat();
  void WatchChat();
  void OnChatMessage(int generation, std::shared_ptr<const ChatFeeds::Fed> fed);
  void OnChatDone(int generation, const grpc::Status& status);

  // --- actions ---
  void HandleFrame(const std::string& text);
  struct ActionResult {
    absl::Status status;
    bool started = false;
    bool left = false;
    GameTokens tokens;  // from StartGame / VoteRematch
  };
  ActionResult RunAction(const v1::ClientFrame& frame, const v1::GameState& game,
                         const GameTokens& tokens, const std::vector<v1::Color>& colors,
                         const std::string& idempotency_key) const;
  // A move, resignation or draw offer or answer for game_state (the token
  // of the colour it is for), or why not.
  absl::StatusOr<ClientAction> GameActionOf(const v1::ClientFrame& frame, const v1::GameState& game,
                                            const GameTokens& tokens,
                                            const std::vector<v1::Color>& colors) const;
  void FinishAction(const std::string& request_id, ActionResult result);

  struct Ticket {
    SocketHub* hub;
    HubMember* key;
    SessionSocketCounter* counter;
    std::string session_id;
    ~Ticket() {
      if (counter != nullptr) counter->Release(session_id);
      hub->Leave(key);
    }
  };
  Ticket ticket_;

  boost::beast::websocket::stream<boost::beast::tcp_stream> ws_;
  const GatewayContext context_;
  TableSocketServices* const services_;
  TableSocketOpening opening_;
  const std::string connection_id_;

  // Strand-only state.
  SocketWriter writer_;
  boost::beast::flat_buffer buffer_;
  bool opened_ = false;
  SocketActionLimiter limiter_{kActionsPerSecond, kActionBurst};
  int actions_in_flight_ = 0;
  int action_seq_ = 0;

  v1::Table table_;
  TableScore score_;
  std::string table_from_;
  int table_generation_ = 0;
  int table_failures_ = 0;
  int known_games_played_ = 0;
  std::string last_table_view_;  // binary, without its event
  // What the last view was built from besides the table and the score
  // (TableViewGameKey), and whether a table event came since.
  std::string last_table_view_game_key_;
  bool table_changed_ = true;

  std::string game_id_;
  std::string game_from_;
  std::shared_ptr<const GameSnapshot> shown_;
  int64_t shown_version_ = -1;
  int game_generation_ = 0;
  int game_failures_ = 0;
  bool refreshing_ = false;
  bool refresh_again_ = false;
  int64_t refresh_again_version_ = -1;
  std::function<void()> refresh_then_;
  // The game's frames waiting for a snapshot, in order: an event that
  // changes it goes out with it (one frame a move, not two), and the frames
  // after such an event wait their turn.
  struct HeldFrame {
    std::shared_ptr<const std::string> json;
    // The event's version, whose snapshot it waits for; -1 for a frame
    // that waits only for those before it.
    int64_t snapshot_version = -1;
  };
  std::deque<HeldFrame> held_;

  std::string chat_from_;
  int chat_generation_ = 0;
  int chat_failures_ = 0;

  std::optional<boost::asio::steady_timer> heartbeat_timer_;
  std::string heartbeat_game_id_;
  std::vector<v1::Color> heartbeat_colors_;

  std::shared_ptr<TableFeeds::Subscription> table_stream_;
  std::shared_ptr<GameFeeds::Subscription> game_stream_;
  std::shared_ptr<ChatFeeds::Subscription> chat_stream_;
  std::atomic<bool> closed_{false};
};

}  // namespace draughts::gateway

#endif  // DRAUGHTS_GATEWAY_TABLE_SOCKET_H_
