// No secret reaches anyone it does not belong to. Two browsers play a game
// against each other and a third watches; everything each of them receives
// (every HTTP status line, header and body, every WebSocket upgrade answer
// and frame), every log line of the gateway and game_state and every metric
// label is searched for the other sessions' cookie values and for the seat
// tokens the reader does not hold.
//
// The gateway has no mode yet in which two sessions share a game (that is
// matchmaking's job): the test calls GameService.CreateGame itself with the
// two sessions' public player ids, as matchmaking will, and hands each
// player only its own seat token. A hotseat game made through the gateway
// (where the gateway itself fills in the seats) is watched too.
#include <grpcpp/grpcpp.h>
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "draughts/v1/game.grpc.pb.h"
#include "gateway/proto_json.h"
#include "gateway_env.h"
#include "platform/logging.h"
#include "test_client.h"

namespace draughts::gateway::testing {
namespace {

// Every log line of this process (the gateway and game_state run in it).
class LogCapture {
 public:
  LogCapture() {
    platform::InitLogging("gateway-it", platform::LogLevel::kDebug);
    platform::SetLogSinkForTesting([this](std::string_view line) {
      absl::MutexLock lock(&mu_);
      absl::StrAppend(&text_, std::string(line), "\n");
    });
  }
  ~LogCapture() { platform::SetLogSinkForTesting(nullptr); }
  std::string Text() {
    absl::MutexLock lock(&mu_);
    return text_;
  }

 private:
  absl::Mutex mu_;
  std::string text_ ABSL_GUARDED_BY(mu_);
};

// One browser: its session and everything the gateway ever sent it.
class Party {
 public:
  Party(std::string name, int port) : name_(std::move(name)), port_(port) {}

  const std::string& name() const { return name_; }
  const std::string& secret() const { return secret_; }
  const std::string& player_id() const { return player_id_; }
  const std::string& received() const { return received_; }

  absl::StatusOr<HttpReply> Call(const std::string& method, const std::string& target,
                                 const std::string& body = "") {
    absl::StatusOr<HttpReply> reply = HttpCall(port_, method, target, body, Cookie());
    if (reply.ok()) {
      absl::StrAppend(&received_, reply->status, "\n", reply->headers, "\n", reply->body, "\n");
    }
    return reply;
  }

  // POST /api/session: the secret comes only in the Set-Cookie header, the
  // public id in the body.
  void StartSession() {
    absl::StatusOr<HttpReply> reply = Call("POST", "/api/session");
    ASSERT_TRUE(reply.ok()) << reply.status();
    ASSERT_EQ(reply->status, 200) << reply->body;
    const std::string prefix = "draughts_session=";
    ASSERT_TRUE(absl::StartsWith(reply->set_cookie, prefix)) << reply->set_cookie;
    const std::string value = reply->set_cookie.substr(prefix.size());
    secret_ = value.substr(0, value.find(';'));
    ASSERT_EQ(secret_.size(), 22u) << reply->set_cookie;
    const google::protobuf::Struct body = ParseJsonObject(reply->body).value();
    player_id_ = StringAt(body, "playerId");
    EXPECT_EQ(player_id_.size(), 24u) << reply->body;
    EXPECT_TRUE(absl::StartsWith(player_id_, "g_")) << reply->body;
    EXPECT_FALSE(absl::StrContains(reply->body, secret_)) << "the body repeats the cookie";
  }

  std::string Cookie() const {
    return secret_.empty() ? "" : absl::StrCat("draughts_session=", secret_);
  }

  // Opens a game socket (or fails to); the upgrade answer is recorded.
  WsClient* Open(const std::string& game_id, const std::string& query = "",
                 absl::Status* status = nullptr) {
    sockets_.push_back(std::make_unique<WsClient>());
    WsClient* ws = sockets_.back().get();
    absl::Status connected =
        ws->Connect(port_, absl::StrCat("/ws/games/", game_id, query), Cookie());
    absl::StrAppend(&received_, ws->handshake_response(), "\n");
    if (status != nullptr) *status = connected;
    return connected.ok() ? ws : nullptr;
  }

  // The next frame of `ws`, recorded.
  absl::StatusOr<google::protobuf::Struct> Read(WsClient* ws) {
    absl::StatusOr<std::string> text = ws->Read();
    if (!text.ok()) return text.status();
    absl::StrAppend(&received_, *text, "\n");
    return ParseJsonObject(*text);
  }

