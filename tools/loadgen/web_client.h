// A small asynchronous HTTP and WebSocket client over Boost.Beast, as a
// browser talks to the gateway: one request per connection (with the
// session cookie), and text WebSockets whose writes are queued. Everything
// of one client runs on the io_context it is given (one thread), so
// thousands of sockets need no thread of their own.
#ifndef DRAUGHTS_TOOLS_LOADGEN_WEB_CLIENT_H_
#define DRAUGHTS_TOOLS_LOADGEN_WEB_CLIENT_H_

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/websocket/stream.hpp>
#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

namespace draughts::loadgen {

struct HttpAnswer {
  // 0 when the exchange failed below HTTP (connect, read...); `error` says why.
  int status = 0;
  std::string error;
  std::string body;
  // The value of the draughts_session cookie set by the answer, if any.
  std::string session_cookie;
};

struct HttpCall {
  std::string method;  // "GET" or "POST"
  std::string target;  // "/api/tables"
  std::string body;    // sent as application/json when not empty (or for POST)
  std::string session_cookie;
  std::string idempotency_key;
};

// Sends `call` to `server` on `io` and calls `done` there with the answer.
void SendHttp(boost::asio::io_context& io, const boost::asio::ip::tcp::endpoint& server,
              HttpCall call, std::function<void(HttpAnswer)> done);

// One WebSocket: Open, then text frames in (on_frame) and out (Send, queued
// so only one write runs at a time), Close. Callbacks run on the io_context.
class WebSocketClient : public std::enable_shared_from_this<WebSocketClient> {
 public:
  struct Handlers {
    std::function<void()> on_open;
    std::function<void(std::string_view text)> on_frame;
    // The socket closed or failed (not called after Close()).
    std::function<void(const std::string& why)> on_closed;
  };

  WebSocketClient(boost::asio::io_context& io, Handlers handlers);

  // Connects to `server`, upgrades `target` with the cookie and an Origin
  // naming the server itself (as a page served by the gateway does).
  void Open(const boost::asio::ip::tcp::endpoint& server, std::string target,
            std::string session_cookie);
  void Send(std::string text);
  // Closes with 1000 and drops the handlers.
  void Close();
  bool open() const { return open_; }

 private:
  void Read();
  void WriteNext();
  void Fail(const std::string& why);

  boost::beast::websocket::stream<boost::beast::tcp_stream> ws_;
  Handlers handlers_;
  boost::beast::flat_buffer buffer_;
  std::deque<std::string> outbox_;
  bool writing_ = false;
  bool open_ = false;
  bool closing_ = false;
  bool close_after_write_ = false;
  std::string host_;
};

}  // namespace draughts::loadgen

#endif  // DRAUGHTS_TOOLS_LOADGEN_WEB_CLIENT_H_
