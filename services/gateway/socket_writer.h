// The sending half of a game or table WebSocket: frames queued on the
// connection's strand and written one at a time, a bound on the queue (a
// client reading too slowly is closed with 1013), and the closing
// handshakes. Strand only; every asynchronous handler keeps the socket that
// owns the writer alive through `owner`.
#ifndef DRAUGHTS_GATEWAY_SOCKET_WRITER_H_
#define DRAUGHTS_GATEWAY_SOCKET_WRITER_H_

#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>
#include <chrono>
#include <cstddef>
#include <deque>
#include <functional>
#include <memory>
#include <string>

#include "gateway/gateway_metrics.h"

namespace draughts::gateway {

class SocketWriter {
 public:
  using Stream = boost::beast::websocket::stream<boost::beast::tcp_stream>;

  // Frames waiting for a slow client beyond this close the socket (1013).
  static constexpr std::size_t kMaxQueuedFrames = 512;
  // How long a socket refusing a message waits for the client's close frame
  // (discarding what it still sends) before dropping the connection.
  static constexpr std::chrono::seconds kCloseHandshakeTimeout{3};

  // `on_closed` runs on the strand when a write fails or a closing
  // handshake ends; the socket marks itself closed there.
  SocketWriter(Stream& ws, GatewayMetrics* metrics, std::function<void()> on_closed);

  // True once a close has started: nothing more is queued or written.
  bool closing() const { return closing_; }

  // Queues `frame`. False when it was not queued: already closing, or the
  // queue was full, in which case the socket is now closing with 1013.
  bool Send(std::string frame, std::shared_ptr<void> owner);
  // The same for a frame shared by every socket of a game (written once,
  // queued on each without a copy).
  bool Send(std::shared_ptr<const std::string> frame, std::shared_ptr<void> owner);

  // Starts the closing handshake with `code` unless a close has started.
  // False when one had.
  bool Close(boost::beast::websocket::close_code code, std::shared_ptr<void> owner);

  // Closes with 1009 (a message too big) and, rather than resetting the
  // connection under a client still sending, reads and discards what it
  // sends until its close frame, for kCloseHandshakeTimeout at most.
  bool CloseTooBig(std::shared_ptr<void> owner);

 private:
  void Write(std::shared_ptr<void> owner);
  void OnWrite(std::shared_ptr<void> owner, boost::beast::error_code error);

  Stream& ws_;
  GatewayMetrics* const metrics_;
  const std::function<void()> on_closed_;
  std::deque<std::shared_ptr<const std::string>> outbox_;
  bool writing_ = false;
  bool closing_ = false;
};

}  // namespace draughts::gateway

#endif  // DRAUGHTS_GATEWAY_SOCKET_WRITER_H_