  void Send(WsClient* ws, const std::string& frame) { ASSERT_TRUE(ws->Send(frame).ok()); }

 private:
  std::string name_;
  int port_;
  std::string secret_;
  std::string player_id_;
  std::string received_;
  std::vector<std::unique_ptr<WsClient>> sockets_;
};

// What a socket has shown: the latest snapshot, and the frames by type.
struct SocketView {
  WsClient* ws = nullptr;
  google::protobuf::Struct snapshot;
  std::vector<google::protobuf::Struct> events;
  std::vector<google::protobuf::Struct> acks;
  std::vector<google::protobuf::Struct> errors;
};

template <typename Done>
void ReadUntil(Party& party, SocketView& view, Done done) {
  while (!done(view)) {
    absl::StatusOr<google::protobuf::Struct> frame = party.Read(view.ws);
    ASSERT_TRUE(frame.ok()) << party.name() << ": " << frame.status();
    const std::string type = StringAt(*frame, "type");
    if (type == "snapshot") view.snapshot = *frame;
    if (type == "event") view.events.push_back(*frame);
    if (type == "ack") view.acks.push_back(*frame);
    if (type == "error") view.errors.push_back(*frame);
  }
}

SocketView OpenView(Party& party, const std::string& game_id, const std::string& query = "") {
  SocketView view;
  view.ws = party.Open(game_id, query);
  EXPECT_NE(view.ws, nullptr) << party.name() << " could not open the socket";
  if (view.ws != nullptr) {
    ReadUntil(party, view, [](const SocketView& v) { return v.snapshot.fields_size() > 0; });
  }
  return view;
}

int Ply(const SocketView& view) {
  return static_cast<int>(NumberAt(view.snapshot, "game.ply"));
}

std::string Action(const std::string& id, const std::string& action, const std::string& token,
                   int ply, const std::string& move = "") {
  return absl::StrCat(R"({"requestId":")", id, R"(","action":")", action, R"(","token":")", token,
                      R"(","expectedPly":)", ply,
                      move.empty() ? "" : absl::StrCat(R"(,"move":")", move, R"(")"), "}");
}

std::string FirstLegalMove(const google::protobuf::Struct& snapshot) {
  const google::protobuf::Value* moves = Field(snapshot, "legalMoves");
  if (moves == nullptr || moves->list_value().values_size() == 0) return "";
  return StringAt(moves->list_value().values(0).struct_value(), "notation");
}

struct Secret {
  std::string what;
  std::string value;
};

void ExpectNone(const std::string& reader, const std::string& text,
                const std::vector<Secret>& secrets) {
  for (const Secret& secret : secrets) {
    ASSERT_FALSE(secret.value.empty()) << secret.what;
    EXPECT_FALSE(absl::StrContains(text, secret.value))
        << reader << " received " << secret.what << " (" << secret.value << ")";
  }
}

std::string MetricLabels(prometheus::Registry& registry) {
  std::string labels;
  for (const auto& family : registry.Collect()) {
    for (const auto& metric : family.metric) {
      for (const auto& label : metric.label) absl::StrAppend(&labels, label.value, "\n");
    }
  }
  return labels;
}

class SecretsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    logs_ = std::make_unique<LogCapture>();
    env_ = std::make_unique<GatewayEnv>();
    const absl::Status started = env_->Start();
    ASSERT_TRUE(started.ok()) << started;
  }
  void TearDown() override {
    env_.reset();
    logs_.reset();
  }

  std::unique_ptr<LogCapture> logs_;
  std::unique_ptr<GatewayEnv> env_;
};

