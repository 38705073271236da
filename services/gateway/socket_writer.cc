#include "gateway/socket_writer.h"

#include <boost/asio/buffer.hpp>
#include <utility>

namespace draughts::gateway {

namespace beast = boost::beast;
namespace websocket = beast::websocket;

SocketWriter::SocketWriter(Stream& ws, GatewayMetrics* metrics, std::function<void()> on_closed)
    : ws_(ws), metrics_(metrics), on_closed_(std::move(on_closed)) {}

bool SocketWriter::Send(std::string frame, std::shared_ptr<void> owner) {
  return Send(std::make_shared<const std::string>(std::move(frame)), std::move(owner));
}

bool SocketWriter::Send(std::shared_ptr<const std::string> frame, std::shared_ptr<void> owner) {
  if (closing_) return false;
  if (outbox_.size() >= kMaxQueuedFrames) {
    Close(websocket::close_code::try_again_later, std::move(owner));
    return false;
  }
  outbox_.push_back(std::move(frame));
  if (!writing_) Write(std::move(owner));
  return true;
}

bool SocketWriter::Close(websocket::close_code code, std::shared_ptr<void> owner) {
  if (closing_) return false;
  closing_ = true;
  ws_.async_close(code, [this, owner = std::move(owner)](beast::error_code) { on_closed_(); });
  return true;
}

bool SocketWriter::CloseTooBig(std::shared_ptr<void> owner) {
  if (closing_) return false;
  // async_close sends the close frame, then reads and discards the rest of
  // the message and whatever follows until the client's close frame, and
  // only then closes the TCP socket; the timeout bounds that wait.
  websocket::stream_base::timeout waiting{};
  waiting.handshake_timeout = kCloseHandshakeTimeout;
  waiting.idle_timeout = websocket::stream_base::none();
  waiting.keep_alive_pings = false;
  ws_.set_option(waiting);
  return Close(websocket::close_code::too_big, std::move(owner));
}

void SocketWriter::Write(std::shared_ptr<void> owner) {
  writing_ = true;
  ws_.async_write(boost::asio::buffer(*outbox_.front()),
                  [this, owner = std::move(owner)](beast::error_code error, std::size_t) mutable {
                    OnWrite(std::move(owner), error);
                  });
}

void SocketWriter::OnWrite(std::shared_ptr<void> owner, beast::error_code error) {
  writing_ = false;
  if (error) {
    on_closed_();
    return;
  }
  metrics_->MessageOut();
  outbox_.pop_front();
  if (!outbox_.empty() && !closing_) Write(std::move(owner));
}

}  // namespace draughts::gateway
