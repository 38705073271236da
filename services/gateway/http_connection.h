// One HTTP/1.1 connection: reads requests (bodies over 16 KiB refused with
// 413 before they are read), routes them, runs the handler on the worker
// pool and writes the answer; keep-alive; hands the socket to a GameSocket
// on a WebSocket upgrade of /ws/games/{id}.
#ifndef DRAUGHTS_GATEWAY_HTTP_CONNECTION_H_
#define DRAUGHTS_GATEWAY_HTTP_CONNECTION_H_

#include <array>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <memory>
#include <optional>
#include <string>

#include "gateway/gateway_context.h"
#include "gateway/http_types.h"
#include "gateway/router.h"

namespace draughts::gateway {

// The limits every request is read with: a body over kMaxMessageBytes (the
// route's BodyLimit once its header is read), or headers over 8 KiB, fail
// the read before the rest is buffered.
void ApplyRequestLimits(
    boost::beast::http::request_parser<boost::beast::http::string_body>& parser);

class HttpConnection : public std::enable_shared_from_this<HttpConnection> {
 public:
  HttpConnection(boost::asio::ip::tcp::socket socket, GatewayContext context);
  void Start();

 private:
  using Request = boost::beast::http::request<boost::beast::http::string_body>;

  void Read();
  // The header first, so the body limit can be the route's (BodyLimit).
  void OnHeader(boost::beast::error_code error, std::size_t bytes);
  void OnRead(boost::beast::error_code error, std::size_t bytes);
  // 413, 400 or nothing for a failed read; true when it was handled.
  bool HandleReadError(boost::beast::error_code error);
  void Dispatch(std::shared_ptr<Request> request);
  void Upgrade(std::shared_ptr<Request> request, RouteMatch route, HttpRequest plain);
  void UpgradeTable(std::shared_ptr<Request> request, RouteMatch route, HttpRequest plain);
  void Respond(const HttpResponse& response, Route route, bool keep_alive, unsigned version);
  void OnWrite(bool keep_alive, boost::beast::error_code error, std::size_t bytes);
  void Drain(std::size_t drained);

  boost::beast::tcp_stream stream_;
  boost::beast::flat_buffer buffer_;
  std::optional<boost::beast::http::request_parser<boost::beast::http::string_body>> parser_;
  std::size_t body_limit_ = kMaxMessageBytes;  // the request being read
  std::shared_ptr<boost::beast::http::response<boost::beast::http::string_body>> pending_;
  const GatewayContext context_;
  std::array<char, 4096> drain_buffer_;
};

}  // namespace draughts::gateway

#endif  // DRAUGHTS_GATEWAY_HTTP_CONNECTION_H_
