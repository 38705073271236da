#include "gateway/game_socket.h"

#include <boost/asio/post.hpp>
#include <thread>
#include <utility>

#include "gateway/ws_protocol.h"
#include "platform/logging.h"
#include "platform/status.h"

namespace draughts::gateway {

namespace beast = boost::beast;
namespace net = boost::asio;
namespace websocket = beast::websocket;

GameSocket::GameSocket(net::ip::tcp::socket socket, GatewayContext context, std::string game_id,
                       std::string after_event_id)
    : ticket_{context.hub, this},
      ws_(std::move(socket)),
      context_(context),
      game_id_(std::move(game_id)),
      after_event_id_(std::move(after_event_id)) {}

GameSocket::~GameSocket() {
  if (opened_) context_.metrics->SocketClosed();
}

void GameSocket::Start(const beast::http::request<beast::http::string_body>& request) {
  ws_.set_option(websocket::stream_base::timeout::suggested(beast::role_type::server));
  // The socket counts a message's bytes itself (Read): Beast's own limit
  // sends 1009 and then closes the TCP socket with the rest of the message
  // unread, which resets the connection under a client still sending, so
  // the client sees 1006 rather than the close frame.
  ws_.read_message_max(0);
  ws_.text(true);
  ws_.async_accept(request, beast::bind_front_handler(&GameSocket::OnAccept, shared_from_this()));
}

void GameSocket::OnAccept(beast::error_code error) {
  if (error) {
    MarkClosed();
    return;
  }
  opened_ = true;
  context_.metrics->SocketOpened();
  context_.hub->Register(this, weak_from_this());
  // Detached: it holds a reference to this socket, which the hub waits for
  // at shutdown, and it ends once the socket closes (TryCancel).
  std::thread([self = shared_from_this()] { self->RunWatcher(); }).detach();
  Read();
}

void GameSocket::Read() {
  // One byte past the limit is enough to know a message is too big.
  const std::size_t room = kMaxMessageBytes + 1 - buffer_.size();
  ws_.async_read_some(buffer_, room,
                      beast::bind_front_handler(&GameSocket::OnRead, shared_from_this()));
}

void GameSocket::OnRead(beast::error_code error, std::size_t /*bytes*/) {
  if (error) {
    // Closed by the client, or timed out.
    MarkClosed();
    return;
  }
  if (buffer_.size() > kMaxMessageBytes) {
    CloseTooBig();
    return;
  }
  if (!ws_.is_message_done()) {
    Read();
    return;
  }
  context_.metrics->MessageIn();
  const bool text = ws_.got_text();
  std::string frame = beast::buffers_to_string(buffer_.data());
  buffer_.consume(buffer_.size());
  if (!text) {
    Enqueue(ErrorFrame("", absl::InvalidArgumentError("send JSON in text frames")));
  } else {
    HandleFrame(frame);
  }
  Read();
}

void GameSocket::CloseTooBig() {
  buffer_.consume(buffer_.size());
  if (closing_ || closed_) return;
  closing_ = true;
  CancelWatch();
  // async_close sends the close frame, then reads and discards the rest of
  // the message and whatever follows until the client's close frame, and
  // only then closes the TCP socket; the timeout bounds that wait.
  websocket::stream_base::timeout closing{};
  closing.handshake_timeout = kCloseHandshakeTimeout;
  closing.idle_timeout = websocket::stream_base::none();
  closing.keep_alive_pings = false;
  ws_.set_option(closing);
  ws_.async_close(websocket::close_code::too_big,
                  [self = shared_from_this()](beast::error_code) { self->MarkClosed(); });
}

void GameSocket::HandleFrame(const std::string& text) {
  std::string request_id;
  absl::StatusOr<ClientAction> action = ParseClientAction(text, &request_id);
  if (!action.ok()) {
    Enqueue(ErrorFrame(request_id, action.status()));
    return;
  }
  if (action->kind == ActionKind::kPing) {
    Enqueue(PongFrame());
    return;
  }
  if (actions_in_flight_ >= kMaxActionsInFlight) {
    Enqueue(ErrorFrame(action->request_id,
                       absl::ResourceExhaustedError("too many actions waiting: slow down")));
    return;
  }
  ++actions_in_flight_;
  net::post(*context_.workers, [self = shared_from_this(), action = *std::move(action)] {
    absl::Status status = self->context_.games->Act(self->game_id_, action);
    net::post(self->ws_.get_executor(), [self, id = action.request_id, status] {
      --self->actions_in_flight_;
      self->Enqueue(status.ok() ? AckFrame(id) : ErrorFrame(id, status));
    });
  });
}

void GameSocket::Send(std::string frame) {
  net::post(ws_.get_executor(), [self = shared_from_this(), frame = std::move(frame)]() mutable {
    self->Enqueue(std::move(frame));
  });
}

void GameSocket::Enqueue(std::string frame) {
  if (closing_ || closed_) return;
  if (outbox_.size() >= kMaxQueuedFrames) {
    platform::LogWarn("game socket too slow: closing", {{"game", game_id_}});
    closing_ = true;
    CancelWatch();
    ws_.async_close(websocket::close_code::try_again_later,
                    [self = shared_from_this()](beast::error_code) { self->MarkClosed(); });
    return;
  }
  outbox_.push_back(std::move(frame));
  if (!writing_) Write();
}

void GameSocket::Write() {
  writing_ = true;
  ws_.async_write(net::buffer(outbox_.front()),
                  beast::bind_front_handler(&GameSocket::OnWrite, shared_from_this()));
}

void GameSocket::OnWrite(beast::error_code error, std::size_t /*bytes*/) {
  writing_ = false;
  if (error) {
    MarkClosed();
    return;
  }
  context_.metrics->MessageOut();
  outbox_.pop_front();
  if (!outbox_.empty() && !closing_) Write();
}

void GameSocket::CloseGoingAway() {
  CancelWatch();
  net::post(ws_.get_executor(), [self = shared_from_this()] {
    if (self->closing_ || self->closed_) return;
    self->closing_ = true;
    self->ws_.async_close(websocket::close_code::going_away,
                          [self](beast::error_code) { self->MarkClosed(); });
  });
}

void GameSocket::MarkClosed() {
  closed_ = true;
  CancelWatch();
}

void GameSocket::CancelWatch() {
  absl::MutexLock lock(&watch_mu_);
  stop_watch_ = true;
  if (watch_context_ != nullptr) watch_context_->TryCancel();
}

bool GameSocket::SleepUnlessClosed(absl::Duration duration) {
  absl::MutexLock lock(&watch_mu_);
  auto stopped = [this]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(watch_mu_) { return stop_watch_; };
  return !watch_mu_.AwaitWithTimeout(absl::Condition(&stopped), duration);
}

void GameSocket::RunWatcher() {
  absl::StatusOr<GameView> view = context_.games->GetView(game_id_);
  if (!view.ok()) {
    Send(ErrorFrame("", view.status()));
    return;
  }
  int64_t shown_version = view->game.version();
  Send(SnapshotFrame(*view));
  std::string from = after_event_id_;
  int failures = 0;
  while (true) {
    grpc::ClientContext watch;
    {
      absl::MutexLock lock(&watch_mu_);
      if (stop_watch_) return;
      watch_context_ = &watch;
    }
    std::unique_ptr<grpc::ClientReaderInterface<v1::GameEvent>> reader =
        context_.games->Watch(&watch, game_id_, from);
    v1::GameEvent event;
    while (reader->Read(&event)) {
      failures = 0;
      from = event.event_id();
      Send(EventFrame(event));
      // Events older than the snapshot already sent (a replay from the
      // start) need no new one.
      if (EventChangesSnapshot(event) && event.version() > shown_version) {
        view = context_.games->GetView(game_id_);
        if (view.ok()) {
          shown_version = view->game.version();
          Send(SnapshotFrame(*view));
        }
      }
    }
    const grpc::Status status = reader->Finish();
    {
      absl::MutexLock lock(&watch_mu_);
      watch_context_ = nullptr;
      if (stop_watch_) return;
    }
    // OK: the game ended and so did its stream; the socket stays open.
    if (status.ok()) return;
    // UNAVAILABLE: a game_state replica is draining or Redis blinked; any
    // replica resumes from the last event we passed on.
    if (status.error_code() == grpc::StatusCode::UNAVAILABLE && ++failures <= 6) {
      if (!SleepUnlessClosed(absl::Milliseconds(100) * (1 << failures))) return;
      continue;
    }
    Send(ErrorFrame("", platform::FromGrpcStatus(status)));
    return;
  }
}

}  // namespace draughts::gateway
