// The lobby's REST routes through the real binaries: a private redis-server,
// game_state, matchmaking and the gateway, each a child process. Guests
// create, list, join (by id + password, by invite code), start, fill seats
// with bots, pair quickly and play the computer; nothing another player or a
// spectator reads holds a password, a session id or a seat token not
// theirs; bad input changes nothing; actions per second are limited.
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "gateway/proto_json.h"
#include "gtest/gtest.h"
#include "platform/testing/redis_server_process.h"
#include "platform/testing/server_process.h"
#include "platform/testing/test_env.h"
#include "test_client.h"

namespace draughts::gateway::testing {
namespace {

using google::protobuf::Struct;
using google::protobuf::Value;
using platform::testing::ServerProcess;

// The stack, started once for the suite (a few seconds under ASan).
struct Stack {
  std::unique_ptr<platform::testing::RedisServerProcess> redis;
  std::unique_ptr<ServerProcess> game_state;
  std::unique_ptr<ServerProcess> matchmaking;
  std::unique_ptr<ServerProcess> gateway;
};

Stack* stack = nullptr;

std::vector<std::string> GatewayFlags(const std::vector<std::string>& extra = {}) {
  std::vector<std::string> flags = {absl::StrCat("--redis=", stack->redis->address()),
                                    absl::StrCat("--game-state=", stack->game_state->address()),
                                    absl::StrCat("--matchmaking=", stack->matchmaking->address()),
                                    "--metrics-port=-1",
                                    "--web-root=/nonexistent",
                                    "--log-level=warn"};
  flags.insert(flags.end(), extra.begin(), extra.end());
  return flags;
}

class LobbyRoutesTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    absl::StatusOr<std::string> redis_binary =
        platform::testing::RequiredTestEnv("DRAUGHTS_TEST_REDIS_SERVER");
    if (!redis_binary.ok()) return;
    stack = new Stack;
    auto redis = platform::testing::RedisServerProcess::Start(*redis_binary);
    ASSERT_TRUE(redis.ok()) << redis.status();
    stack->redis = std::move(redis).value();
    auto game_state =
        ServerProcess::Start(GAME_STATE_BINARY, {absl::StrCat("--redis=", stack->redis->address()),
                                                 "--token-secret=lobby-test-secret-0123456789",
                                                 "--metrics-port=-1", "--log-level=warn"});
    ASSERT_TRUE(game_state.ok()) << game_state.status();
    stack->game_state = std::move(game_state).value();
    auto matchmaking = ServerProcess::Start(
        MATCHMAKING_BINARY, {absl::StrCat("--redis=", stack->redis->address()),
                             absl::StrCat("--game-state=", stack->game_state->address()),
                             "--token-secret=lobby-test-matchmaking-0123456789",
                             "--metrics-port=-1", "--max-open-tables=50", "--log-level=warn"});
    ASSERT_TRUE(matchmaking.ok()) << matchmaking.status();
    stack->matchmaking = std::move(matchmaking).value();
    auto gateway = ServerProcess::Start(GATEWAY_BINARY, GatewayFlags());
    ASSERT_TRUE(gateway.ok()) << gateway.status();
    stack->gateway = std::move(gateway).value();
  }

  static void TearDownTestSuite() {
    delete stack;
    stack = nullptr;
  }

  void SetUp() override {
    if (stack == nullptr) GTEST_SKIP() << "DRAUGHTS_TEST_REDIS_SERVER is not set";
    ASSERT_NE(stack->gateway, nullptr) << "the stack did not start";
  }

  int port() const { return stack->gateway->port(); }
};

struct Reply {
  int status = 0;
  std::string body;
  std::string headers;
  Struct json;
};

Reply Call(int port, const std::string& method, const std::string& target, const std::string& body,
           const std::string& cookie, const HeaderList& headers = {}) {
  absl::StatusOr<HttpReply> reply = HttpCall(port, method, target, body, cookie, headers);
  EXPECT_TRUE(reply.ok()) << reply.status();
  Reply out;
  if (!reply.ok()) return out;
  out.status = reply->status;
  out.body = reply->body;
  out.headers = reply->headers;
  if (absl::StatusOr<Struct> json = ParseJsonObject(reply->body); json.ok()) out.json = *json;
  return out;
}

