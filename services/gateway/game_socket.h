// The WebSocket of one game for one browser (docs/WEB_PROTOCOL.md): sends a
// snapshot, then every event of GameService.WatchGame with a fresh snapshot
// after each one that changes the board, and forwards the player's actions.
//
// Threads: socket I/O runs on the connection's strand; the WatchGame stream
// is read by one dedicated thread per socket (the number of sockets is
// bounded by SocketHub); actions run on the worker pool. Frames from any of
// them are queued on the strand. Closing the socket cancels the stream
// (ClientContext::TryCancel), which ends the reader thread.
#ifndef DRAUGHTS_GATEWAY_GAME_SOCKET_H_
#define DRAUGHTS_GATEWAY_GAME_SOCKET_H_

#include <grpcpp/grpcpp.h>

#include <atomic>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>
#include <chrono>
#include <deque>
#include <memory>
#include <string>

#include "absl/synchronization/mutex.h"
#include "gateway/gateway_context.h"
#include "gateway/socket_hub.h"

namespace draughts::gateway {

class GameSocket : public HubMember, public std::enable_shared_from_this<GameSocket> {
 public:
  // Frames waiting for a slow client beyond this close the socket (1013).
  static constexpr std::size_t kMaxQueuedFrames = 512;
  // Actions of one socket waiting for game_state at once.
  static constexpr int kMaxActionsInFlight = 8;
  // How long a socket refusing a message waits for the client's close frame
  // (discarding what it still sends) before dropping the connection.
  static constexpr std::chrono::seconds kCloseHandshakeTimeout{3};

  // The caller has had SocketHub::Admit() return true for this socket; the
  // destructor calls Leave().
  GameSocket(boost::asio::ip::tcp::socket socket, GatewayContext context, std::string game_id,
             std::string after_event_id);
  ~GameSocket() override;

  // Completes the upgrade `request` asked for and starts the game's feed.
  void Start(const boost::beast::http::request<boost::beast::http::string_body>& request);

  void CloseGoingAway() override;

 private:
  void OnAccept(boost::beast::error_code error);
  void Read();
  void OnRead(boost::beast::error_code error, std::size_t bytes);
  void HandleFrame(const std::string& text);
  // A message over kMaxMessageBytes: close with 1009 and wait for the
  // client's close, so a client still sending reads the code, not a reset.
  void CloseTooBig();
  // From any thread: queue a frame on the strand.
  void Send(std::string frame);
  // On the strand.
  void Enqueue(std::string frame);
  void Write();
  void OnWrite(boost::beast::error_code error, std::size_t bytes);
  void MarkClosed();

  // The reader thread's body.
  void RunWatcher();
  void CancelWatch();
  // Sleeps up to `duration`; false when the socket closed meanwhile.
  bool SleepUnlessClosed(absl::Duration duration);

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
  const std::string after_event_id_;

  // Strand-only state.
  boost::beast::flat_buffer buffer_;
  std::deque<std::string> outbox_;
  bool writing_ = false;
  bool closing_ = false;
  bool opened_ = false;
  int actions_in_flight_ = 0;

  std::atomic<bool> closed_{false};
  absl::Mutex watch_mu_;
  bool stop_watch_ ABSL_GUARDED_BY(watch_mu_) = false;
  grpc::ClientContext* watch_context_ ABSL_GUARDED_BY(watch_mu_) = nullptr;
};

}  // namespace draughts::gateway

#endif  // DRAUGHTS_GATEWAY_GAME_SOCKET_H_
