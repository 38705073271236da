#include "loadgen/web_client.h"

#include <boost/asio/connect.hpp>
#include <boost/beast/core/buffers_to_string.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>
#include <chrono>
#include <utility>

#include "absl/strings/str_cat.h"

namespace draughts::loadgen {
namespace {

namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
namespace net = boost::asio;
using tcp = net::ip::tcp;

constexpr auto kHttpTimeout = std::chrono::seconds(30);
constexpr char kCookieName[] = "draughts_session=";
constexpr std::size_t kCookieNameSize = sizeof(kCookieName) - 1;

std::string HostOf(const tcp::endpoint& server) {
  return absl::StrCat(server.address().to_string(), ":", server.port());
}

// The session id of a Set-Cookie header naming draughts_session.
std::string SessionCookieOf(std::string_view set_cookie) {
  if (set_cookie.substr(0, kCookieNameSize) != kCookieName) return "";
  set_cookie.remove_prefix(kCookieNameSize);
  return std::string(set_cookie.substr(0, set_cookie.find(';')));
}

// One request on its own connection; keeps itself alive through its
// handlers.
struct HttpExchange : std::enable_shared_from_this<HttpExchange> {
  HttpExchange(net::io_context& io, std::function<void(HttpAnswer)> done)
      : stream(io), done(std::move(done)) {}

  void Finish(HttpAnswer answer) {
    beast::error_code ignored;
    stream.socket().shutdown(tcp::socket::shutdown_both, ignored);
    stream.close();
    auto callback = std::move(done);
    callback(std::move(answer));
  }
  void Fail(std::string_view what, const beast::error_code& error) {
    HttpAnswer answer;
    answer.error = absl::StrCat(std::string(what), ": ", error.message());
    Finish(std::move(answer));
  }