struct Player {
  std::string cookie;     // "draughts_session=<secret>"
  std::string player_id;  // public
};

Player NewGuest(int port) {
  absl::StatusOr<HttpReply> reply = HttpCall(port, "POST", "/api/session");
  EXPECT_TRUE(reply.ok() && reply->status == 200);
  Player player;
  if (!reply.ok()) return player;
  player.cookie = reply->set_cookie.substr(0, reply->set_cookie.find(';'));
  player.player_id = StringAt(*ParseJsonObject(reply->body), "playerId");
  return player;
}

std::string SecretOf(const Player& player) {
  return player.cookie.substr(player.cookie.find('=') + 1);
}

const google::protobuf::ListValue* ListAt(const Struct& object, const std::string& path) {
  const Value* value = Field(object, path);
  return value != nullptr && value->has_list_value() ? &value->list_value() : nullptr;
}

std::string SeatPlayer(const Struct& answer, int index) {
  const google::protobuf::ListValue* seats = ListAt(answer, "table.seats");
  if (seats == nullptr || seats->values_size() <= index) return "";
  const Value& seat = seats->values(index);
  if (!seat.has_struct_value()) return "";
  const Value* occupant = Field(seat.struct_value(), "occupant");
  if (occupant == nullptr || !occupant->has_struct_value()) return "";
  const std::string id = StringAt(occupant->struct_value(), "playerId");
  return id.empty() ? StringAt(occupant->struct_value(), "kind") : id;
}

std::vector<std::string> Tokens(const Struct& answer) {
  std::vector<std::string> tokens;
  if (const google::protobuf::ListValue* list = ListAt(answer, "yourTokens")) {
    for (const Value& token : list->values()) {
      tokens.push_back(StringAt(token.struct_value(), "playerToken"));
    }
  }
  return tokens;
}

std::set<std::string> ListedTableIds(int port, const Player& viewer, const std::string& query) {
  const Reply listed =
      Call(port, "GET", absl::StrCat("/api/tables?pageSize=100", query), "", viewer.cookie);
  EXPECT_EQ(listed.status, 200) << listed.body;
  std::set<std::string> ids;
  if (const google::protobuf::ListValue* tables = ListAt(listed.json, "tables")) {
    for (const Value& table : tables->values()) {
      ids.insert(StringAt(table.struct_value(), "tableId"));
    }
  }
  return ids;
}

