#include "loadgen/gateway_table.h"

#include <google/protobuf/util/json_util.h>
#include <unistd.h>

#include <chrono>
#include <optional>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "draughts/v1/web_game.pb.h"
#include "draughts/v1/web_lobby.pb.h"
#include "draughts/v1/web_socket.pb.h"
#include "loadgen/frame_kind.h"
#include "rules/fen.h"
#include "rules/move_notation.h"
#include "rules/movegen.h"

namespace draughts::loadgen {
namespace {

namespace net = boost::asio;

// Under the gateway's 5 actions a second per socket.
constexpr absl::Duration kActionSpacing = absl::Milliseconds(250);
// As the web client (table_socket.js PING_EVERY_MS).
constexpr auto kPingEvery = std::chrono::seconds(25);

template <typename Message>
bool ParseJson(std::string_view text, Message* message) {
  google::protobuf::util::JsonParseOptions options;
  // Clients ignore fields and frames they do not know (web_socket.proto).
  options.ignore_unknown_fields = true;
  return google::protobuf::util::JsonStringToMessage(
             google::protobuf::StringPiece(text.data(), text.size()), message, options)
      .ok();
}

std::string StatusCode(const HttpAnswer& answer) {
  if (answer.status == 0) return answer.error.substr(0, answer.error.find(':'));
  return absl::StrCat(answer.status);
}

}  // namespace

GatewayTable::GatewayTable(TableHost& host, net::io_context& io, int index, int spectators)
    : host_(host),
      io_(io),
      index_(index),
      rng_(static_cast<unsigned>(index) * 7919u + 17u),
      clients_(static_cast<std::size_t>(2 + spectators)),
      ping_timer_(io) {
  for (std::size_t i = 0; i < clients_.size(); ++i) {
    Client& client = clients_[i];
    client.index = static_cast<int>(i);
    client.player = i < 2;
    client.move_timer = std::make_unique<net::steady_timer>(io);
    const int every = host_.options().chat_every_moves;
    client.moves_until_chat = every > 0 ? 1 + static_cast<int>(rng_() % every) : 0;
  }
}

std::string GatewayTable::NewKey() {
  return absl::StrCat("lg", getpid(), "-", index_, "-", ++keys_, "-", rng_() % 100000);
}

void GatewayTable::Start() {
  sessions_missing_ = static_cast<int>(clients_.size());
  CreateSessions();
}

void GatewayTable::CreateSessions() {
  for (Client& client : clients_) {
    HttpCall call{"POST", "/api/session", "", "", NewKey()};
    SendHttp(io_, host_.server(), std::move(call),
             [self = shared_from_this(), i = client.index](HttpAnswer answer) {
               if (self->failed_) return;
               Client& c = self->clients_[static_cast<std::size_t>(i)];
               v1::SessionBody session;
               if (answer.status != 200 || answer.session_cookie.empty() ||
                   !ParseJson(answer.body, &session)) {
                 return self->SetupFailed("POST /api/session", StatusCode(answer));
               }
               c.cookie = answer.session_cookie;
               c.player_id = session.player_id();
               if (--self->sessions_missing_ == 0) self->CreateTable();
             });
  }
}

void GatewayTable::CreateTable() {
  const LoadOptions& options = host_.options();
  std::string body =
      absl::StrCat(R"({"variant":")", options.variant, R"(","options":{"moveLimit":)",
                   options.move_limit, R"(},"rated":false,"password":"")");
  if (!options.time_per_move.empty()) {
    absl::StrAppend(&body, R"(,"timePerMove":")", options.time_per_move, R"(")");
  }
  body += "}";
  HttpCall call{"POST", "/api/tables", std::move(body), clients_[0].cookie, NewKey()};
  SendHttp(io_, host_.server(), std::move(call), [self = shared_from_this()](HttpAnswer answer) {
    v1::WebTableResponse created;
    if (answer.status != 200 || !ParseJson(answer.body, &created) ||
        created.table().invite_code().empty()) {
      return self->SetupFailed("POST /api/tables", StatusCode(answer));
    }
    self->table_id_ = created.table().table_id();
    self->JoinTable(created.table().invite_code());
  });
}

void GatewayTable::JoinTable(const std::string& invite_code) {
  HttpCall call{"POST", absl::StrCat("/api/invites/", invite_code, "/join"), "{}",
                clients_[1].cookie, NewKey()};
  SendHttp(io_, host_.server(), std::move(call), [self = shared_from_this()](HttpAnswer answer) {
    v1::WebTableResponse joined;
    if (answer.status != 200 || !ParseJson(answer.body, &joined)) {
      return self->SetupFailed("POST /api/invites/{code}/join", StatusCode(answer));
    }
    self->OpenSockets();
  });
}

void GatewayTable::OpenSockets() {
  // As the web client: snapshots ride in the events that change the game.
  const std::string target = absl::StrCat("/ws/tables/", table_id_, "?snapshotAfter=1");
  for (Client& client : clients_) {
    WebSocketClient::Handlers handlers;
    const int i = client.index;
    handlers.on_frame = [self = shared_from_this(), i](std::string_view text) {
      self->OnFrame(self->clients_[static_cast<std::size_t>(i)], text);
    };
    handlers.on_closed = [self = shared_from_this(), i](const std::string& why) {
      self->OnClosed(self->clients_[static_cast<std::size_t>(i)], why);
    };
    client.socket = std::make_shared<WebSocketClient>(io_, std::move(handlers));
    client.socket->Open(host_.server(), target, client.cookie);
  }
  SchedulePing();
}

void GatewayTable::SetupFailed(const std::string& call, const std::string& code) {
  if (failed_) return;
  failed_ = true;
  host_.stats().Error(call, code);
  if (!set_up_) {
    set_up_ = true;
    host_.TableSetUp();
  }
  for (Client& client : clients_) {
    if (client.socket) client.socket->Close();
  }
  ping_timer_.cancel();
  CheckDrained();
}

void GatewayTable::SchedulePing() {
  ping_timer_.expires_after(kPingEvery);
  ping_timer_.async_wait([self = shared_from_this()](const boost::system::error_code& error) {
    if (error || self->finished_) return;
    for (Client& client : self->clients_) {
      if (client.socket && client.socket->open()) client.socket->Send(R"({"ping":{}})");
    }
    self->SchedulePing();
  });
}

void GatewayTable::OnFrame(Client& client, std::string_view text) {
  std::string_view kind = FrameKind(text);
  // Frames only drawn by a browser (snapshot with its timer, chat) are not parsed:
  // the players follow the game from its events. A player reads the table
  // view after a game, as the page's "Play again" does, to vote once the
  // table has recorded the end (the game's own end may come first).
  if (kind == "table") {
    if (client.player && client.voted_game != client.game_id) OnTableView(client, text);
    return;
  }
  if (kind == "snapshot") {
    host_.stats().Count("snapshot_frames");
    return;
  }
  if (kind == "chatHistory" || kind == "pong" || kind == "gameOver") return;
  if (kind == "chatMessage") {
    host_.stats().Count("chat_messages_received");
    return;
  }
  if (kind == "gameEvent") {
    if (text.find(R"(,"snapshotAfter":{)") != std::string_view::npos) {
      host_.stats().Count("snapshots_in_events");
    }
    if (std::optional<v1::GameEvent> played = ScanMovePlayedFrame(text)) {
      OnGameEvent(client, *played);
      return;
    }
  }
  v1::ServerFrame frame;
  if (!ParseJson(text, &frame)) {
    host_.stats().Error("socket", "unparsable frame");
    return;
  }
  switch (frame.frame_case()) {
    case v1::ServerFrame::kWelcome: {
      const bool player = frame.welcome().role() == v1::ServerFrame::ROLE_PLAYER;
      if (player != client.player) host_.stats().Error("socket", "wrong role");
      if (client.welcomed) return;
      client.welcomed = true;
      host_.stats().Count(client.player ? "player_sockets" : "spectator_sockets");
      for (const Client& other : clients_) {
        if (!other.welcomed) return;
      }
      SendAction(clients_[0], "startGame", "{}", {"startGame", "", 0});
      return;
    }
    case v1::ServerFrame::kGameEvent:
      OnGameEvent(client, frame.game_event());
      return;
    case v1::ServerFrame::kAck:
      OnAnswer(client, frame.request_id(), true, "");
      return;
    case v1::ServerFrame::kError:
      OnAnswer(client, frame.request_id(), false, frame.error().code());
      return;
    default:
      return;
  }
}

void GatewayTable::OnTableView(Client& client, std::string_view text) {
  v1::ServerFrame frame;
  if (!ParseJson(text, &frame)) {
    host_.stats().Error("socket", "unparsable frame");
    return;
  }
  const v1::Table& table = frame.table().table();
  if (table.status() == v1::TABLE_STATUS_FINISHED) client.finished_game = table.game_id();
  MaybeVoteRematch(client);
}

void GatewayTable::MaybeVoteRematch(Client& client) {
  // "Play again" once both the game's end and the table's are seen: both
  // players' votes start the table's next game.
  if (!client.game_over || client.game_id.empty() || client.finished_game != client.game_id ||
      client.voted_game == client.game_id || stopping_ || host_.stopping()) {
    return;
  }
  client.voted_game = client.game_id;
  SendAction(client, "voteRematch", "{}", {"voteRematch", "", 0});
}

GatewayTable::Round& GatewayTable::RoundOf(const std::string& game_id) {
  for (Round& round : rounds_) {
    if (round.game_id == game_id) return round;
  }
  // A new game: the ledgers of games two back are settled by now.
  while (rounds_.size() >= 2) {
    int missing = 0;
    for (const auto& ledger : rounds_.front().ledgers) missing += ledger->Missing();
    host_.stats().Lost(missing);
    rounds_.pop_front();
  }
  Round& round = rounds_.emplace_back();
  round.game_id = game_id;
  for (std::size_t i = 0; i < clients_.size(); ++i) {
    round.ledgers.push_back(std::make_unique<MoveLedger>());
  }
  return round;
}

void GatewayTable::OnGameEvent(Client& client, const v1::GameEvent& event) {
  Round& round = RoundOf(event.game_id());
  if (event.has_game_created()) {
    if (client.index == 0) {
      host_.stats().GameCreated();
      if (!set_up_) {
        set_up_ = true;
        host_.TableSetUp();
      }
      if (!live_) {
        live_ = true;
        host_.LiveGames(+1);
      }
    }
    if (client.player) {
      const v1::GameCreated& created = event.game_created();
      client.game_id = event.game_id();
      client.white = created.white().player_id() == client.player_id;
      if (!client.white && created.black().player_id() != client.player_id) {
        host_.stats().Error("gameCreated", "seat not ours");
      }
      rules::Result<rules::Position> start =
          rules::ParseFen(host_.variant(), created.initial_fen());
      if (!start.ok()) {
        host_.stats().Error("gameCreated", "bad fen");
        return;
      }
      client.position = *start;
      client.ply = event.ply();
      client.game_over = false;
      client.move_in_flight = false;
      MaybeScheduleMove(client);
    }
    return;
  }
  if (event.has_move_played()) {
    const v1::MovePlayed& played = event.move_played();
    if (played.automatic()) {
      // The server moved for a player whose time ran out: not a move the
      // clients sent, and a sign the run fell behind.
      host_.stats().Count("automatic_moves");
    } else {
      const MoveLedger::Observation seen =
          round.ledgers[static_cast<std::size_t>(client.index)]->Observe(event.ply(),
                                                                         played.notation());
      const bool mover = client.player && client.game_id == event.game_id() &&
                         (played.color() == v1::COLOR_WHITE) == client.white;
      switch (seen.seen) {
        case MoveLedger::Seen::kFirst:
          if (mover) host_.stats().EventLatency(*seen.sent_at, absl::Now());
          break;
        case MoveLedger::Seen::kDuplicate:
          host_.stats().Duplicated();
          break;
        case MoveLedger::Seen::kUnexpected:
          host_.stats().Unexpected();
          break;
      }
    }
    if (client.player && client.game_id == event.game_id()) {
      rules::Result<rules::Position> after = rules::ParseFen(host_.variant(), played.fen_after());
      if (!after.ok()) {
        host_.stats().Error("movePlayed", "bad fen");
        return;
      }
      client.position = *after;
      client.ply = event.ply();
      if ((played.color() == v1::COLOR_WHITE) == client.white) client.move_in_flight = false;
      MaybeScheduleMove(client);
    } else if (!client.player) {
      MaybeChat(client);
    }
    if (stopping_) CheckDrained();
    return;
  }
  if (event.has_game_ended()) {
    if (client.index == 0) {
      host_.stats().GameFinished();
      if (live_) {
        live_ = false;
        host_.LiveGames(-1);
      }
    }
    if (client.player && client.game_id == event.game_id()) {
      client.game_over = true;
      client.move_timer->cancel();
      MaybeVoteRematch(client);
    }
    if (stopping_) CheckDrained();
  }
}

void GatewayTable::OnAnswer(Client& client, const std::string& request_id, bool ok,
                            const std::string& code) {
  auto it = client.pending.find(request_id);
  if (it == client.pending.end()) {
    host_.stats().Error("socket", ok ? "unasked ack" : absl::StrCat("unasked error ", code));
    return;
  }
  const Pending pending = std::move(it->second);
  client.pending.erase(it);
  if (pending.action == "move") {
    Round& round = RoundOf(pending.game_id);
    if (ok) {
      host_.stats().MoveAcknowledged();
      for (auto& ledger : round.ledgers) ledger->Acknowledged(pending.ply_after);
    } else {
      // A move sent just as the game ended by a rule the players do not
      // track (a draw rule) is refused as a browser's would be: not a fault.
      if (client.game_over && code == "FAILED_PRECONDITION") {
        host_.stats().Count("moves_refused_after_game_end");
      } else {
        host_.stats().Error("move", code);
      }
      for (auto& ledger : round.ledgers) ledger->Failed(pending.ply_after);
      // As a player would: look at the board again and play on.
      client.move_in_flight = false;
      MaybeScheduleMove(client);
    }
  } else if (ok) {
    host_.stats().Count(absl::StrCat(pending.action, "_ok"));
  } else {
    host_.stats().Error(pending.action, code);
  }
  if (stopping_) CheckDrained();
}

void GatewayTable::OnClosed(Client& client, const std::string& why) {
  client.closed = true;
  client.move_timer->cancel();
  if (!finished_) host_.stats().Error("socket closed", why.substr(0, why.find(':')));
  if (!set_up_) SetupFailed("socket", "closed before the game");
  if (stopping_) CheckDrained();
}

void GatewayTable::MaybeScheduleMove(Client& client) {
  if (!client.player || client.closed || client.game_over || client.move_in_flight ||
      client.move_timer_armed || stopping_ || !client.position.has_value() ||
      (host_.options().move_limit > 0 && client.ply >= host_.options().move_limit) ||
      (client.position->side_to_move() == rules::Color::kWhite) != client.white) {
    return;
  }
  // The socket's own action spacing first, then a slot of the run's rate
  // (taken only once the move is ready, so sends keep the rate).
  const std::optional<absl::Time> slot = host_.NextMoveSlot(client.next_action_at);
  // While the ramp holds moves, ask again in a moment.
  const absl::Time at = slot.value_or(host_.ramping() ? absl::Now() + absl::Milliseconds(200)
                                                      : client.next_action_at);
  client.move_timer_armed = true;
  client.move_timer->expires_after(
      std::chrono::microseconds(std::max<int64_t>(0, absl::ToInt64Microseconds(at - absl::Now()))));
  client.move_timer->async_wait([self = shared_from_this(), i = client.index,
                                 ready = slot.has_value()](const boost::system::error_code& error) {
    Client& c = self->clients_[static_cast<std::size_t>(i)];
    c.move_timer_armed = false;
    if (error || self->stopping_ || c.game_over || c.move_in_flight || c.closed) return;
    if (!ready) {
      self->MaybeScheduleMove(c);
      return;
    }
    self->SendMove(c);
  });
}

void GatewayTable::SendMove(Client& client) {
  const rules::MoveList legal = rules::LegalMoves(host_.variant(), *client.position);
  if (legal.empty()) return;  // lost: the server's gameEnded follows
  const rules::Move& move = legal[rng_() % legal.size()];
  const std::string notation = rules::FormatMove(legal, move);
  const int ply_after = client.ply + 1;
  Round& round = RoundOf(client.game_id);
  const absl::Time now = absl::Now();
  for (auto& ledger : round.ledgers) ledger->Sent(ply_after, notation, now);
  client.move_in_flight = true;
  SendAction(client, "move",
             absl::StrCat(R"({"notation":")", notation, R"(","expectedPly":)", client.ply, "}"),
             {"move", client.game_id, ply_after});
  MaybeChat(client);
}

void GatewayTable::MaybeChat(Client& client) {
  if (client.moves_until_chat <= 0 || stopping_ || client.closed) return;
  if (--client.moves_until_chat > 0) return;
  client.moves_until_chat = host_.options().chat_every_moves;
  // A spectator posts when its socket is quiet enough for one more action.
  if (!client.player && client.next_action_at > absl::Now()) return;
  SendAction(client, "postChat",
             absl::StrCat(R"({"text":"load line )", index_, "-", client.index, R"("})"),
             {"postChat", "", 0});
}

void GatewayTable::SendAction(Client& client, std::string_view action, std::string_view body,
                              Pending pending) {
  if (!client.socket || client.closed) return;
  std::string request_id = absl::StrCat("r", client.next_request++);
  client.socket->Send(absl::StrCat(R"({"requestId":")", request_id, R"(",")", std::string(action),
                                   R"(":)", std::string(body), "}"));
  client.pending.emplace(std::move(request_id), std::move(pending));
  client.next_action_at = std::max(client.next_action_at, absl::Now()) + kActionSpacing;
}

