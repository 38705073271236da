#include "gateway/game_socket.h"

#include <algorithm>
#include <boost/asio/post.hpp>
#include <chrono>
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
      writer_(ws_, context_.metrics, [this] { MarkClosed(); }),
      watch_from_(std::move(after_event_id)) {}

GameSocket::~GameSocket() {
  if (opened_) context_.metrics->SocketClosed();
}

// ---------------------------------------------------------------- I/O

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
  ReadSnapshot(/*first=*/true);
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
    buffer_.consume(buffer_.size());
    if (open() && writer_.CloseTooBig(shared_from_this())) StopWatch();
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
    Send(ErrorFrame("", absl::InvalidArgumentError("send JSON in text frames")));
  } else {
    HandleFrame(frame);
  }
  Read();
}

void GameSocket::HandleFrame(const std::string& text) {
  std::string request_id;
  absl::StatusOr<ClientAction> action = ParseClientAction(text, &request_id);
  if (!action.ok()) {
    Send(ErrorFrame(request_id, action.status()));
    return;
  }
  if (action->kind == ActionKind::kPing) {
    Send(PongFrame());
    return;
  }
  if (actions_in_flight_ >= kMaxActionsInFlight) {
    Send(ErrorFrame(action->request_id,
                    absl::ResourceExhaustedError("too many actions waiting: slow down")));
    return;
  }
  ++actions_in_flight_;
  context_.games->ActAsync(
      game_id_, *action, [self = shared_from_this(), id = action->request_id](absl::Status status) {
        net::post(self->ws_.get_executor(), [self, id, status] {
          --self->actions_in_flight_;
          self->Send(status.ok() ? AckFrame(id) : ErrorFrame(id, status));
        });
      });
}

void GameSocket::Send(std::string frame) {
  if (!open()) return;
  // Refused while open: the queue was full and the writer is closing (1013).
  if (!writer_.Send(std::move(frame), shared_from_this())) {
    platform::LogWarn("game socket too slow: closing", {{"game", game_id_}});
    StopWatch();
  }
}

void GameSocket::CloseGoingAway() {
  net::post(ws_.get_executor(), [self = shared_from_this()] {
    if (self->open()) self->writer_.Close(websocket::close_code::going_away, self);
    // The stream ends now, so shutdown does not wait for the close frame.
    self->StopWatch();
  });
}

void GameSocket::MarkClosed() {
  closed_ = true;
  StopWatch();
}

void GameSocket::OnStrand(std::function<void()> work) {
  net::post(ws_.get_executor(), [self = shared_from_this(), work = std::move(work)] {
    if (self->open()) work();
  });
}

void GameSocket::StopWatch() {
  if (stream_) stream_->Cancel();
  if (resume_timer_) resume_timer_->cancel();
}

// ---------------------------------------------------------------- the feed

void GameSocket::ReadSnapshot(bool first) {
  reading_snapshot_ = true;
  context_.games->GetViewAsync(game_id_,
                               [self = shared_from_this(), first](absl::StatusOr<GameView> view) {
                                 self->OnStrand([self, first, view = std::move(view)] {
                                   self->reading_snapshot_ = false;
                                   if (view.ok()) {
                                     self->shown_version_ = view->game.version();
                                     self->Send(SnapshotFrame(*view));
                                   }
                                   if (!first) {
                                     self->PassHeld();
                                   } else if (view.ok()) {
                                     self->WatchGame();
                                   } else {
                                     self->Send(ErrorFrame("", view.status()));
                                   }
                                 });
                               });
}

void GameSocket::WatchGame() {
  v1::WatchGameRequest request;
  request.set_game_id(game_id_);
  request.set_from_event_id(watch_from_);
  auto self = shared_from_this();
  GameClient& client = context_.games->client();
  stream_ = StartStream<v1::GameEvent>(
      [&client, request](grpc::ClientContext* context,
                         grpc::ClientReadReactor<v1::GameEvent>* reactor) {
        client.stub().async()->WatchGame(context, &request, reactor);
      },
      [self](v1::GameEvent event) {
        self->OnStrand(
            [self, event = std::move(event)]() mutable { self->OnGameEvent(std::move(event)); });
      },
      [self](const grpc::Status& status) {
        self->OnStrand([self, status] { self->OnWatchDone(status); });
      });
  if (!open()) stream_->Cancel();
}

void GameSocket::OnGameEvent(v1::GameEvent event) {
  watch_failures_ = 0;
  watch_from_ = event.event_id();
  if (!reading_snapshot_) {
    PassOn(event);
    return;
  }
  // Bounded like the write queue: a game_state too slow to answer the
  // snapshot read must not grow this without end.
  if (held_events_.size() >= SocketWriter::kMaxQueuedFrames) {
    platform::LogWarn("game socket events piling up: closing", {{"game", game_id_}});
    writer_.Close(websocket::close_code::try_again_later, shared_from_this());
    StopWatch();
    return;
  }
  held_events_.push_back(std::move(event));
}

void GameSocket::PassOn(const v1::GameEvent& event) {
  Send(EventFrame(event));
  // Events older than the snapshot already sent (a replay from the start)
  // need no new one.
  if (EventChangesSnapshot(event) && event.version() > shown_version_) ReadSnapshot(false);
}

void GameSocket::PassHeld() {
  while (!reading_snapshot_ && !held_events_.empty() && open()) {
    const v1::GameEvent event = std::move(held_events_.front());
    held_events_.pop_front();
    PassOn(event);
  }
  if (!reading_snapshot_ && held_done_) {
    const grpc::Status status = *std::move(held_done_);
    held_done_.reset();
    OnWatchDone(status);
  }
}

void GameSocket::OnWatchDone(const grpc::Status& status) {
  // The stream's end goes out after the events that came before it.
  if (reading_snapshot_ || !held_events_.empty()) {
    held_done_ = status;
    return;
  }
  stream_.reset();
  // OK: the game ended and so did its stream; the socket stays open.
  if (status.ok()) return;
  // UNAVAILABLE: a game_state replica is draining or Redis blinked; any
  // replica resumes from the last event passed on.
  if (status.error_code() == grpc::StatusCode::UNAVAILABLE &&
      ++watch_failures_ <= kMaxStreamFailures) {
    resume_timer_.emplace(ws_.get_executor());
    resume_timer_->expires_after(std::chrono::milliseconds(100) * (1 << watch_failures_));
    resume_timer_->async_wait([self = shared_from_this()](beast::error_code error) {
      if (!error && self->open()) self->WatchGame();
    });
    return;
  }
  Send(ErrorFrame("", platform::FromGrpcStatus(status)));
}

}  // namespace draughts::gateway