TEST_F(LobbyRoutesTest, PrivateTableCreatedJoinedByPasswordAndStartedWithoutLeakingSecrets) {
  const Player alice = NewGuest(port());
  const Player bob = NewGuest(port());
  const Player carol = NewGuest(port());
  const std::string password = "pw-Secret-42";
  const Reply created = Call(port(), "POST", "/api/tables",
                             absl::StrCat(R"({"variant":"international","timePerMove":"120s",)",
                                          R"("options":{"computerPlaysForAbsent":true,)",
                                          R"("moveLimit":150,"showPossibleMoves":false},)",
                                          R"("password":")", password, R"("})"),
                             alice.cookie);
  ASSERT_EQ(created.status, 200) << created.body;
  const std::string table_id = StringAt(created.json, "table.tableId");
  EXPECT_TRUE(Field(created.json, "table.hasPassword")->bool_value());
  EXPECT_EQ(StringAt(created.json, "table.timePerMove"), "120s");
  EXPECT_EQ(NumberAt(created.json, "table.options.moveLimit"), 150);
  EXPECT_TRUE(Field(created.json, "table.options.computerPlaysForAbsent")->bool_value());
  EXPECT_TRUE(absl::StartsWith(StringAt(created.json, "invitePath"), "/join/"));
  EXPECT_FALSE(absl::StrContains(created.body, password)) << "never echoed";

  // Bob: the list shows the table, with no invite code.
  const Reply listed =
      Call(port(), "GET", "/api/tables?variant=international&openSeatsOnly=true", "", bob.cookie);
  ASSERT_EQ(listed.status, 200) << listed.body;
  EXPECT_TRUE(absl::StrContains(listed.body, table_id));
  const std::string invite_code = StringAt(created.json, "table.inviteCode");
  ASSERT_FALSE(invite_code.empty());
  EXPECT_FALSE(absl::StrContains(listed.body, invite_code));

  // A wrong password: refused, nothing changes.
  const std::string join = absl::StrCat("/api/tables/", table_id, "/join");
  const Reply wrong = Call(port(), "POST", join, R"({"password":"not it"})", bob.cookie);
  EXPECT_EQ(wrong.status, 403) << wrong.body;
  EXPECT_EQ(StringAt(wrong.json, "error.code"), "PERMISSION_DENIED");
  EXPECT_FALSE(absl::StrContains(wrong.body, "not it"));
  const Reply unchanged =
      Call(port(), "GET", absl::StrCat("/api/tables/", table_id), "", alice.cookie);
  EXPECT_EQ(SeatPlayer(unchanged.json, 1), "");
  const Reply no_password = Call(port(), "POST", join, "", bob.cookie);
  EXPECT_EQ(no_password.status, 403) << no_password.body;

  const Reply joined =
      Call(port(), "POST", join, absl::StrCat(R"({"password":")", password, R"("})"), bob.cookie);
  ASSERT_EQ(joined.status, 200) << joined.body;
  EXPECT_EQ(SeatPlayer(joined.json, 0), alice.player_id);
  EXPECT_EQ(SeatPlayer(joined.json, 1), bob.player_id);
  EXPECT_EQ(StringAt(joined.json, "table.status"), "TABLE_STATUS_READY");

  // Carol, not seated, cannot start it; Alice does.
  const std::string start = absl::StrCat("/api/tables/", table_id, "/start");
  EXPECT_EQ(Call(port(), "POST", start, "", carol.cookie).status, 403);
  const Reply started = Call(port(), "POST", start, "{}", alice.cookie);
  ASSERT_EQ(started.status, 200) << started.body;
  EXPECT_EQ(StringAt(started.json, "table.status"), "TABLE_STATUS_PLAYING");
  const std::vector<std::string> alice_tokens = Tokens(started.json);
  ASSERT_EQ(alice_tokens.size(), 1u);

  // What each one reads of the table.
  const std::string view = absl::StrCat("/api/tables/", table_id);
  const Reply bob_view = Call(port(), "GET", view, "", bob.cookie);
  const std::vector<std::string> bob_tokens = Tokens(bob_view.json);
  ASSERT_EQ(bob_tokens.size(), 1u);
  EXPECT_NE(bob_tokens[0], alice_tokens[0]);
  const Reply carol_view = Call(port(), "GET", view, "", carol.cookie);
  ASSERT_EQ(carol_view.status, 200);
  EXPECT_TRUE(Tokens(carol_view.json).empty());
  EXPECT_EQ(StringAt(carol_view.json, "invitePath"), "");
  const Reply carol_list = Call(port(), "GET", "/api/tables?pageSize=100", "", carol.cookie);
  const Reply carol_invite =
      Call(port(), "GET", absl::StrCat("/api/tables/", table_id, "/invite"), "", carol.cookie);
  EXPECT_EQ(carol_invite.status, 403) << "only a seated player gets the invite link";

  for (const Reply* seen : {&listed, &wrong, &carol_view, &carol_list, &carol_invite}) {
    for (const std::string& secret :
         {password, SecretOf(alice), SecretOf(bob), alice_tokens[0], bob_tokens[0], invite_code}) {
      EXPECT_FALSE(absl::StrContains(seen->body, secret)) << seen->body;
      EXPECT_FALSE(absl::StrContains(seen->headers, secret));
    }
  }
  // Bob, seated too, may pass the invite link on; nothing of Alice's.
  for (const std::string& secret : {password, SecretOf(alice), alice_tokens[0]}) {
    EXPECT_FALSE(absl::StrContains(bob_view.body, secret)) << "Bob reads no secret of Alice's";
  }
  EXPECT_TRUE(absl::StrContains(bob_view.body, bob_tokens[0]));
}