  beast::tcp_stream stream;
  http::request<http::string_body> request;
  http::response<http::string_body> response;
  beast::flat_buffer buffer;
  std::function<void(HttpAnswer)> done;
};

}  // namespace

void SendHttp(net::io_context& io, const tcp::endpoint& server, HttpCall call,
              std::function<void(HttpAnswer)> done) {
  auto exchange = std::make_shared<HttpExchange>(io, std::move(done));
  http::request<http::string_body>& request = exchange->request;
  request.method(call.method == "POST" ? http::verb::post : http::verb::get);
  request.target(call.target);
  request.version(11);
  request.set(http::field::host, HostOf(server));
  request.set(http::field::user_agent, "draughts-loadgen");
  if (!call.session_cookie.empty()) {
    request.set(http::field::cookie, absl::StrCat(kCookieName, call.session_cookie));
  }
  if (!call.idempotency_key.empty()) request.set("Idempotency-Key", call.idempotency_key);
  if (!call.body.empty()) request.set(http::field::content_type, "application/json");
  request.body() = std::move(call.body);
  request.keep_alive(false);
  request.prepare_payload();
  exchange->stream.expires_after(kHttpTimeout);
  exchange->stream.async_connect(server, [exchange](const beast::error_code& error) {
    if (error) return exchange->Fail("connect", error);
    http::async_write(exchange->stream, exchange->request,
                      [exchange](const beast::error_code& write_error, std::size_t /*bytes*/) {
                        if (write_error) return exchange->Fail("write", write_error);
                        http::async_read(
                            exchange->stream, exchange->buffer, exchange->response,
                            [exchange](const beast::error_code& read_error, std::size_t) {
                              if (read_error) return exchange->Fail("read", read_error);
                              HttpAnswer answer;
                              answer.status = static_cast<int>(exchange->response.result_int());
                              for (const auto& field : exchange->response) {
                                if (field.name() != http::field::set_cookie) continue;
                                std::string cookie = SessionCookieOf(
                                    std::string_view(field.value().data(), field.value().size()));
                                if (!cookie.empty()) answer.session_cookie = std::move(cookie);
                              }
                              answer.body = std::move(exchange->response.body());
                              exchange->Finish(std::move(answer));
                            });
                      });
  });
}

WebSocketClient::WebSocketClient(net::io_context& io, Handlers handlers)
    : ws_(io), handlers_(std::move(handlers)) {}

void WebSocketClient::Open(const tcp::endpoint& server, std::string target,
                           std::string session_cookie) {
  host_ = HostOf(server);
  beast::get_lowest_layer(ws_).expires_after(kHttpTimeout);
  beast::get_lowest_layer(ws_).async_connect(
      server, [self = shared_from_this(), target = std::move(target),
               cookie = std::move(session_cookie)](const beast::error_code& error) {
        if (error) return self->Fail(absl::StrCat("connect: ", error.message()));
        self->ws_.set_option(websocket::stream_base::decorator(
            [host = self->host_, cookie](websocket::request_type& request) {
              request.set(http::field::cookie, absl::StrCat(kCookieName, cookie));
              request.set(http::field::origin, absl::StrCat("http://", host));
              request.set(http::field::user_agent, "draughts-loadgen");
            }));
        self->ws_.async_handshake(self->host_, target, [self](const beast::error_code& shake) {
          if (shake) return self->Fail(absl::StrCat("upgrade: ", shake.message()));
          // From here the WebSocket's own timeouts (none while idle: the
          // gateway's pings and ours keep it alive).
          beast::get_lowest_layer(self->ws_).expires_never();
          websocket::stream_base::timeout timeouts{};
          timeouts.handshake_timeout = std::chrono::seconds(30);
          timeouts.idle_timeout = websocket::stream_base::none();
          timeouts.keep_alive_pings = false;
          self->ws_.set_option(timeouts);
          self->ws_.text(true);
          self->open_ = true;
          if (self->handlers_.on_open) self->handlers_.on_open();
          self->Read();
          self->WriteNext();
        });
      });
}

void WebSocketClient::Read() {
  ws_.async_read(
      buffer_, [self = shared_from_this()](const beast::error_code& error, std::size_t /*bytes*/) {
        if (error) return self->Fail(absl::StrCat("read: ", error.message()));
        const std::string text = beast::buffers_to_string(self->buffer_.data());
        self->buffer_.consume(self->buffer_.size());
        if (self->handlers_.on_frame) self->handlers_.on_frame(text);
        if (!self->closing_) self->Read();
      });
}

void WebSocketClient::Send(std::string text) {
  outbox_.push_back(std::move(text));
  if (open_) WriteNext();
}

void WebSocketClient::WriteNext() {
  if (writing_ || outbox_.empty() || closing_) return;
  writing_ = true;
  ws_.async_write(net::buffer(outbox_.front()), [self = shared_from_this()](
                                                    const beast::error_code& error, std::size_t) {
    self->writing_ = false;
    self->outbox_.pop_front();
    if (error) return self->Fail(absl::StrCat("write: ", error.message()));
    if (self->close_after_write_) {
      self->close_after_write_ = false;
      self->ws_.async_close(websocket::close_code::normal, [self](const beast::error_code&) {});
      return;
    }
    self->WriteNext();
  });
}

void WebSocketClient::Fail(const std::string& why) {
  const bool was_closing = closing_;
  open_ = false;
  closing_ = true;
  auto on_closed = std::move(handlers_.on_closed);
  handlers_ = {};
  if (!was_closing && on_closed) on_closed(why);
}

void WebSocketClient::Close() {
  if (closing_) return;
  closing_ = true;
  handlers_ = {};
  if (!open_) {
    beast::error_code ignored;
    beast::get_lowest_layer(ws_).socket().close(ignored);
    return;
  }
  open_ = false;
  // Beast allows one write at a time, the close frame included.
  if (writing_) {
    close_after_write_ = true;
    return;
  }
  ws_.async_close(websocket::close_code::normal,
                  [self = shared_from_this()](const beast::error_code&) {});
}

}  // namespace draughts::loadgen
