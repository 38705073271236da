#include "gateway/gateway_server.h"

#include <boost/asio/post.hpp>
#include <boost/asio/strand.hpp>
#include <utility>

#include "absl/strings/str_cat.h"
#include "gateway/http_connection.h"
#include "platform/logging.h"

namespace draughts::gateway {

namespace net = boost::asio;
using tcp = net::ip::tcp;

GatewayServer::GatewayServer(GatewayOptions options, SessionStore* sessions,
                             IdempotencyStore* idempotency, GameBackend* games,
                             ArchiveBackend* archive, GatewayMetrics* metrics,
                             AccountHandlers* accounts, MatchmakingBackend* matchmaking,
                             LobbyHandlers* lobby)
    : options_(std::move(options)),
      metrics_(metrics),
      hub_(options_.max_sockets),
      files_(options_.web_root),
      handlers_(sessions, idempotency, games, archive, &files_, accounts, options_.secure_cookie,
                lobby),
      games_(games),
      archive_(archive),
      matchmaking_(matchmaking),
      workers_(static_cast<std::size_t>(std::max(1, options_.worker_threads))) {}

GatewayServer::~GatewayServer() {
  Shutdown();
}

absl::Status GatewayServer::Start() {
  if (started_) return absl::FailedPreconditionError("already started");
  boost::system::error_code error;
  const net::ip::address address = net::ip::make_address(options_.host, error);
  if (error) return absl::InvalidArgumentError(absl::StrCat("bad host ", options_.host));
  const tcp::endpoint endpoint(address, static_cast<unsigned short>(options_.port));
  acceptor_.emplace(net::make_strand(io_));
  acceptor_->open(endpoint.protocol(), error);
  if (!error) acceptor_->set_option(net::socket_base::reuse_address(true), error);
  if (!error) acceptor_->bind(endpoint, error);
  if (!error) acceptor_->listen(net::socket_base::max_listen_connections, error);
  if (error) {
    return absl::UnavailableError(absl::StrCat("cannot listen on ", options_.host, ":",
                                               options_.port, ": ", error.message()));
  }
  port_ = acceptor_->local_endpoint().port();
  started_ = true;
  work_.emplace(io_.get_executor());
  Accept();
  for (int i = 0; i < std::max(1, options_.io_threads); ++i) {
    threads_.emplace_back([this] { io_.run(); });
  }
  return absl::OkStatus();
}

void GatewayServer::EnableTableSockets(ClockBackend* clock, ChatBackend* chat) {
  if (matchmaking_ == nullptr || clock == nullptr || chat == nullptr) return;
  tables_.emplace();
  tables_->matchmaking = matchmaking_;
  tables_->clock = clock;
  tables_->chat = chat;
  tables_->per_session = &table_sockets_per_session_;
  snapshots_.emplace(GameAndClockReader(games_, clock));
  games_->SetMoveAnswerListener(&*snapshots_);
  tables_->snapshots = &*snapshots_;
  GameClient* game_client = &games_->client();
  feeds_.emplace(
      [game_client](const v1::WatchGameRequest& request, grpc::ClientContext* context,
                    grpc::ClientReadReactor<v1::GameEvent>* reactor) {
        game_client->stub().async()->WatchGame(context, &request, reactor);
      },
      GameFeedKind());
  tables_->feeds = &*feeds_;
  MatchmakingClient* table_client = &matchmaking_->client();
  table_feeds_.emplace(
      [table_client](const v1::WatchTableRequest& request, grpc::ClientContext* context,
                     grpc::ClientReadReactor<v1::TableEvent>* reactor) {
        table_client->stub().async()->WatchTable(context, &request, reactor);
      },
      TableFeedKind());
  tables_->table_feeds = &*table_feeds_;
  ChatClient* chat_client = &chat->client();
  chat_feeds_.emplace(
      [chat_client](const v1::WatchChatRequest& request, grpc::ClientContext* context,
                    grpc::ClientReadReactor<v1::ChatMessage>* reactor) {
        chat_client->stub().async()->WatchChat(context, &request, reactor);
      },
      ChatFeedKind());
  tables_->chat_feeds = &*chat_feeds_;
  if (archive_ != nullptr && archive_->client() != nullptr) {
    table_ratings_.emplace(archive_->client());
    tables_->ratings = &*table_ratings_;
  }
}

void GatewayServer::Accept() {
  acceptor_->async_accept(net::make_strand(io_),
                          [this](boost::system::error_code error, tcp::socket socket) {
                            if (error == net::error::operation_aborted || !acceptor_->is_open())
                              return;
                            if (!error) {
                              GatewayContext context;
                              context.handlers = &handlers_;
                              context.games = games_;
                              context.matchmaking = matchmaking_;
                              context.metrics = metrics_;
                              context.workers = &workers_;
                              context.hub = &hub_;
                              context.tables = tables_ ? &*tables_ : nullptr;
                              context.client_address_header = options_.client_address_header;
                              std::make_shared<HttpConnection>(std::move(socket), context)->Start();
                            }
                            Accept();
                          });
}

void GatewayServer::Shutdown() {
  if (stopped_) return;
  stopped_ = true;
  if (!started_) return;
  // Stop accepting (on the acceptor's strand: it is not thread-safe).
  net::post(acceptor_->get_executor(), [this] {
    boost::system::error_code ignored;
    acceptor_->close(ignored);
  });
  hub_.CloseAll();
  if (!hub_.WaitUntilEmpty(options_.shutdown_timeout)) {
    platform::LogWarn("game sockets still open at the shutdown timeout", {{"open", hub_.open()}});
  }
  // Idle keep-alive connections would keep run() going until their timeout.
  work_.reset();
  io_.stop();
  for (std::thread& thread : threads_) thread.join();
  threads_.clear();
  workers_.join();
}

}  // namespace draughts::gateway
