#include "gateway/table_socket.h"

#include <algorithm>
#include <boost/asio/post.hpp>
#include <optional>
#include <utility>

#include "absl/random/random.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "gateway/rating_changes.h"
#include "platform/logging.h"
#include "platform/status.h"

namespace draughts::gateway {

namespace beast = boost::beast;
namespace net = boost::asio;
namespace websocket = beast::websocket;

namespace {

std::string NewConnectionId() {
  absl::BitGen bits;
  return absl::StrFormat("ts%016x", absl::Uniform<uint64_t>(bits));
}

// Streams that end with UNAVAILABLE (a replica draining, Redis blinking)
// are resumed from the last id passed on, this many times in a row.
constexpr int kMaxStreamFailures = 6;

bool Retryable(const grpc::Status& status) {
  return status.error_code() == grpc::StatusCode::UNAVAILABLE;
}

// Only a rated game between two different accounts changes Elo.
bool ChangesElo(const v1::GameState& game) {
  const v1::Seat& white = game.white().seat();
  const v1::Seat& black = game.black().seat();
  auto person = [](const v1::Seat& seat) {
    return seat.kind() == v1::SEAT_KIND_PERSON && !seat.player_id().empty();
  };
  return game.rated() && person(white) && person(black) && white.player_id() != black.player_id();
}

// The token of the colour an action is for (ActingColor).
absl::StatusOr<std::string> SeatToken(const GameTokens& tokens,
                                      const std::vector<v1::Color>& colors, v1::Color asked,
                                      const v1::GameState& game, bool answering_draw) {
  absl::StatusOr<v1::Color> color = ActingColor(colors, asked, game, answering_draw);
  if (!color.ok()) return color.status();
  auto it = tokens.by_color.find(*color);
  if (tokens.game_id != game.game_id() || it == tokens.by_color.end()) {
    return absl::FailedPreconditionError("your seat in this game is not known yet: retry");
  }
  return it->second;
}

}  // namespace

TableSocket::TableSocket(net::ip::tcp::socket socket, GatewayContext context,
                         TableSocketServices* services, TableSocketOpening opening)
    : ticket_{context.hub, this, services->per_session, opening.session_id},
      ws_(std::move(socket)),
      context_(std::move(context)),
      services_(services),
      opening_(std::move(opening)),
      connection_id_(NewConnectionId()),
      writer_(ws_, context_.metrics, [this] { MarkClosed(); }) {
  table_ = opening_.table;
  known_games_played_ = table_.games_played();
}

TableSocket::~TableSocket() {
  if (opened_) context_.metrics->SocketClosed();
}

// ---------------------------------------------------------------- I/O

void TableSocket::Start(const beast::http::request<beast::http::string_body>& request) {
  ws_.set_option(websocket::stream_base::timeout::suggested(beast::role_type::server));
  // As GameSocket: the message limit is counted in Read, so an oversized
  // message gets a graceful 1009 rather than a reset.
  ws_.read_message_max(0);
  ws_.text(true);
  ws_.async_accept(request, beast::bind_front_handler(&TableSocket::OnAccept, shared_from_this()));
}

void TableSocket::OnAccept(beast::error_code error) {
  if (error) {
    MarkClosed();
    return;
  }
  opened_ = true;
  context_.metrics->SocketOpened();
  context_.hub->Register(this, weak_from_this());
  SendWelcome();
  SendTableView(nullptr);
  WatchTable();
  LoadChat();
  if (!table_.game_id().empty()) {
    const bool resuming = opening_.resume_game_id == table_.game_id();
    FeedGame(table_.game_id(), resuming ? opening_.resume_game_after : "");
  }
  Read();
}

void TableSocket::Read() {
  const std::size_t room = kMaxMessageBytes + 1 - buffer_.size();
  ws_.async_read_some(buffer_, room,
                      beast::bind_front_handler(&TableSocket::OnRead, shared_from_this()));
}

void TableSocket::OnRead(beast::error_code error, std::size_t /*bytes*/) {
  if (error) {
    MarkClosed();
    return;
  }
  if (buffer_.size() > kMaxMessageBytes) {
    buffer_.consume(buffer_.size());
    if (open() && writer_.CloseTooBig(shared_from_this())) StopHeartbeats(true);
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
    Send(TableErrorFrame("", absl::InvalidArgumentError("send JSON in text frames")));
  } else {
    HandleFrame(frame);
  }
  Read();
}

void TableSocket::Send(const v1::ServerFrame& frame) {
  if (!open()) return;
  SendJson(std::make_shared<const std::string>(FrameJson(frame)));
}

void TableSocket::SendJson(std::shared_ptr<const std::string> json) {
  if (!open()) return;
  // Refused while open: the queue was full and the writer is closing (1013).
  if (!writer_.Send(std::move(json), shared_from_this())) {
    platform::LogWarn("table socket too slow: closing", {{"table", opening_.table_id}});
    StopHeartbeats(true);
  }
}

void TableSocket::CloseGoingAway() {
  net::post(ws_.get_executor(), [self = shared_from_this()] {
    if (self->open()) {
      self->StopHeartbeats(true);
      self->writer_.Close(websocket::close_code::going_away, self);
    }
    // The streams end now, so shutdown does not wait for the close frame.
    if (self->table_stream_) self->table_stream_->Cancel();
    if (self->game_stream_) self->game_stream_->Cancel();
    if (self->chat_stream_) self->chat_stream_->Cancel();
  });
}

void TableSocket::MarkClosed() {
  // Strand only.
  const bool was_closed = closed_.exchange(true);
  if (!was_closed) StopHeartbeats(true);
  if (table_stream_) table_stream_->Cancel();
  if (game_stream_) game_stream_->Cancel();
  if (chat_stream_) chat_stream_->Cancel();
}

void TableSocket::OnStrand(std::function<void()> work) {
  net::post(ws_.get_executor(), [self = shared_from_this(), work = std::move(work)] {
    if (self->open()) work();
  });
}

void TableSocket::OnWorker(std::function<void()> work) {
  net::post(*context_.workers, [self = shared_from_this(), work = std::move(work)] { work(); });
}

void TableSocket::After(int failures, std::function<void()> work) {
  auto timer = std::make_shared<net::steady_timer>(ws_.get_executor());
  timer->expires_after(std::chrono::milliseconds(100) * (1 << std::min(failures, 6)));
  timer->async_wait(
      [self = shared_from_this(), timer, work = std::move(work)](beast::error_code error) {
        if (!error && self->open()) work();
      });
}

template <typename Feeds>
std::shared_ptr<typename Feeds::Subscription> TableSocket::Follow(
    Feeds& feeds, const std::string& key, const std::string& after, int generation,
    void (TableSocket::*on_event)(int, std::shared_ptr<const typename Feeds::Fed>),
    void (TableSocket::*on_done)(int, const grpc::Status&)) {
  auto self = shared_from_this();
  std::shared_ptr<typename Feeds::Subscription> stream = feeds.Watch(
      key, after,
      [self, generation, on_event](std::shared_ptr<const typename Feeds::Fed> fed) {
        self->OnStrand([self, generation, on_event, fed = std::move(fed)]() mutable {
          ((*self).*on_event)(generation, std::move(fed));
        });
      },
      [self, generation, on_done](const grpc::Status& status) {
        self->OnStrand(
            [self, generation, on_done, status] { ((*self).*on_done)(generation, status); });
      });
  if (closed_) stream->Cancel();
  return stream;
}

// ---------------------------------------------------------------- table

void TableSocket::SendWelcome() {
  v1::ServerFrame frame;
  v1::ServerFrame::Welcome* welcome = frame.mutable_welcome();
  welcome->set_table_id(opening_.table_id);
  const bool seated = !opening_.binding.seat_indexes.empty();
  welcome->set_role(seated ? v1::ServerFrame::ROLE_PLAYER : v1::ServerFrame::ROLE_SPECTATOR);
  for (int index : opening_.binding.seat_indexes) welcome->add_seat_indexes(index);
  welcome->set_player_id(opening_.requester.player_id());
  welcome->set_display_name(opening_.requester.display_name());
  welcome->set_chat_muted(opening_.chat_muted);
  if (seated) welcome->set_invite_path(opening_.invite_path);
  Send(frame);
}

void TableSocket::WatchTable() {
  table_stream_ =
      Follow(*services_->table_feeds, opening_.table_id, table_from_, ++table_generation_,
             &TableSocket::OnTableEvent, &TableSocket::OnTableDone);
}

void TableSocket::OnTableEvent(int generation, std::shared_ptr<const TableFeeds::Fed> fed) {
  if (generation != table_generation_) return;
  const v1::TableEvent& event = fed->event;
  table_failures_ = 0;
  table_from_ = event.event_id();
  score_.Apply(event);
  table_changed_ = true;
  const bool newer = event.table().games_played() >= known_games_played_;
  if (newer) table_ = event.table();
  // Replayed events (older than the table read at opening) only count the
  // score; the views they would make are stale.
  if (newer) SendTableView(&event);
  if (newer && !table_.game_id().empty() && table_.game_id() != game_id_ &&
      table_.games_played() > 0) {
    known_games_played_ = table_.games_played();
    SwitchGame(table_.game_id());
  }
}

void TableSocket::OnTableDone(int generation, const grpc::Status& status) {
  if (generation != table_generation_) return;
  if (status.ok()) return;  // the table closed
  if (Retryable(status) && ++table_failures_ <= kMaxStreamFailures) {
    After(table_failures_, [this] { WatchTable(); });
    return;
  }
  Send(TableErrorFrame("", platform::FromGrpcStatus(status)));
}

void TableSocket::SendTableView(const v1::TableEvent* event) {
  const v1::GetClockResponse* clock =
      shown_ != nullptr && shown_->clock.has_value() ? &*shown_->clock : nullptr;
  // Each move re-reads the game, and the view seldom changes with it: with
  // the table and score as last shown, the key tells without building it.
  std::string game_key = TableViewGameKey(shown_game(), clock);
  if (event == nullptr && !table_changed_ && game_key == last_table_view_game_key_) return;
  table_changed_ = false;
  last_table_view_game_key_ = std::move(game_key);
  v1::ServerFrame frame =
      TableViewFrame(table_, score_, opening_.binding, shown_game(), clock, event);
  // Inputs that changed may still make the view the client has: compared
  // without the event it follows, in protobuf's binary form (cheaper than
  // the JSON), it is not sent again.
  v1::ServerFrame::TableView* view = frame.mutable_table();
  v1::TableEvent followed;
  std::string followed_id;
  if (event != nullptr) {
    followed.Swap(view->mutable_event());
    view->clear_event();
    followed_id.swap(*view->mutable_last_event_id());
  }
  std::string shown;
  view->SerializeToString(&shown);
  if (event == nullptr && shown == last_table_view_) return;
  last_table_view_ = std::move(shown);
  if (event != nullptr) {
    view->mutable_event()->Swap(&followed);
    view->set_last_event_id(std::move(followed_id));
  }
  Send(frame);
}

const v1::GameState* TableSocket::shown_game() const {
  return shown_ != nullptr ? &shown_->view->game : nullptr;
}

void TableSocket::SwitchGame(const std::string& game_id) {
  if (opening_.binding.seat_indexes.empty() || opening_.tokens.game_id == game_id) {
    FeedGame(game_id, "");
    return;
  }
  v1::GetTableRequest request;
  request.set_table_id(opening_.table_id);
  *request.mutable_requester() = opening_.requester;
  OnWorker([this, request, game_id] {
    absl::StatusOr<v1::GetTableResponse> got = services_->matchmaking->GetTable(request);
    OnStrand([this, got = std::move(got), game_id] {
      if (got.ok()) {
        GameTokens tokens = TokensOf(got->your_tokens());
        if (!tokens.game_id.empty()) opening_.tokens = std::move(tokens);
      }
      FeedGame(game_id, "");
    });
  });
}

// ---------------------------------------------------------------- game

std::vector<v1::Color> TableSocket::MyColors() const {
  return ColorsOf(table_, opening_.binding);
}

void TableSocket::FeedGame(const std::string& game_id, const std::string& after) {
  if (game_stream_) game_stream_->Cancel();
  ++game_generation_;
  game_id_ = game_id;
  game_from_ = after;
  game_failures_ = 0;
  // Frames of the game before are not held back by the new one's reads.
  ReleaseHeld(kEveryVersion, nullptr);
  shown_version_ = -1;
  shown_.reset();
  // The snapshot first, then the events: those it already shows make no
  // new snapshot.
  RefreshGame(-1, [this] { WatchGame(); });
}

void TableSocket::RefreshGame(int64_t min_version, std::function<void()> then) {
  if (refreshing_) {
    // One read at a time, so snapshots go out in order; the next read
    // starts when this one is done, for the newest version asked meanwhile
    // (or a fresh read if one was asked).
    if (!refresh_again_) {
      refresh_again_version_ = min_version;
    } else if (min_version < 0 || refresh_again_version_ < 0) {
      refresh_again_version_ = -1;
    } else {
      refresh_again_version_ = std::max(refresh_again_version_, min_version);
    }
    refresh_again_ = true;
    if (then) refresh_then_ = std::move(then);
    return;
  }
  refreshing_ = true;
  const std::string game_id = game_id_;
  // Shared by every socket of this gateway showing the game (one read per
  // version, game_snapshot_cache.h); the frames are still built per socket.
  auto self = shared_from_this();
  services_->snapshots->Get(
      game_id, min_version,
      [self, game_id, then = std::move(then)](std::shared_ptr<const GameSnapshot> snapshot) {
        self->OnStrand([self, game_id, snapshot = std::move(snapshot), then] {
          TableSocket* socket = self.get();
          socket->refreshing_ = false;
          // A newer game may have taken over meanwhile: then this read is stale.
          if (game_id == socket->game_id_) {
            socket->ShowGame(snapshot);
            if (then) then();
          }
          if (socket->refresh_again_) {
            socket->refresh_again_ = false;
            std::function<void()> next = std::move(socket->refresh_then_);
            socket->refresh_then_ = nullptr;
            socket->RefreshGame(socket->refresh_again_version_, std::move(next));
          } else {
            // The reads are done and some event's version never came (the
            // cache gives up after kReadsPerWait): it goes out without.
            socket->ReleaseHeld(kEveryVersion, nullptr);
          }
        });
      });
}

void TableSocket::ShowGame(std::shared_ptr<const GameSnapshot> snapshot) {
  if (!snapshot->view.ok()) {
    // The held events go out without their snapshot; the next event that
    // changes the game reads again.
    ReleaseHeld(kEveryVersion, nullptr);
    Send(TableErrorFrame("", snapshot->view.status()));
    return;
  }
  const v1::GameState& game = snapshot->view->game;
  if (game.version() <= shown_version_) return;
  shown_version_ = game.version();
  shown_ = std::move(snapshot);
  const std::vector<v1::Color> colors = MyColors();
  ReleaseHeld(game.version(), shown_->SnapshotFrame(colors));
  SendTableView(nullptr);
  if (game.result() == v1::GAME_RESULT_ONGOING && !colors.empty() &&
      heartbeat_game_id_ != game_id_) {
    StopHeartbeats(true);
    heartbeat_game_id_ = game_id_;
    heartbeat_colors_ = colors;
    Heartbeat();
  }
}

void TableSocket::SendGameFrame(std::shared_ptr<const std::string> json) {
  if (held_.empty()) {
    SendJson(std::move(json));
  } else {
    held_.push_back({std::move(json), -1});
  }
}

void TableSocket::ReleaseHeld(int64_t version,
                              const std::shared_ptr<const std::string>& snapshot_frame) {
  bool snapshot_sent = snapshot_frame == nullptr;
  while (!held_.empty() && held_.front().snapshot_version <= version) {
    HeldFrame held = std::move(held_.front());
    held_.pop_front();
    if (!snapshot_sent && held.snapshot_version == version) {
      std::optional<std::string> both = EventWithSnapshotJson(*held.json, *snapshot_frame);
      if (both.has_value()) {
        SendJson(std::make_shared<const std::string>(*std::move(both)));
        snapshot_sent = true;
        continue;
      }
    }
    SendJson(std::move(held.json));
  }
  // A read newer than every event held, or the first of a game.
  if (!snapshot_sent) SendJson(snapshot_frame);
}

void TableSocket::WatchGame() {
  game_stream_ = Follow(*services_->feeds, game_id_, game_from_, ++game_generation_,
                        &TableSocket::OnGameEvent, &TableSocket::OnGameDone);
}

void TableSocket::OnGameEvent(int generation, std::shared_ptr<const FeedEvent> fed) {
  if (generation != game_generation_) return;
  const v1::GameEvent& event = fed->event;
  game_failures_ = 0;
  game_from_ = event.event_id();
  const bool needs_snapshot = EventChangesSnapshot(event) && event.version() > shown_version_;
  if (needs_snapshot && opening_.snapshot_after_events) {
    held_.push_back({fed->frame, event.version()});
  } else {
    SendGameFrame(fed->frame);
  }
  if (event.has_game_ended()) {
    v1::ServerFrame over = TableGameOverFrame(event);
    SendGameFrame(std::make_shared<const std::string>(FrameJson(over)));
    StopHeartbeats(false);
    const v1::GameState* game = shown_game();
    if (services_->ratings != nullptr && game != nullptr && game->game_id() == event.game_id() &&
        ChangesElo(*game)) {
      SendRatingChanges(
          std::make_shared<const RatedGameOver>(RatedGameOver{
              std::move(over), game->variant(), game->white().seat(), game->black().seat()}),
          0);
    }
  }
  if (needs_snapshot) RefreshGame(event.version());
}

void TableSocket::SendRatingChanges(std::shared_ptr<const RatedGameOver> ended, int attempt) {
  OnWorker([this, ended, attempt] {
    // A just-finished game is on the first page of each history.
    constexpr int kPages = 1;
    const std::string& game_id = ended->over.game_over().game_id();
    auto white = FindHistoryEntry(*services_->ratings, ended->white.player_id(), ended->variant,
                                  game_id, kPages);
    auto black = FindHistoryEntry(*services_->ratings, ended->black.player_id(), ended->variant,
                                  game_id, kPages);
    OnStrand([this, ended, attempt, white = std::move(white), black = std::move(black)] {
      if (!white.ok() || !black.ok() || !white->has_value() || !black->has_value()) {
        // Not recorded yet (or the rating service is away): gameOver stays
        // without changes after the last poll.
        if (attempt + 1 >= kRatingChangePolls) return;
        After(attempt, [this, ended, attempt] { SendRatingChanges(ended, attempt + 1); });
        return;
      }
      if (!(*white)->elo_changed() || !(*black)->elo_changed()) return;
      v1::ServerFrame frame = ended->over;
      v1::ServerFrame::GameOver* over = frame.mutable_game_over();
      *over->add_rating_changes() =
          RatingChangeOf(**white, ended->white.player_id(), v1::COLOR_WHITE);
      *over->add_rating_changes() =
          RatingChangeOf(**black, ended->black.player_id(), v1::COLOR_BLACK);
      Send(frame);
    });
  });
}

void TableSocket::OnGameDone(int generation, const grpc::Status& status) {
  if (generation != game_generation_) return;
  if (status.ok()) return;  // the game ended
  if (Retryable(status) && ++game_failures_ <= kMaxStreamFailures) {
    After(game_failures_, [this, generation] {
      if (generation == game_generation_) WatchGame();
    });
    return;
  }
  // A resume point older than the retained events: the snapshot already
  // shows the game, so go on from where it ends.
  const std::string shown_last = shown_game() != nullptr ? shown_game()->last_event_id() : "";
  if (status.error_code() == grpc::StatusCode::FAILED_PRECONDITION && game_from_ != shown_last) {
    game_from_ = shown_last;
    WatchGame();
    return;
  }
  Send(TableErrorFrame("", platform::FromGrpcStatus(status)));
}

// ---------------------------------------------------------------- presence

void TableSocket::Heartbeat() {
  if (heartbeat_game_id_.empty() || !open()) return;
  const std::string game_id = heartbeat_game_id_;
  // One beat per colour held, on the callback API (no thread waits for the
  // clock); the next beat is timed once all are answered.
  struct Beats {
    absl::Mutex mu;
    std::size_t pending ABSL_GUARDED_BY(mu) = 0;
    absl::Duration interval ABSL_GUARDED_BY(mu) = absl::Seconds(10);
    bool stop ABSL_GUARDED_BY(mu) = false;
  };
  auto beats = std::make_shared<Beats>();
  {
    absl::MutexLock lock(&beats->mu);
    beats->pending = heartbeat_colors_.size();
  }
  for (v1::Color color : heartbeat_colors_) {
    v1::HeartbeatRequest request;
    request.set_game_id(game_id);
    request.set_color(color);
    request.set_connection_id(connection_id_);
    services_->clock->HeartbeatAsync(
        std::move(request),
        [self = shared_from_this(), beats, game_id](absl::StatusOr<v1::HeartbeatResponse> beat) {
          absl::Duration interval;
          bool stop = false;
          {
            absl::MutexLock lock(&beats->mu);
            if (beat.ok() && beat->has_interval()) {
              beats->interval =
                  std::min(beats->interval, absl::Seconds(beat->interval().seconds()) +
                                                absl::Nanoseconds(beat->interval().nanos()));
            }
            // The game is over (NOT_FOUND) or the seat a bot's: nothing to keep.
            if (absl::IsNotFound(beat.status()) || absl::IsFailedPrecondition(beat.status())) {
              beats->stop = true;
            }
            if (--beats->pending > 0) return;
            interval = std::max(beats->interval, absl::Seconds(1));
            stop = beats->stop;
          }
          self->OnStrand(
              [self, game_id, interval, stop] { self->NextHeartbeat(game_id, interval, stop); });
        });
  }
}

void TableSocket::NextHeartbeat(const std::string& game_id, absl::Duration interval, bool stop) {
  if (game_id != heartbeat_game_id_) return;
  if (stop) {
    heartbeat_game_id_.clear();
    return;
  }
  heartbeat_timer_.emplace(ws_.get_executor());
  heartbeat_timer_->expires_after(absl::ToChronoMilliseconds(interval));
  heartbeat_timer_->async_wait([self = shared_from_this(), game_id](beast::error_code error) {
    if (!error && self->open() && game_id == self->heartbeat_game_id_) self->Heartbeat();
  });
}

void TableSocket::StopHeartbeats(bool send_closing) {
  if (heartbeat_timer_) heartbeat_timer_->cancel();
  if (heartbeat_game_id_.empty()) return;
  if (send_closing) {
    // Tells the clock this connection is gone now, not three beats later.
    for (v1::Color color : heartbeat_colors_) {
      v1::HeartbeatRequest request;
      request.set_game_id(heartbeat_game_id_);
      request.set_color(color);
      request.set_connection_id(connection_id_);
      request.set_closing(true);
      services_->clock->HeartbeatAsync(std::move(request),
                                       [](absl::StatusOr<v1::HeartbeatResponse>) {});
    }
  }
  heartbeat_game_id_.clear();
  heartbeat_colors_.clear();
}

// ---------------------------------------------------------------- chat

void TableSocket::LoadChat() {
  if (!opening_.resume_chat_after.empty()) {
    chat_from_ = opening_.resume_chat_after;
    WatchChat();
    return;
  }
  OnWorker([this] {
    absl::StatusOr<std::vector<v1::ChatMessage>> recent =
        services_->chat->Recent(opening_.table_id, kChatHistory);
    OnStrand([this, recent = std::move(recent)] {
      if (!recent.ok()) {
        Send(TableErrorFrame("", recent.status()));
        return;
      }
      v1::ServerFrame frame;
      for (const v1::ChatMessage& message : *recent) {
        *frame.mutable_chat_history()->add_messages() = message;
      }
      if (!frame.has_chat_history()) frame.mutable_chat_history();
      Send(frame);
      // From the last message shown, or from the room's beginning when it
      // is empty, so nothing posted meanwhile is missed.
      chat_from_ = recent->empty() ? "0-0" : recent->back().message_id();
      WatchChat();
    });
  });
}

void TableSocket::WatchChat() {
  chat_stream_ = Follow(*services_->chat_feeds, opening_.table_id, chat_from_, ++chat_generation_,
                        &TableSocket::OnChatMessage, &TableSocket::OnChatDone);
}

void TableSocket::OnChatMessage(int generation, std::shared_ptr<const ChatFeeds::Fed> fed) {
  if (generation != chat_generation_) return;
  chat_failures_ = 0;
  chat_from_ = fed->event.message_id();
  SendJson(fed->frame);
}

void TableSocket::OnChatDone(int generation, const grpc::Status& status) {
  if (generation != chat_generation_) return;
  if (status.ok()) return;
  if (Retryable(status) && ++chat_failures_ <= kMaxStreamFailures) {
    After(chat_failures_, [this, generation] {
      if (generation == chat_generation_) WatchChat();
    });
    return;
  }
  Send(TableErrorFrame("", platform::FromGrpcStatus(status)));
}

// ---------------------------------------------------------------- actions

void TableSocket::HandleFrame(const std::string& text) {
  std::string request_id;
  absl::StatusOr<v1::ClientFrame> frame = ParseClientFrame(text, &request_id);
  if (!frame.ok()) {
    Send(TableErrorFrame(request_id, frame.status()));
    return;
  }
  if (frame->has_ping()) {
    v1::ServerFrame pong;
    pong.mutable_pong();
    Send(pong);
    return;
  }
  if (!limiter_.Allow(absl::Now())) {
    Send(TableErrorFrame(frame->request_id(),
                         absl::ResourceExhaustedError(absl::StrCat(
                             "more than ", kActionsPerSecond,
                             " actions per second on this socket: slow down (nothing was done)"))));
    return;
  }
  if (actions_in_flight_ >= kMaxActionsInFlight) {
    Send(TableErrorFrame(frame->request_id(),
                         absl::ResourceExhaustedError("too many actions waiting: slow down")));
    return;
  }
  ++actions_in_flight_;
  static const v1::GameState kNoGame;
  const v1::GameState& game = shown_game() != nullptr ? *shown_game() : kNoGame;
  if (frame->has_move() || frame->has_resign() || frame->has_offer_draw() ||
      frame->has_answer_draw()) {
    // The actions of a game go to game_state on gRPC's callback API: the
    // busiest path (every move) holds no thread while it is answered.
    absl::StatusOr<ClientAction> action = GameActionOf(*frame, game, opening_.tokens, MyColors());
    if (!action.ok()) {
      ActionResult result;
      result.status = action.status();
      FinishAction(frame->request_id(), std::move(result));
      return;
    }
    context_.games->ActAsync(
        game.game_id(), *action,
        [self = shared_from_this(), id = frame->request_id()](absl::Status status) {
          net::post(self->ws_.get_executor(), [self, id, status = std::move(status)]() mutable {
            ActionResult result;
            result.status = std::move(status);
            self->FinishAction(id, std::move(result));
          });
        });
    return;
  }
  const std::string key = absl::StrCat(connection_id_, ".", ++action_seq_);
  OnWorker(
      [this, frame = *std::move(frame), game, tokens = opening_.tokens, colors = MyColors(), key] {
        ActionResult result = RunAction(frame, game, tokens, colors, key);
        net::post(ws_.get_executor(), [self = shared_from_this(), id = frame.request_id(),
                                       result = std::move(result)]() mutable {
          self->FinishAction(id, std::move(result));
        });
      });
}

void TableSocket::FinishAction(const std::string& request_id, ActionResult result) {
  // Strand only.
  --actions_in_flight_;
  if (!open()) return;
  if (!result.tokens.game_id.empty()) opening_.tokens = std::move(result.tokens);
  if (result.left) {
    StopHeartbeats(true);
    opening_.binding.seat_indexes.clear();
    opening_.tokens = GameTokens{};
    opening_.chat_muted = table_.options().spectators_muted();
    SendWelcome();
  }
  Send(result.status.ok() ? TableAckFrame(request_id, result.started)
                          : TableErrorFrame(request_id, result.status));
}

absl::StatusOr<ClientAction> TableSocket::GameActionOf(const v1::ClientFrame& frame,
                                                       const v1::GameState& game,
                                                       const GameTokens& tokens,
                                                       const std::vector<v1::Color>& colors) const {
  ClientAction action;
  v1::Color asked = v1::COLOR_UNSPECIFIED;
  if (frame.has_move()) {
    action.kind = ActionKind::kMove;
    action.move = frame.move().notation();
    action.expected_ply = frame.move().expected_ply();
  } else if (frame.has_resign()) {
    action.kind = ActionKind::kResign;
    action.expected_ply = frame.resign().expected_ply();
    asked = frame.resign().color();
  } else if (frame.has_offer_draw()) {
    action.kind = ActionKind::kOfferDraw;
    action.expected_ply = frame.offer_draw().expected_ply();
    asked = frame.offer_draw().color();
  } else if (frame.has_answer_draw()) {
    action.kind = frame.answer_draw().accept() ? ActionKind::kAcceptDraw : ActionKind::kDeclineDraw;
    action.expected_ply = frame.answer_draw().expected_ply();
    asked = frame.answer_draw().color();
  } else {
    return absl::InternalError("not an action of the game");
  }
  absl::StatusOr<std::string> token =
      SeatToken(tokens, colors, asked, game, frame.has_answer_draw());
  if (!token.ok()) return token.status();
  action.token = *std::move(token);
  return action;
}

TableSocket::ActionResult TableSocket::RunAction(const v1::ClientFrame& frame,
                                                 const v1::GameState& game,
                                                 const GameTokens& tokens,
                                                 const std::vector<v1::Color>& colors,
                                                 const std::string& idempotency_key) const {
  ActionResult result;
  const bool seated = !opening_.binding.seat_indexes.empty();
  auto not_seated = [] {
    return absl::PermissionDeniedError("you are watching this table: only its players can do this");
  };
  GameBackend& games = *context_.games;
  switch (frame.action_case()) {
    case v1::ClientFrame::kUndo: {
      absl::StatusOr<std::string> token =
          SeatToken(tokens, colors, v1::COLOR_UNSPECIFIED, game, /*answering_draw=*/false);
      if (!token.ok()) {
        result.status = token.status();
        return result;
      }
      v1::UndoMoveRequest request;
      request.set_game_id(game.game_id());
      request.set_player_token(*token);
      request.set_expected_ply(frame.undo().expected_ply());
      platform::CallOptions options;
      options.safe_to_retry = true;
      result.status = games.client().Call(&GameClient::Stub::UndoMove, request, options).status();
      return result;
    }
    case v1::ClientFrame::kVoteRematch: {
      if (!seated) {
        result.status = not_seated();
        return result;
      }
      v1::VoteRematchRequest request;
      request.set_idempotency_key(idempotency_key);
      *request.mutable_requester() = opening_.requester;
      request.set_table_id(opening_.table_id);
      absl::StatusOr<v1::VoteRematchResponse> voted = services_->matchmaking->VoteRematch(request);
      result.status = voted.status();
      if (voted.ok()) {
        result.started = voted->started();
        result.tokens = TokensOf(voted->your_tokens());
      }
      return result;
    }
    case v1::ClientFrame::kStartGame: {
      if (!seated) {
        result.status = not_seated();
        return result;
      }
      v1::StartGameRequest request;
      request.set_idempotency_key(idempotency_key);
      *request.mutable_requester() = opening_.requester;
      request.set_table_id(opening_.table_id);
      absl::StatusOr<v1::StartGameResponse> started = services_->matchmaking->StartGame(request);
      result.status = started.status();
      if (started.ok()) {
        result.started = true;
        result.tokens = TokensOf(started->your_tokens());
      }
      return result;
    }
    case v1::ClientFrame::kLeave: {
      if (!seated) {
        result.status = not_seated();
        return result;
      }
      v1::LeaveTableRequest request;
      request.set_idempotency_key(idempotency_key);
      *request.mutable_requester() = opening_.requester;
      request.set_table_id(opening_.table_id);
      result.status = services_->matchmaking->LeaveTable(request).status();
      result.left = result.status.ok();
      return result;
    }
    case v1::ClientFrame::kPostChat: {
      v1::PostMessageRequest request;
      request.mutable_room()->set_table_id(opening_.table_id);
      request.set_text(frame.post_chat().text());
      request.set_idempotency_key(idempotency_key);
      v1::ChatAuthor* author = request.mutable_author();
      const auto token = tokens.by_color.begin();
      if (seated && !tokens.game_id.empty() && token != tokens.by_color.end()) {
        author->mutable_player()->set_game_id(tokens.game_id);
        author->mutable_player()->set_player_token(token->second);
      } else {
        author->set_spectator_session(opening_.session_id);
        author->set_display_name(opening_.requester.display_name());
        author->set_player_id(opening_.requester.player_id());
      }
      result.status = services_->chat->Post(request).status();
      return result;
    }
    case v1::ClientFrame::kMove:
    case v1::ClientFrame::kResign:
    case v1::ClientFrame::kOfferDraw:
    case v1::ClientFrame::kAnswerDraw:  // HandleFrame sends these itself
    case v1::ClientFrame::kPing:
    case v1::ClientFrame::ACTION_NOT_SET:
      break;
  }
  return result;
}

}  // namespace draughts::gateway