void GatewayTable::Stop() {
  stopping_ = true;
  for (Client& client : clients_) client.move_timer->cancel();
  CheckDrained();
}

void GatewayTable::CheckDrained() {
  if (drained_ || !stopping_) return;
  for (const Client& client : clients_) {
    if (!client.closed && (client.move_in_flight || !client.pending.empty())) return;
  }
  for (const Round& round : rounds_) {
    for (const auto& ledger : round.ledgers) {
      if (ledger->Missing() > 0) return;
    }
  }
  drained_ = true;
  host_.TableDrained();
}

void GatewayTable::Finish() {
  if (finished_) return;
  finished_ = true;
  int missing = 0;
  for (const Round& round : rounds_) {
    for (const auto& ledger : round.ledgers) missing += ledger->Missing();
  }
  host_.stats().Lost(missing);
  rounds_.clear();
  for (Client& client : clients_) {
    for (const auto& [id, pending] : client.pending) {
      if (pending.action == "move") host_.stats().Error("move", "no answer");
    }
    client.move_timer->cancel();
    if (client.socket) client.socket->Close();
  }
  ping_timer_.cancel();
  if (live_) {
    live_ = false;
    host_.LiveGames(-1);
  }
  host_.TableFinished();
}

}  // namespace draughts::loadgen