TEST_F(LobbyRoutesTest, InviteLinkJoinsWithoutPasswordAndTheBrowserAddressRedirects) {
  const Player alice = NewGuest(port());
  const Player bob = NewGuest(port());
  const Reply created = Call(port(), "POST", "/api/tables",
                             R"({"variant":"english","password":"letmein"})", alice.cookie);
  ASSERT_EQ(created.status, 200) << created.body;
  const std::string table_id = StringAt(created.json, "table.tableId");
  const Reply invite =
      Call(port(), "GET", absl::StrCat("/api/tables/", table_id, "/invite"), "", alice.cookie);
  ASSERT_EQ(invite.status, 200) << invite.body;
  const std::string code = StringAt(invite.json, "inviteCode");
  EXPECT_EQ(StringAt(invite.json, "path"), absl::StrCat("/join/", code));
  EXPECT_EQ(StringAt(created.json, "invitePath"), absl::StrCat("/join/", code));

  const Reply page = Call(port(), "GET", absl::StrCat("/join/", code), "", "");
  EXPECT_EQ(page.status, 302);
  EXPECT_TRUE(absl::StrContains(page.headers, absl::StrCat("Location: /#/join/", code)))
      << page.headers;

  EXPECT_EQ(Call(port(), "POST", "/api/invites/NOSUCHCODE123/join", "", bob.cookie).status, 404);
  const Reply joined =
      Call(port(), "POST", absl::StrCat("/api/invites/", code, "/join"), "", bob.cookie);
  ASSERT_EQ(joined.status, 200) << joined.body;
  EXPECT_EQ(StringAt(joined.json, "table.tableId"), table_id);
  EXPECT_EQ(SeatPlayer(joined.json, 1), bob.player_id);

  // Bob leaves: the seat is open again.
  const Reply left =
      Call(port(), "POST", absl::StrCat("/api/tables/", table_id, "/leave"), "", bob.cookie);
  ASSERT_EQ(left.status, 200) << left.body;
  EXPECT_EQ(SeatPlayer(left.json, 1), "");
}

TEST_F(LobbyRoutesTest, BadInputIsRefusedClearlyAndChangesNothing) {
  const Player alice = NewGuest(port());
  const std::set<std::string> before = ListedTableIds(port(), alice, "");
  const std::string secret = "hunter2-secret";
  struct Case {
    std::string body;
    int status;
  };
  const std::vector<Case> cases = {
      {std::string(20000, 'x'), 413},
      {"{not json", 400},
      {absl::StrCat(R"({"variant":"international","password":")", secret, R"(" oops})"), 400},
      {R"({"variant":"international","options":{"noSuchOption":true}})", 400},
      {R"({"variant":"international","colour":"red"})", 400},
      {R"({"variant":"no-such-rules"})", 400},
      {R"({"options":{}})", 400},
      {R"({"variant":"international","options":{"mandatoryCapture":false}})", 400},
      {R"({"variant":"international","timePerMove":"7s"})", 400},
      {R"({"variant":"international","timePerMove":"-5s"})", 400},
      {R"({"variant":"international","rated":true})", 400},
      {absl::StrCat(R"({"variant":"international","password":")", std::string(65, 'p'), R"("})"),
       400},
      {R"(["variant"])", 400},
  };
  for (const Case& bad : cases) {
    const Reply reply = Call(port(), "POST", "/api/tables", bad.body, alice.cookie);
    EXPECT_EQ(reply.status, bad.status) << bad.body.substr(0, 80) << " -> " << reply.body;
    EXPECT_FALSE(StringAt(reply.json, "error.message").empty()) << reply.body;
    EXPECT_FALSE(absl::StrContains(reply.body, secret)) << "a password is never echoed";
    EXPECT_FALSE(absl::StrContains(reply.body, std::string(65, 'p')));
  }
  EXPECT_EQ(Call(port(), "GET", "/api/tables?timePerMove=soon", "", alice.cookie).status, 400);
  EXPECT_EQ(Call(port(), "GET", "/api/tables?pageSize=1000", "", alice.cookie).status, 400);
  EXPECT_EQ(Call(port(), "GET", "/api/tables?pageToken=garbage", "", alice.cookie).status, 400);
  EXPECT_EQ(Call(port(), "POST", "/api/tables", R"({"variant":"english"})", "").status, 401);
  EXPECT_EQ(
      Call(port(), "POST", "/api/tables/abc/bots", R"({"level":"BOT_LEVEL_SUPREME"})", alice.cookie)
          .status,
      400);
  EXPECT_EQ(Call(port(), "POST", "/api/play-computer", R"({"variant":"english","color":"PURPLE"})",
                 alice.cookie)
                .status,
            400);
  EXPECT_EQ(Call(port(), "GET", "/api/tables/bad$id", "", alice.cookie).status, 404);
  EXPECT_EQ(Call(port(), "DELETE", "/api/tables", "", alice.cookie).status, 405);
  EXPECT_EQ(ListedTableIds(port(), alice, ""), before) << "no table was made";
}

