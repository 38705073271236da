#include "test_client.h"

#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/http.hpp>
#include <chrono>
#include <functional>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "gateway/proto_json.h"

namespace draughts::gateway::testing {

namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
namespace net = boost::asio;
using tcp = net::ip::tcp;

namespace {

template <typename Fields>
std::string HeaderLines(const Fields& fields) {
  std::string lines;
  for (const auto& field : fields) {
    absl::StrAppend(&lines, std::string(field.name_string()), ": ", std::string(field.value()),
                    "\r\n");
  }
  return lines;
}

}  // namespace

absl::StatusOr<HttpReply> HttpCall(int port, const std::string& method, const std::string& target,
                                   const std::string& body, const std::string& cookie,
                                   const HeaderList& headers) {
  net::io_context io;
  beast::tcp_stream stream(io);
  beast::error_code error;
  stream.socket().connect(
      tcp::endpoint(net::ip::make_address("127.0.0.1"), static_cast<unsigned short>(port)), error);
  if (error) return absl::UnavailableError(absl::StrCat("connect: ", error.message()));
  http::request<http::string_body> request(http::string_to_verb(method), target, 11);
  request.set(http::field::host, "127.0.0.1");
  if (!cookie.empty()) request.set(http::field::cookie, cookie);
  if (!body.empty()) request.set(http::field::content_type, "application/json");
  for (const auto& [name, value] : headers) request.insert(name, value);
  request.body() = body;
  request.prepare_payload();
  http::write(stream, request, error);
  // A refused request (413) may be answered before the body is all sent.
  if (error && error != net::error::broken_pipe && error != net::error::connection_reset) {
    return absl::UnavailableError(absl::StrCat("write: ", error.message()));
  }
  beast::flat_buffer buffer;
  http::response<http::string_body> response;
  http::read(stream, buffer, response, error);
  if (error) return absl::UnavailableError(absl::StrCat("read: ", error.message()));
  HttpReply reply;
  reply.status = static_cast<int>(response.result_int());
  reply.content_type = std::string(response[http::field::content_type]);
  reply.set_cookie = std::string(response[http::field::set_cookie]);
  reply.allow = std::string(response[http::field::allow]);
  reply.headers = HeaderLines(response.base());
  reply.body = response.body();
  stream.socket().shutdown(tcp::socket::shutdown_both, error);
  return reply;
}

WsClient::WsClient() : ws_(io_) {}

WsClient::~WsClient() {
  beast::error_code ignored;
  beast::get_lowest_layer(ws_).socket().close(ignored);
}

absl::Status WsClient::Connect(int port, const std::string& target, const std::string& cookie) {
  beast::error_code error;
  beast::get_lowest_layer(ws_).socket().connect(
      tcp::endpoint(net::ip::make_address("127.0.0.1"), static_cast<unsigned short>(port)), error);
  if (error) return absl::UnavailableError(absl::StrCat("connect: ", error.message()));
  ws_.set_option(websocket::stream_base::decorator([cookie](websocket::request_type& request) {
    if (!cookie.empty()) request.set(http::field::cookie, cookie);
  }));
  websocket::response_type response;
  ws_.handshake(response, "127.0.0.1", target, error);
  handshake_response_ = absl::StrCat(HeaderLines(response.base()), "\r\n", response.body());
  if (error) {
    return absl::FailedPreconditionError(absl::StrCat("handshake: ", error.message(), " status ",
                                                      response.result_int(), " ", response.body()));
  }
  ws_.text(true);
  return absl::OkStatus();
}

absl::Status WsClient::Send(const std::string& text) {
  beast::error_code error;
  ws_.write(net::buffer(text), error);
  if (error) return absl::UnavailableError(absl::StrCat("write: ", error.message()));
  return absl::OkStatus();
}

absl::StatusOr<std::string> WsClient::Read(absl::Duration timeout) {
  beast::flat_buffer buffer;
  beast::error_code result;
  bool done = false;
  ws_.async_read(buffer, [&](beast::error_code error, std::size_t) {
    result = error;
    done = true;
  });
  io_.restart();
  io_.run_for(absl::ToChronoMilliseconds(timeout));
  if (!done) {
    beast::error_code ignored;
    beast::get_lowest_layer(ws_).socket().close(ignored);
    io_.restart();
    io_.run();
    return absl::DeadlineExceededError("no frame in time");
  }
  // A close frame sets the reason even when echoing it fails (the server
  // may drop the connection right after sending it).
  if (result && ws_.reason().code != websocket::close_code::none) {
    close_code_ = static_cast<int>(ws_.reason().code);
    return absl::CancelledError(absl::StrCat("closed with code ", *close_code_));
  }
  if (result) return absl::UnavailableError(absl::StrCat("read: ", result.message()));
  return beast::buffers_to_string(buffer.data());
}

absl::Status WsClient::SendWhileReadingUntilClosed(const std::string& first,
                                                   const std::string& next,
                                                   absl::Duration timeout) {
  beast::flat_buffer buffer;
  beast::error_code read_error;
  bool read_done = false;
  std::function<void(beast::error_code, std::size_t)> on_read = [&](beast::error_code error,
                                                                    std::size_t) {
    if (error) {
      read_error = error;
      read_done = true;
      return;
    }
    buffer.consume(buffer.size());
    ws_.async_read(buffer, on_read);
  };
  ws_.async_read(buffer, on_read);
  std::function<void(beast::error_code, std::size_t)> on_write = [&](beast::error_code error,
                                                                     std::size_t) {
    if (error || read_done) return;
    ws_.async_write(net::buffer(next), on_write);
  };
  ws_.async_write(net::buffer(first), on_write);
  io_.restart();
  const auto deadline = std::chrono::steady_clock::now() + absl::ToChronoMilliseconds(timeout);
  while (!read_done && std::chrono::steady_clock::now() < deadline) {
    io_.run_for(std::chrono::milliseconds(50));
    io_.restart();
  }
  // Ends whatever is still pending (a write blocked on a full window).
  beast::error_code ignored;
  beast::get_lowest_layer(ws_).socket().close(ignored);
  io_.restart();
  io_.run();
  if (!read_done) return absl::DeadlineExceededError("the socket did not close in time");
  if (ws_.reason().code != websocket::close_code::none) {
    close_code_ = static_cast<int>(ws_.reason().code);
    return absl::OkStatus();
  }
  return absl::UnavailableError(absl::StrCat(
      "closed without a close frame (a browser reports 1006): ", read_error.message()));
}

absl::StatusOr<google::protobuf::Struct> WsClient::ReadJson(absl::Duration timeout) {
  absl::StatusOr<std::string> text = Read(timeout);
  if (!text.ok()) return text.status();
  return ParseJsonObject(*text);
}

const google::protobuf::Value* Field(const google::protobuf::Struct& object,
                                     const std::string& path) {
  const google::protobuf::Struct* at = &object;
  const google::protobuf::Value* value = nullptr;
  for (absl::string_view name : absl::StrSplit(path, '.')) {
    if (at == nullptr) return nullptr;
    auto it = at->fields().find(std::string(name));
    if (it == at->fields().end()) return nullptr;
    value = &it->second;
    at = value->has_struct_value() ? &value->struct_value() : nullptr;
  }
  return value;
}

std::string StringAt(const google::protobuf::Struct& object, const std::string& path) {
  const google::protobuf::Value* value = Field(object, path);
  return value != nullptr && value->has_string_value() ? value->string_value() : "";
}

double NumberAt(const google::protobuf::Struct& object, const std::string& path) {
  const google::protobuf::Value* value = Field(object, path);
  return value != nullptr && value->has_number_value() ? value->number_value() : -1;
}

}  // namespace draughts::gateway::testing
