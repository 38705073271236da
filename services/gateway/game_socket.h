// The WebSocket of one game for one browser (docs/WEB_PROTOCOL.md): sends a
// snapshot, then every event of GameService.WatchGame with a fresh snapshot
// after each one that changes the board, and forwards the player's actions.
//
// Threads: socket I/O and all of this object's state live on the
// connection's strand. WatchGame is read with gRPC's callback API
// (stream_reactor.h: no thread per socket) and its events are posted to the
// strand; snapshots are read and actions sent with the callback API too
// (GameBackend's *Async calls: no thread waits for game_state), their
// answers posted back. Events arriving while a snapshot is being read wait
// for it, so frames keep the order of a reader that re-reads the snapshot
// before passing on the next event. Closing the socket cancels the stream.
#ifndef DRAUGHTS_GATEWAY_GAME_SOCKET_H_
#define DRAUGHTS_GATEWAY_GAME_SOCKET_H_

#include <grpcpp/grpcpp.h>

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "draughts/v1/game.pb.h"
#include "gateway/gateway_context.h"
#include "gateway/socket_hub.h"
#include "gateway/socket_writer.h"
#include "gateway/stream_reactor.h"

namespace draughts::gateway {

class GameSocket : public HubMember, public std::enable_shared_from_this<GameSocket> {
 public:
  // Actions of one socket waiting for game_state at once.
  static constexpr int kMaxActionsInFlight = 8;
  // A WatchGame stream ending with UNAVAILABLE (a replica draining, Redis
  // blinking) is resumed from the last event this many times in a row.
  static constexpr int kMaxStreamFailures = 6;

  // The caller has had SocketHub::Admit() return true for this socket; the
  // destructor calls Leave().
  GameSocket(boost::asio::ip::tcp::socket socket, GatewayContext context, std::string game_id,
             std::string after_event_id);
  ~GameSocket() override;

  // Completes the upgrade `request` asked for and starts the game's feed.
  void Start(const boost::beast::http::request<boost::beast::http::string_body>& request);

  void CloseGoingAway() override;

 private:
  // --- I/O ---
  void OnAccept(boost::beast::error_code error);
  void Read();
  void OnRead(boost::beast::error_code error, std::size_t bytes);
  void HandleFrame(const std::string& text);
  void Send(std::string frame);
  void MarkClosed();
  bool open() const { return !writer_.closing() && !closed_; }
  // Runs `work` on the strand if the socket is still open then.
  void OnStrand(std::function<void()> work);
  // Ends the stream and its pending resume.
  void StopWatch();

  // --- the game's feed ---
  // Reads the game and sends its snapshot; the first read then starts the
  // stream.
  void ReadSnapshot(bool first);
  void WatchGame();
  void OnGameEvent(v1::GameEvent event);
  void OnWatchDone(const grpc::Status& status);
  void PassOn(const v1::GameEvent& event);
  // Passes on what waited for a snapshot read, until the next read starts.
  void PassHeld();

  // Gives the hub place back. Declared first so it is destroyed last: the
  // hub (and so shutdown, which then destroys the io_context) must not see
  // the socket gone while its stream is still being destroyed.
  struct HubTicket {
    SocketHub* hub;
    HubMember* key;
    ~HubTicket() { hub->Leave(key); }
  };
  HubTicket ticket_;

  boost::beast::websocket::stream<boost::beast::tcp_stream> ws_;
  const GatewayContext context_;
  const std::string game_id_;

  // Strand-only state.
  SocketWriter writer_;
  boost::beast::flat_buffer buffer_;
  bool opened_ = false;
  int actions_in_flight_ = 0;

  std::string watch_from_;
  int watch_failures_ = 0;
  int64_t shown_version_ = -1;
  bool reading_snapshot_ = false;
  std::deque<v1::GameEvent> held_events_;
  std::optional<grpc::Status> held_done_;
  std::shared_ptr<StreamHandle> stream_;
  std::optional<boost::asio::steady_timer> resume_timer_;

  bool closed_ = false;
};

}  // namespace draughts::gateway

#endif  // DRAUGHTS_GATEWAY_GAME_SOCKET_H_