TEST_F(LobbyRoutesTest, IdempotencyKeyAnswersOnceAndRefusesAnotherRequest) {
  const Player alice = NewGuest(port());
  const HeaderList key = {{"Idempotency-Key", "lobby-create-1"}};
  const std::string body = R"({"variant":"frisian","password":"abc"})";
  const Reply first = Call(port(), "POST", "/api/tables", body, alice.cookie, key);
  ASSERT_EQ(first.status, 200) << first.body;
  const Reply again = Call(port(), "POST", "/api/tables", body, alice.cookie, key);
  ASSERT_EQ(again.status, 200) << again.body;
  EXPECT_EQ(StringAt(again.json, "table.tableId"), StringAt(first.json, "table.tableId"));
  EXPECT_TRUE(absl::StrContains(again.headers, "Idempotent-Replayed: true"));
  const Reply other =
      Call(port(), "POST", "/api/tables", R"({"variant":"russian"})", alice.cookie, key);
  EXPECT_EQ(other.status, 400) << other.body;
  EXPECT_EQ(
      Call(port(), "POST", "/api/tables", body, alice.cookie, {{"Idempotency-Key", "a b"}}).status,
      400);
}

TEST_F(LobbyRoutesTest, PlayTheComputerInOneStepAndFillSeatsWithBots) {
  const Player alice = NewGuest(port());
  const Reply played =
      Call(port(), "POST", "/api/play-computer",
           R"({"variant":"english","level":"BOT_LEVEL_HARD","color":"COLOR_BLACK"})", alice.cookie);
  ASSERT_EQ(played.status, 200) << played.body;
  EXPECT_EQ(StringAt(played.json, "table.status"), "TABLE_STATUS_PLAYING");
  EXPECT_TRUE(Field(played.json, "table.vsComputer")->bool_value());
  const google::protobuf::ListValue* tokens = ListAt(played.json, "yourTokens");
  ASSERT_TRUE(tokens != nullptr && tokens->values_size() == 1) << played.body;
  EXPECT_EQ(StringAt(tokens->values(0).struct_value(), "color"), "COLOR_BLACK");
  const std::string game_id = StringAt(played.json, "table.gameId");
  EXPECT_EQ(Call(port(), "GET", absl::StrCat("/api/games/", game_id), "", alice.cookie).status,
            200);
  EXPECT_EQ(SeatPlayer(played.json, 1), "SEAT_KIND_BOT");

  const Reply created =
      Call(port(), "POST", "/api/tables", R"({"variant":"brazilian"})", alice.cookie);
  ASSERT_EQ(created.status, 200) << created.body;
  const std::string table_id = StringAt(created.json, "table.tableId");
  const Player bob = NewGuest(port());
  const std::string bots = absl::StrCat("/api/tables/", table_id, "/bots");
  EXPECT_EQ(Call(port(), "POST", bots, R"({"level":"BOT_LEVEL_EASY"})", bob.cookie).status, 403)
      << "only the creator fills seats";
  const Reply filled = Call(port(), "POST", bots, R"({"level":"BOT_LEVEL_MEDIUM"})", alice.cookie);
  ASSERT_EQ(filled.status, 200) << filled.body;
  EXPECT_EQ(SeatPlayer(filled.json, 1), "SEAT_KIND_BOT");
  const Reply started =
      Call(port(), "POST", absl::StrCat("/api/tables/", table_id, "/start"), "", alice.cookie);
  ASSERT_EQ(started.status, 200) << started.body;
  EXPECT_EQ(StringAt(started.json, "table.status"), "TABLE_STATUS_PLAYING");
}

