#include "gateway/http_connection.h"

#include <boost/asio/dispatch.hpp>
#include <boost/asio/post.hpp>
#include <boost/beast/websocket.hpp>
#include <chrono>
#include <utility>

#include "absl/strings/str_cat.h"
#include "gateway/error_mapping.h"
#include "gateway/game_socket.h"
#include "gateway/idempotency.h"
#include "gateway/table_socket.h"

namespace draughts::gateway {

namespace beast = boost::beast;
namespace http = beast::http;
namespace net = boost::asio;

namespace {

constexpr auto kReadTimeout = std::chrono::seconds(30);

// The last entry of a proxy's header ("client, proxy1" keeps the address
// the nearest proxy saw), or "" when absent.
std::string ForwardedAddress(const http::request<http::string_body>& request,
                             const std::string& header) {
  const auto field = request.find(beast::string_view(header.data(), header.size()));
  if (field == request.end()) return "";
  std::string_view value(field->value().data(), field->value().size());
  if (const std::size_t comma = value.rfind(','); comma != std::string_view::npos) {
    value = value.substr(comma + 1);
  }
  while (!value.empty() && value.front() == ' ') value.remove_prefix(1);
  while (!value.empty() && value.back() == ' ') value.remove_suffix(1);
  // An address, not free text that would land in a Redis key.
  if (value.size() > 64) return "";
  return std::string(value);
}

HttpRequest PlainRequest(const http::request<http::string_body>& request,
                         const std::string& peer_address,
                         const std::string& client_address_header) {
  HttpRequest plain;
  plain.method = std::string(request.method_string());
  const std::string_view target(request.target().data(), request.target().size());
  const std::size_t question = target.find('?');
  plain.path = std::string(target.substr(0, question));
  if (question != std::string_view::npos) plain.query = std::string(target.substr(question + 1));
  plain.cookie = std::string(request[http::field::cookie]);
  plain.origin = std::string(request[http::field::origin]);
  plain.host = std::string(request[http::field::host]);
  plain.client_address = client_address_header.empty()
                             ? peer_address
                             : ForwardedAddress(request, client_address_header);
  if (const auto key = request.find(
          beast::string_view(kIdempotencyKeyHeader.data(), kIdempotencyKeyHeader.size()));
      key != request.end()) {
    plain.idempotency_key = std::string(key->value());
  }
  plain.body = request.body();
  return plain;
}

}  // namespace

void ApplyRequestLimits(http::request_parser<http::string_body>& parser) {
  parser.body_limit(kMaxMessageBytes);
  parser.header_limit(8 * 1024);
}

HttpConnection::HttpConnection(net::ip::tcp::socket socket, GatewayContext context)
    : stream_(std::move(socket)), context_(context) {}

void HttpConnection::Start() {
  // Run on the connection's strand from the first operation on.
  net::dispatch(stream_.get_executor(),
                beast::bind_front_handler(&HttpConnection::Read, shared_from_this()));
}

void HttpConnection::Read() {
  parser_.emplace();
  ApplyRequestLimits(*parser_);
  stream_.expires_after(kReadTimeout);
  // The header is read allowing the largest body any route takes (Beast
  // checks Content-Length against the limit as the header ends); OnHeader
  // then holds the request to its route's limit.
  body_limit_ = kMaxPdnUploadBytes;
  parser_->body_limit(body_limit_);
  http::async_read_header(stream_, buffer_, *parser_,
                          beast::bind_front_handler(&HttpConnection::OnHeader, shared_from_this()));
}

void HttpConnection::OnHeader(beast::error_code error, std::size_t /*bytes*/) {
  if (HandleReadError(error)) return;
  const auto& header = parser_->get();
  const std::string_view target(header.target().data(), header.target().size());
  const Route route =
      MatchRoute(std::string_view(header.method_string().data(), header.method_string().size()),
                 target.substr(0, target.find('?')))
          .route;
  body_limit_ = BodyLimit(route);
  const auto length = parser_->content_length();
  if (length.has_value() && *length > body_limit_) {
    HandleReadError(http::error::body_limit);
    return;
  }
  parser_->body_limit(body_limit_);
  http::async_read(stream_, buffer_, *parser_,
                   beast::bind_front_handler(&HttpConnection::OnRead, shared_from_this()));
}

bool HttpConnection::HandleReadError(beast::error_code error) {
  if (!error) return false;
  if (error == http::error::end_of_stream) {
    stream_.socket().shutdown(net::ip::tcp::socket::shutdown_send, error);
    return true;
  }
  if (error == http::error::body_limit || error == http::error::header_limit) {
    Respond(ErrorResponse(413, absl::InvalidArgumentError(absl::StrCat(
                                   "the request is larger than ", body_limit_, " bytes"))),
            Route::kNotFound, false, 11);
    return true;
  }
  if (error == beast::error::timeout || error == net::error::operation_aborted ||
      error == net::error::connection_reset || error == net::error::eof) {
    return true;
  }
  Respond(ErrorResponse(absl::InvalidArgumentError("malformed HTTP request")), Route::kNotFound,
          false, 11);
  return true;
}

void HttpConnection::OnRead(beast::error_code error, std::size_t /*bytes*/) {
  if (HandleReadError(error)) return;
  Dispatch(std::make_shared<Request>(parser_->release()));
}

void HttpConnection::Dispatch(std::shared_ptr<Request> request) {
  beast::error_code ignored;
  const auto peer = stream_.socket().remote_endpoint(ignored);
  HttpRequest plain = PlainRequest(*request, ignored ? std::string() : peer.address().to_string(),
                                   context_.client_address_header);
  RouteMatch route = MatchRoute(plain.method, plain.path);
  if (route.route == Route::kGameSocket && beast::websocket::is_upgrade(*request)) {
    Upgrade(std::move(request), std::move(route), std::move(plain));
    return;
  }
  if (route.route == Route::kTableSocket && beast::websocket::is_upgrade(*request)) {
    UpgradeTable(std::move(request), std::move(route), std::move(plain));
    return;
  }
  net::post(*context_.workers, [self = shared_from_this(), request, route = std::move(route),
                                plain = std::move(plain)] {
    HttpResponse response = self->context_.handlers->Handle(route, plain);
    net::post(self->stream_.get_executor(),
              [self, request, route = route.route, response = std::move(response)] {
                self->Respond(response, route, request->keep_alive(), request->version());
              });
  });
}

void HttpConnection::Upgrade(std::shared_ptr<Request> request, RouteMatch route,
                             HttpRequest plain) {
  net::post(*context_.workers, [self = shared_from_this(), request, route = std::move(route),
                                plain = std::move(plain)] {
    std::string after;
    absl::Status check = self->context_.handlers->CheckGameSocket(route, plain, &after);
    net::post(self->stream_.get_executor(), [self, request, route, check, after] {
      if (!check.ok()) {
        self->Respond(ErrorResponse(check), Route::kGameSocket, false, request->version());
        return;
      }
      if (!self->context_.hub->Admit()) {
        self->Respond(ErrorResponse(absl::UnavailableError(
                          "too many open game sockets or shutting down: retry later")),
                      Route::kGameSocket, false, request->version());
        return;
      }
      self->context_.metrics->RecordHttp(RouteLabel(Route::kGameSocket), 101);
      self->stream_.expires_never();
      auto socket = std::make_shared<GameSocket>(self->stream_.release_socket(), self->context_,
                                                 route.game_id, after);
      socket->Start(*request);
    });
  });
}

void HttpConnection::UpgradeTable(std::shared_ptr<Request> request, RouteMatch route,
                                  HttpRequest plain) {
  if (context_.tables == nullptr) {
    Respond(ErrorResponse(absl::UnavailableError("table sockets are not configured")),
            Route::kTableSocket, false, request->version());
    return;
  }
  net::post(*context_.workers, [self = shared_from_this(), request, route = std::move(route),
                                plain = std::move(plain)] {
    absl::StatusOr<TableSocketOpening> opening = OpenTableSocket(
        *self->context_.handlers, *self->context_.tables->matchmaking, route.table_id, plain);
    net::post(self->stream_.get_executor(), [self, request,
                                             opening = std::move(opening)]() mutable {
      auto refuse = [&](const absl::Status& status) {
        self->Respond(ErrorResponse(status), Route::kTableSocket, false, request->version());
      };
      if (!opening.ok()) return refuse(opening.status());
      SessionSocketCounter* counter = self->context_.tables->per_session;
      if (!counter->TryAcquire(opening->session_id)) {
        return refuse(absl::UnavailableError(
            "too many open table sockets for this session: close a tab and retry"));
      }
      if (!self->context_.hub->Admit()) {
        counter->Release(opening->session_id);
        return refuse(
            absl::UnavailableError("too many open sockets or shutting down: retry later"));
      }
      self->context_.metrics->RecordHttp(RouteLabel(Route::kTableSocket), 101);
      self->stream_.expires_never();
      auto socket = std::make_shared<TableSocket>(self->stream_.release_socket(), self->context_,
                                                  self->context_.tables, *std::move(opening));
      socket->Start(*request);
    });
  });
}

void HttpConnection::Respond(const HttpResponse& response, Route route, bool keep_alive,
                             unsigned version) {
  context_.metrics->RecordHttp(RouteLabel(route), response.status);
  auto message = std::make_shared<http::response<http::string_body>>(
      static_cast<http::status>(response.status), version);
  message->set(http::field::server, "draughts-gateway");
  message->set(http::field::content_type, response.content_type);
  for (const auto& [name, value] : response.headers) message->insert(name, value);
  message->keep_alive(keep_alive);
  message->body() = response.body;
  message->prepare_payload();
  pending_ = message;
  stream_.expires_after(kReadTimeout);
  http::async_write(
      stream_, *message,
      beast::bind_front_handler(&HttpConnection::OnWrite, shared_from_this(), keep_alive));
}

void HttpConnection::OnWrite(bool keep_alive, beast::error_code error, std::size_t /*bytes*/) {
  pending_.reset();
  if (error) return;
  if (!keep_alive) {
    stream_.socket().shutdown(net::ip::tcp::socket::shutdown_send, error);
    Drain(0);
    return;
  }
  Read();
}

void HttpConnection::Drain(std::size_t drained) {
  // Closing a socket with unread input makes the kernel send a reset, which
  // can destroy the answer (a 413) before the client reads it; read and
  // drop what the client still sends, for a short while.
  constexpr std::size_t kMaxDrainBytes = 1 << 20;
  if (drained > kMaxDrainBytes) return;
  stream_.expires_after(std::chrono::seconds(2));
  stream_.async_read_some(
      net::buffer(drain_buffer_),
      [self = shared_from_this(), drained](beast::error_code error, std::size_t bytes) {
        if (!error) self->Drain(drained + bytes);
      });
}

}  // namespace draughts::gateway