TEST_F(SecretsTest, NoSessionSecretOrForeignSeatTokenReachesAnyone) {
  Party alice("alice (white)", env_->port());
  Party bob("bob (black)", env_->port());
  Party carol("carol (spectator)", env_->port());
  for (Party* party : {&alice, &bob, &carol}) {
    ASSERT_NO_FATAL_FAILURE(party->StartSession());
    ASSERT_TRUE(party->Call("GET", "/api/variants").ok());
  }
  EXPECT_NE(alice.player_id(), bob.player_id());

  // 1. A hotseat game made through the gateway: the gateway fills in the
  // seats from alice's session. Carol watches it, bob reads it.
  absl::StatusOr<HttpReply> created =
      alice.Call("POST", "/api/games", R"({"variant":"international","mode":"hotseat"})");
  ASSERT_TRUE(created.ok()) << created.status();
  ASSERT_EQ(created->status, 200) << created->body;
  const google::protobuf::Struct hotseat = ParseJsonObject(created->body).value();
  const std::string hotseat_id = StringAt(hotseat, "gameId");
  const std::string hotseat_white = StringAt(hotseat, "seats.white");
  const std::string hotseat_black = StringAt(hotseat, "seats.black");
  EXPECT_EQ(StringAt(hotseat, "game.white.seat.playerId"), alice.player_id());
  SocketView carol_hotseat = OpenView(carol, hotseat_id);
  ASSERT_NE(carol_hotseat.ws, nullptr);
  SocketView alice_hotseat = OpenView(alice, hotseat_id);
  ASSERT_NE(alice_hotseat.ws, nullptr);
  alice.Send(alice_hotseat.ws,
             Action("h1", "move", hotseat_white, 0, FirstLegalMove(alice_hotseat.snapshot)));
  ReadUntil(alice, alice_hotseat, [](const SocketView& v) { return Ply(v) == 1; });
  ReadUntil(carol, carol_hotseat, [](const SocketView& v) {
    bool created = false;
    for (const auto& event : v.events) created |= Field(event, "event.gameCreated") != nullptr;
    return created && Ply(v) == 1;
  });
  EXPECT_TRUE(bob.Call("GET", "/api/games/" + hotseat_id).ok());
  EXPECT_TRUE(absl::StrContains(carol.received(), alice.player_id()))
      << "the spectator should see the seats' public ids";
  ExpectNone("carol", carol.received(),
             {{"alice's session", alice.secret()},
              {"the hotseat white token", hotseat_white},
              {"the hotseat black token", hotseat_black}});
  ExpectNone("bob", bob.received(),
             {{"alice's session", alice.secret()},
              {"the hotseat white token", hotseat_white},
              {"the hotseat black token", hotseat_black}});

  // 2. Alice against bob, as matchmaking will start it: seats by public id,
  // each player told only its own token.
  auto stub = v1::GameService::NewStub(grpc::CreateChannel(
      absl::StrCat("127.0.0.1:", env_->game_state_port()), grpc::InsecureChannelCredentials()));
  v1::CreateGameRequest create;
  create.set_idempotency_key(absl::StrCat("secrets-test-", alice.player_id()));
  create.set_variant("international");
  create.mutable_white()->set_kind(v1::SEAT_KIND_GUEST);
  create.mutable_white()->set_player_id(alice.player_id());
  create.mutable_white()->set_display_name("Alice");
  create.mutable_black()->set_kind(v1::SEAT_KIND_GUEST);
  create.mutable_black()->set_player_id(bob.player_id());
  create.mutable_black()->set_display_name("Bob");
  v1::CreateGameResponse game;
  grpc::ClientContext context;
  const grpc::Status status = stub->CreateGame(&context, create, &game);
  ASSERT_TRUE(status.ok()) << status.error_message();
  const std::string white_token = game.white_player_token();
  const std::string black_token = game.black_player_token();

  SocketView alice_view = OpenView(alice, game.game_id());
  SocketView bob_view = OpenView(bob, game.game_id());
  SocketView carol_view = OpenView(carol, game.game_id());
  ASSERT_TRUE(alice_view.ws != nullptr && bob_view.ws != nullptr && carol_view.ws != nullptr);
  EXPECT_EQ(StringAt(carol_view.snapshot, "game.black.seat.playerId"), bob.player_id());
  auto everyone_at = [&](auto done) {
    ReadUntil(alice, alice_view, done);
    ReadUntil(bob, bob_view, done);
    ReadUntil(carol, carol_view, done);
  };

  // Four plies, each side with its own token.
  for (int ply = 0; ply < 4; ++ply) {
    const bool white = StringAt(alice_view.snapshot, "game.sideToMove") == "COLOR_WHITE";
    Party& mover = white ? alice : bob;
    SocketView& view = white ? alice_view : bob_view;
    mover.Send(view.ws, Action(absl::StrCat("m", ply), "move", white ? white_token : black_token,
                               ply, FirstLegalMove(view.snapshot)));
    ASSERT_NO_FATAL_FAILURE(everyone_at([&](const SocketView& v) { return Ply(v) == ply + 1; }));
  }
  ASSERT_EQ(StringAt(alice_view.snapshot, "game.sideToMove"), "COLOR_WHITE");

  // A draw offered and declined.
  alice.Send(alice_view.ws, Action("offer", "offerDraw", white_token, 4));
  ASSERT_NO_FATAL_FAILURE(everyone_at([](const SocketView& v) {
    return StringAt(v.snapshot, "game.drawOfferedBy") == "COLOR_WHITE";
  }));
  bob.Send(bob_view.ws, Action("decline", "declineDraw", black_token, 4));
  ASSERT_NO_FATAL_FAILURE(everyone_at([](const SocketView& v) {
    return StringAt(v.snapshot, "game.drawOfferedBy") == "COLOR_UNSPECIFIED";
  }));

  // Refused actions: a spectator with a made-up token and with none, bob out
  // of turn and with a stale ply, a frame that is not JSON.
  carol.Send(carol_view.ws, Action("c1", "move", "made-up-token", 4, "32-28"));
  carol.Send(carol_view.ws, R"({"requestId":"c2","action":"resign","expectedPly":4})");
  carol.Send(carol_view.ws, "{not json");
  ReadUntil(carol, carol_view, [](const SocketView& v) { return v.errors.size() >= 3; });
  bob.Send(bob_view.ws, Action("b1", "move", black_token, 4, "19-23"));
  bob.Send(bob_view.ws, Action("b2", "move", black_token, 1, "19-23"));
  ReadUntil(bob, bob_view, [](const SocketView& v) { return v.errors.size() >= 2; });

  // Bob resigns; everyone sees the end.
  bob.Send(bob_view.ws, Action("bye", "resign", black_token, 4));
  ASSERT_NO_FATAL_FAILURE(everyone_at([](const SocketView& v) {
    return StringAt(v.snapshot, "game.result") == "GAME_RESULT_WHITE_WINS";
  }));

  // The game view, replays from the start and from an event, and the REST
  // errors each of them can provoke.
  const std::string first_event = StringAt(carol_view.events.front(), "event.eventId");
  for (Party* party : {&alice, &bob, &carol}) {
    EXPECT_TRUE(party->Call("GET", "/api/games/" + game.game_id()).ok());
    SocketView replay = OpenView(*party, game.game_id());
    ASSERT_NE(replay.ws, nullptr);
    ReadUntil(*party, replay, [](const SocketView& v) {
      bool ended = false;
      for (const auto& event : v.events) ended |= Field(event, "event.gameEnded") != nullptr;
      return ended;
    });
    SocketView resumed = OpenView(*party, game.game_id(), "?after=" + first_event);
    ASSERT_NE(resumed.ws, nullptr);
    EXPECT_TRUE(party->Call("GET", "/api/games/no-such-game").ok());
    EXPECT_TRUE(party->Call("POST", "/api/games", R"({"variant":"chess","mode":"hotseat"})").ok());
    EXPECT_TRUE(party->Call("POST", "/api/session").ok());
    EXPECT_TRUE(party->Call("GET", "/api/session").ok());
    EXPECT_TRUE(party->Call("GET", "/healthz").ok());
    absl::Status refused;
    party->Open("no-such-game", "", &refused);
    EXPECT_FALSE(refused.ok());
    party->Open(game.game_id(), "?after=garbage", &refused);
    EXPECT_FALSE(refused.ok());
  }
  EXPECT_TRUE(absl::StrContains(carol.received(), bob.player_id()));

  const std::vector<Secret> sessions = {{"alice's session", alice.secret()},
                                        {"bob's session", bob.secret()},
                                        {"carol's session", carol.secret()}};
  const std::vector<Secret> tokens = {{"the white token", white_token},
                                      {"the black token", black_token},
                                      {"the hotseat white token", hotseat_white},
                                      {"the hotseat black token", hotseat_black}};
  ExpectNone("carol", carol.received(), {sessions[0], sessions[1]});
  ExpectNone("carol", carol.received(), tokens);
  ExpectNone("bob", bob.received(), {sessions[0], sessions[2], tokens[0], tokens[2], tokens[3]});
  ExpectNone("alice", alice.received(), {sessions[1], sessions[2], tokens[1]});
  // Nor in any log line or metric label.
  const std::string logs = logs_->Text();
  EXPECT_FALSE(logs.empty());
  ExpectNone("the logs", logs, sessions);
  ExpectNone("the logs", logs, tokens);
  const std::string labels = MetricLabels(env_->registry());
  ExpectNone("the metric labels", labels, sessions);
  ExpectNone("the metric labels", labels, tokens);
}

}  // namespace
}  // namespace draughts::gateway::testing