TEST_F(LobbyRoutesTest, QuickPairingSeatsTwoGuestsAndTheWaiterLearnsWhere) {
  const Player alice = NewGuest(port());
  const Player bob = NewGuest(port());
  const std::string body = R"({"variant":"turkish"})";
  const Reply waiting = Call(port(), "POST", "/api/quick-pair", body, alice.cookie);
  ASSERT_EQ(waiting.status, 200) << waiting.body;
  ASSERT_TRUE(Field(waiting.json, "waiting")->bool_value()) << waiting.body;
  const std::string waiting_table = StringAt(waiting.json, "table.tableId");
  const std::string pairing = absl::StrCat("/api/tables/", waiting_table, "/pairing");
  EXPECT_TRUE(Field(Call(port(), "GET", pairing, "", alice.cookie).json, "waiting")->bool_value());

  const Reply paired = Call(port(), "POST", "/api/quick-pair", body, bob.cookie);
  ASSERT_EQ(paired.status, 200) << paired.body;
  EXPECT_FALSE(Field(paired.json, "waiting")->bool_value()) << paired.body;
  EXPECT_EQ(StringAt(paired.json, "table.status"), "TABLE_STATUS_PLAYING");
  const std::string table_id = StringAt(paired.json, "table.tableId");

  // Alice learns where she plays, with her own token.
  Reply outcome;
  const absl::Time deadline = absl::Now() + absl::Seconds(20);
  do {
    outcome = Call(port(), "GET", pairing, "", alice.cookie);
    if (outcome.status == 200 && !Field(outcome.json, "waiting")->bool_value()) break;
    absl::SleepFor(absl::Milliseconds(100));
  } while (absl::Now() < deadline);
  ASSERT_EQ(outcome.status, 200) << outcome.body;
  EXPECT_FALSE(Field(outcome.json, "waiting")->bool_value());
  EXPECT_EQ(StringAt(outcome.json, "table.tableId"), table_id);
  const std::vector<std::string> alice_tokens = Tokens(outcome.json);
  const std::vector<std::string> bob_tokens = Tokens(paired.json);
  ASSERT_EQ(alice_tokens.size(), 1u);
  ASSERT_EQ(bob_tokens.size(), 1u);
  EXPECT_NE(alice_tokens[0], bob_tokens[0]);
  EXPECT_FALSE(absl::StrContains(outcome.body, bob_tokens[0]));
  EXPECT_FALSE(absl::StrContains(paired.body, alice_tokens[0]));
}

TEST_F(LobbyRoutesTest, ActionsPerSecondAreLimitedPerSession) {
  auto limited = ServerProcess::Start(
      GATEWAY_BINARY, GatewayFlags({"--lobby-action-burst=3", "--lobby-actions-per-second=1"}));
  ASSERT_TRUE(limited.ok()) << limited.status();
  const int limited_port = (*limited)->port();
  const Player alice = NewGuest(limited_port);
  const Player bob = NewGuest(limited_port);
  const Reply created =
      Call(limited_port, "POST", "/api/tables", R"({"variant":"english"})", alice.cookie);
  ASSERT_EQ(created.status, 200) << created.body;
  const std::string leave =
      absl::StrCat("/api/tables/", StringAt(created.json, "table.tableId"), "/leave");
  // Bob is not seated: leaving is a no-op that still counts as an action.
  int refused = 0;
  std::string retry_after;
  for (int i = 0; i < 8; ++i) {
    const Reply reply = Call(limited_port, "POST", leave, "", bob.cookie);
    if (reply.status == 429) {
      ++refused;
      EXPECT_EQ(StringAt(reply.json, "error.code"), "RESOURCE_EXHAUSTED");
      retry_after = reply.headers;
    } else {
      EXPECT_EQ(reply.status, 200) << reply.body;
    }
  }
  EXPECT_GE(refused, 4) << "a burst of 3, then about one a second";
  EXPECT_TRUE(absl::StrContains(retry_after, "Retry-After: ")) << retry_after;
  // Bad input costs nothing, and another session has its own bucket.
  EXPECT_EQ(Call(limited_port, "POST", "/api/tables", "{bad", bob.cookie).status, 400);
  EXPECT_EQ(Call(limited_port, "POST", leave, "", alice.cookie).status, 200);
  // Reads are not actions.
  EXPECT_EQ(Call(limited_port, "GET", "/api/tables", "", bob.cookie).status, 200);
}

}  // namespace
}  // namespace draughts::gateway::testing
