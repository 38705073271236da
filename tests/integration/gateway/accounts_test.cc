// Accounts through the gateway over real PostgreSQL (DRAUGHTS_TEST_PG) and
// Redis (DRAUGHTS_TEST_REDIS): register, log in, log out, change password,
// delete, the login limits, a guest registering in the middle of a game,
// the database being down, and a scan of every response, log line and
// metric label for the passwords and their hashes.
#include <gtest/gtest.h>

#include <memory>
#include <pqxx/pqxx>
#include <string>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "gateway/proto_json.h"
#include "gateway_env.h"
#include "platform/logging.h"
#include "platform/testing/server_process.h"
#include "platform/testing/test_env.h"
#include "test_client.h"

namespace draughts::gateway::testing {
namespace {

// Every log line of this process (the gateway runs in it).
class LogCapture {
 public:
  LogCapture() {
    platform::InitLogging("accounts-it", platform::LogLevel::kDebug);
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

// A name no other run uses (names are unique across the shared database).
std::string UniqueName(const std::string& stem) {
  std::string random = NewSessionId().substr(0, 10);
  for (char& c : random) {
    if (c == '-' || c == '_') c = 'x';
  }
  return absl::StrCat(stem, random).substr(0, 20);
}

std::string Credentials(const std::string& name, const std::string& password) {
  return absl::StrCat(R"({"name":")", name, R"(","password":")", password, R"("})");
}

// "draughts_session=<id>" from a Set-Cookie value, "" if none.
std::string CookieOf(const HttpReply& reply) {
  if (!absl::StartsWith(reply.set_cookie, "draughts_session=")) return "";
  return reply.set_cookie.substr(0, reply.set_cookie.find(';'));
}

std::string Header(const HttpReply& reply, const std::string& name) {
  const std::string needle = absl::StrCat("\n", name, ": ");
  const std::string headers = absl::StrCat("\n", reply.headers);
  const std::size_t at = headers.find(needle);
  if (at == std::string::npos) return "";
  const std::size_t start = at + needle.size();
  return headers.substr(start, headers.find('\r', start) - start);
}

class AccountsTest : public ::testing::Test {
 protected:
  void SetUp() override { Start({3, 1000, absl::Minutes(10)}); }

  void Start(LoginLimits limits) {
    env_ = std::make_unique<GatewayEnv>();
    env_->EnableAccounts(limits);
    absl::Status started = env_->Start();
    ASSERT_TRUE(started.ok()) << started;
  }

  // Every reply is kept, for the secrets scan.
  HttpReply Call(const std::string& method, const std::string& target, const std::string& body = "",
                 const std::string& cookie = "", const HeaderList& headers = {}, int port = 0) {
    absl::StatusOr<HttpReply> reply =
        HttpCall(port == 0 ? env_->port() : port, method, target, body, cookie, headers);
    EXPECT_TRUE(reply.ok()) << reply.status();
    if (!reply.ok()) return {};
    absl::StrAppend(&received_, reply->status, "\n", reply->headers, "\n", reply->body, "\n");
    return *std::move(reply);
  }

  std::string Guest() {
    HttpReply reply = Call("POST", "/api/session");
    EXPECT_EQ(reply.status, 200) << reply.body;
    return CookieOf(reply);
  }

  google::protobuf::Struct SessionOf(const std::string& cookie, int* status = nullptr) {
    HttpReply reply = Call("GET", "/api/session", "", cookie);
    if (status != nullptr) *status = reply.status;
    return reply.status == 200 ? ParseJsonObject(reply.body).value() : google::protobuf::Struct();
  }

  int SessionStatus(const std::string& cookie) {
    int status = 0;
    SessionOf(cookie, &status);
    return status;
  }

  HttpReply Register(const std::string& name, const std::string& password,
                     const std::string& cookie = "") {
    return Call("POST", "/api/accounts", Credentials(name, password), cookie);
  }

  HttpReply Login(const std::string& name, const std::string& password, int port = 0) {
    return Call("POST", "/api/login", Credentials(name, password), "", {}, port);
  }

  std::unique_ptr<GatewayEnv> env_;
  std::string received_;
};

TEST_F(AccountsTest, RegisterLogInLogOut) {
  const std::string guest = Guest();
  const std::string guest_id = StringAt(SessionOf(guest), "playerId");
  const std::string name = UniqueName("Reg");
  HttpReply registered = Register(name, "first password", guest);
  ASSERT_EQ(registered.status, 200) << registered.body;
  const google::protobuf::Struct body = ParseJsonObject(registered.body).value();
  EXPECT_EQ(StringAt(body, "kind"), "person");
  EXPECT_EQ(StringAt(body, "displayName"), name);
  EXPECT_EQ(StringAt(body, "playerId"), guest_id) << "the account keeps the guest's public id";
  EXPECT_TRUE(absl::StrContains(registered.set_cookie, "HttpOnly")) << registered.set_cookie;
  EXPECT_TRUE(absl::StrContains(registered.set_cookie, "SameSite=Lax")) << registered.set_cookie;
  const std::string cookie = CookieOf(registered);
  ASSERT_FALSE(cookie.empty());
  EXPECT_NE(cookie, guest) << "registering must issue a new session id";
  EXPECT_EQ(SessionStatus(guest), 401) << "the guest session is replaced";
  EXPECT_EQ(StringAt(SessionOf(cookie), "kind"), "person");
  EXPECT_EQ(StringAt(SessionOf(cookie), "displayName"), name);

  // Registering again while logged in is refused.
  EXPECT_EQ(Register(UniqueName("Two"), "first password", cookie).status, 409);

  HttpReply out = Call("POST", "/api/logout", "", cookie);
  EXPECT_EQ(out.status, 200) << out.body;
  EXPECT_TRUE(absl::StrContains(out.set_cookie, "Max-Age=0")) << out.set_cookie;
  EXPECT_EQ(SessionStatus(cookie), 401) << "the old cookie must be refused after logout";
  EXPECT_EQ(
      Call("POST", "/api/games", R"({"variant":"international","mode":"hotseat"})", cookie).status,
      401);

  HttpReply in = Login(absl::AsciiStrToUpper(name), "first password");
  ASSERT_EQ(in.status, 200) << in.body;
  const std::string again = CookieOf(in);
  EXPECT_NE(again, cookie);
  EXPECT_EQ(StringAt(SessionOf(again), "playerId"), guest_id);
  EXPECT_EQ(StringAt(SessionOf(again), "displayName"), name) << "the name as registered";
}

TEST_F(AccountsTest, NamesAreUniqueIgnoringCase) {
  const std::string name = UniqueName("Case");
  ASSERT_EQ(Register(name, "a password").status, 200);
  HttpReply other = Register(absl::AsciiStrToLower(name), "b password");
  EXPECT_EQ(other.status, 409) << other.body;
  EXPECT_TRUE(absl::StrContains(other.body, "ALREADY_EXISTS")) << other.body;
  EXPECT_EQ(Register(absl::AsciiStrToUpper(name), "b password").status, 409);
  // Bad names and passwords are refused before anything is stored.
  EXPECT_EQ(Register("ab", "a password").status, 400);
  EXPECT_EQ(Register("Guest-1234", "a password").status, 400);
  EXPECT_EQ(Register(UniqueName("Short"), "short").status, 400);
  EXPECT_EQ(Call("POST", "/api/accounts", "not json").status, 400);
}

TEST_F(AccountsTest, WrongPasswordAndUnknownNameGetTheSameAnswer) {
  const std::string name = UniqueName("Same");
  ASSERT_EQ(Register(name, "right password").status, 200);
  HttpReply wrong_password = Login(name, "wrong password");
  HttpReply unknown_name = Login(UniqueName("Nobody"), "wrong password");
  HttpReply impossible_name = Login("x", "wrong password");
  EXPECT_EQ(wrong_password.status, 401);
  EXPECT_EQ(unknown_name.status, wrong_password.status);
  EXPECT_EQ(unknown_name.body, wrong_password.body);
  EXPECT_EQ(impossible_name.body, wrong_password.body);
  EXPECT_TRUE(absl::StrContains(wrong_password.body, "wrong name or password"))
      << wrong_password.body;
  EXPECT_TRUE(wrong_password.set_cookie.empty());
}

TEST_F(AccountsTest, AttemptsAreLimitedPerName) {
  const std::string name = UniqueName("Lim");
  const std::string other = UniqueName("Oth");
  ASSERT_EQ(Register(name, "right password").status, 200);
  ASSERT_EQ(Register(other, "right password").status, 200);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(Login(name, "wrong password").status, 401) << i;
  HttpReply limited = Login(name, "wrong password");
  EXPECT_EQ(limited.status, 429) << limited.body;
  EXPECT_TRUE(absl::StrContains(limited.body, "RESOURCE_EXHAUSTED")) << limited.body;
  const std::string retry_after = Header(limited, "Retry-After");
  ASSERT_FALSE(retry_after.empty()) << limited.headers;
  EXPECT_GT(std::stoi(retry_after), 0);
  EXPECT_LE(std::stoi(retry_after), 600);
  // Even the right password waits: the limit is checked first.
  EXPECT_EQ(Login(absl::AsciiStrToUpper(name), "right password").status, 429);
  // Another name from the same address is not held up.
  EXPECT_EQ(Login(other, "right password").status, 200);
  // Successes do not use the allowance up.
  for (int i = 0; i < 4; ++i) EXPECT_EQ(Login(other, "right password").status, 200) << i;
}

TEST_F(AccountsTest, AttemptsAreLimitedPerAddress) {
  Start({100, 4, absl::Minutes(10)});
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(Login(UniqueName(absl::StrCat("Addr", i)), "wrong password").status, 401) << i;
  }
  HttpReply limited = Login(UniqueName("Addr5"), "wrong password");
  EXPECT_EQ(limited.status, 429) << limited.body;
  EXPECT_FALSE(Header(limited, "Retry-After").empty()) << limited.headers;
  EXPECT_EQ(Register(UniqueName("Addr6"), "a password").status, 429)
      << "registering shares the address allowance";
}

TEST_F(AccountsTest, ChangingThePasswordRevokesEverySession) {
  const std::string name = UniqueName("Chg");
  HttpReply registered = Register(name, "old password");
  ASSERT_EQ(registered.status, 200);
  const std::string first = CookieOf(registered);
  HttpReply elsewhere = Login(name, "old password");
  ASSERT_EQ(elsewhere.status, 200);
  const std::string second = CookieOf(elsewhere);
  ASSERT_EQ(SessionStatus(second), 200);

  EXPECT_EQ(Call("POST", "/api/account/password",
                 R"({"currentPassword":"not it at all","newPassword":"new password"})", first)
                .status,
            403);
  EXPECT_EQ(SessionStatus(second), 200) << "a refused change revokes nothing";
  HttpReply changed =
      Call("POST", "/api/account/password",
           R"({"currentPassword":"old password","newPassword":"new password"})", first);
  ASSERT_EQ(changed.status, 200) << changed.body;
  const std::string renewed = CookieOf(changed);
  ASSERT_FALSE(renewed.empty());
  EXPECT_EQ(SessionStatus(second), 401) << "the other browser is logged out";
  EXPECT_EQ(SessionStatus(first), 401) << "the session that changed it is replaced";
  EXPECT_EQ(SessionStatus(renewed), 200);
  EXPECT_EQ(Login(name, "old password").status, 401);
  EXPECT_EQ(Login(name, "new password").status, 200);
  // Guests have no password to change.
  EXPECT_EQ(Call("POST", "/api/account/password",
                 R"({"currentPassword":"old password","newPassword":"new password"})", Guest())
                .status,
            401);
}

TEST_F(AccountsTest, DeletingAnAccountAnonymisesItAndFreesTheName) {
  const std::string name = UniqueName("Del");
  HttpReply registered = Register(name, "doomed password");
  ASSERT_EQ(registered.status, 200);
  const std::string cookie = CookieOf(registered);
  const std::string public_id = StringAt(ParseJsonObject(registered.body).value(), "playerId");
  HttpReply other_browser = Login(name, "doomed password");
  ASSERT_EQ(other_browser.status, 200);

  EXPECT_EQ(Call("DELETE", "/api/account", R"({"password":"wrong password"})", cookie).status, 403);
  HttpReply deleted = Call("DELETE", "/api/account", R"({"password":"doomed password"})", cookie);
  ASSERT_EQ(deleted.status, 200) << deleted.body;
  EXPECT_TRUE(absl::StrContains(deleted.set_cookie, "Max-Age=0"));
  EXPECT_EQ(SessionStatus(cookie), 401);
  EXPECT_EQ(SessionStatus(CookieOf(other_browser)), 401);
  HttpReply login = Login(name, "doomed password");
  EXPECT_EQ(login.status, 401);
  EXPECT_EQ(login.body, Login(UniqueName("Nobody"), "doomed password").body);

  // The row stays with its public id (games keep naming one player), with
  // neither name nor hash.
  pqxx::connection db(platform::testing::RequiredTestEnv("DRAUGHTS_TEST_PG").value());
  pqxx::work tx(db);
  const pqxx::result rows = tx.exec_params(
      "SELECT name IS NULL, password_hash IS NULL, deleted_at IS NOT NULL FROM accounts "
      "WHERE public_id = $1",
      public_id);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_TRUE(rows[0][0].as<bool>());
  EXPECT_TRUE(rows[0][1].as<bool>());
  EXPECT_TRUE(rows[0][2].as<bool>());
  // The name is free again, for a new account with another public id.
  HttpReply reborn = Register(name, "another password");
  ASSERT_EQ(reborn.status, 200) << reborn.body;
  EXPECT_NE(StringAt(ParseJsonObject(reborn.body).value(), "playerId"), public_id);
}

TEST_F(AccountsTest, AGuestWhoRegistersMidGameKeepsPlayingTheSameSeat) {
  const std::string guest = Guest();
  const std::string guest_id = StringAt(SessionOf(guest), "playerId");
  HttpReply created =
      Call("POST", "/api/games", R"({"variant":"international","mode":"hotseat"})", guest);
  ASSERT_EQ(created.status, 200) << created.body;
  const google::protobuf::Struct game = ParseJsonObject(created.body).value();
  const std::string game_id = StringAt(game, "gameId");
  const std::string white = StringAt(game, "seats.white");
  const std::string black = StringAt(game, "seats.black");
  EXPECT_EQ(StringAt(game, "game.white.seat.kind"), "SEAT_KIND_GUEST");

  const auto play = [&](const std::string& cookie, const std::string& token, int ply,
                        const std::string& request_id) {
    WsClient ws;
    ASSERT_TRUE(ws.Connect(env_->port(), absl::StrCat("/ws/games/", game_id), cookie).ok());
    absl::StatusOr<google::protobuf::Struct> snapshot = ws.ReadJson();
    ASSERT_TRUE(snapshot.ok()) << snapshot.status();
    ASSERT_EQ(StringAt(*snapshot, "type"), "snapshot");
    EXPECT_EQ(NumberAt(*snapshot, "game.ply"), ply);
    EXPECT_EQ(StringAt(*snapshot, "game.white.seat.playerId"), guest_id);
    const google::protobuf::Value* moves = Field(*snapshot, "legalMoves");
    ASSERT_NE(moves, nullptr);
    const std::string move = StringAt(moves->list_value().values(0).struct_value(), "notation");
    ASSERT_TRUE(
        ws.Send(absl::StrCat(R"({"requestId":")", request_id, R"(","action":"move","token":")",
                             token, R"(","expectedPly":)", ply, R"(,"move":")", move, R"("})"))
            .ok());
    for (;;) {
      absl::StatusOr<google::protobuf::Struct> frame = ws.ReadJson();
      ASSERT_TRUE(frame.ok()) << frame.status();
      ASSERT_NE(StringAt(*frame, "type"), "error") << StringAt(*frame, "error.message");
      if (StringAt(*frame, "type") == "ack") {
        EXPECT_EQ(StringAt(*frame, "requestId"), request_id);
        break;
      }
    }
  };
  play(guest, white, 0, "as-guest");

  HttpReply registered = Register(UniqueName("Mid"), "mid-game password", guest);
  ASSERT_EQ(registered.status, 200) << registered.body;
  const std::string person = CookieOf(registered);
  EXPECT_EQ(StringAt(ParseJsonObject(registered.body).value(), "playerId"), guest_id);
  // The same seat, with the same token, through the new session.
  play(person, black, 1, "as-person");
  HttpReply view = Call("GET", absl::StrCat("/api/games/", game_id), "", person);
  ASSERT_EQ(view.status, 200) << view.body;
  EXPECT_EQ(NumberAt(ParseJsonObject(view.body).value(), "game.ply"), 2);

  // A game the person starts now seats a PERSON under the same public id.
  HttpReply next =
      Call("POST", "/api/games", R"({"variant":"international","mode":"hotseat"})", person);
  ASSERT_EQ(next.status, 200) << next.body;
  const google::protobuf::Struct next_game = ParseJsonObject(next.body).value();
  EXPECT_EQ(StringAt(next_game, "game.white.seat.kind"), "SEAT_KIND_PERSON");
  EXPECT_EQ(StringAt(next_game, "game.white.seat.playerId"), guest_id);
}

TEST_F(AccountsTest, CrossOriginPostsAreRefused) {
  const std::string name = UniqueName("Orig");
  ASSERT_EQ(Register(name, "a password").status, 200);
  HttpReply evil = Call("POST", "/api/login", Credentials(name, "a password"), "",
                        {{"Origin", "https://evil.example"}});
  EXPECT_EQ(evil.status, 403) << evil.body;
  EXPECT_TRUE(evil.set_cookie.empty());
  HttpReply same = Call("POST", "/api/login", Credentials(name, "a password"), "",
                        {{"Origin", "http://127.0.0.1"}});  // the test client's Host
  EXPECT_EQ(same.status, 200) << same.body;
}

TEST_F(AccountsTest, GuestsPlayOnWhileTheDatabaseIsDown) {
  platform::PgPoolOptions down;
  down.conninfo = "host=127.0.0.1 port=1 dbname=draughts_test connect_timeout=2";
  PgAccountStore store(down, absl::Seconds(60));
  absl::Status started;
  std::unique_ptr<GatewayServer> gateway =
      env_->NewGatewayWithAccounts(&store, {1, 8 << 10}, &started);
  ASSERT_TRUE(started.ok()) << started;
  const int port = gateway->port();
  HttpReply refused =
      Call("POST", "/api/accounts", Credentials(UniqueName("Down"), "a password"), "", {}, port);
  EXPECT_EQ(refused.status, 503) << refused.body;
  EXPECT_EQ(Login(UniqueName("Down"), "a password", port).status, 503);
  HttpReply guest = Call("POST", "/api/session", "", "", {}, port);
  ASSERT_EQ(guest.status, 200);
  HttpReply game = Call("POST", "/api/games", R"({"variant":"international","mode":"hotseat"})",
                        CookieOf(guest), {}, port);
  EXPECT_EQ(game.status, 200) << game.body;
  HttpReply health = Call("GET", "/healthz", "", "", {}, port);
  EXPECT_EQ(health.status, 200) << health.body;
  EXPECT_TRUE(absl::StrContains(health.body, R"("accounts":"unavailable")")) << health.body;
  EXPECT_TRUE(absl::StrContains(Call("GET", "/healthz").body, R"("accounts":"ok")"));
}

TEST_F(AccountsTest, NewWorkFactorsRehashAtLogin) {
  const std::string name = UniqueName("Hash");
  ASSERT_EQ(Register(name, "rehash password").status, 200);
  const std::string before = env_->account_store()->FindByName(name).value()->password_hash;
  absl::Status started;
  std::unique_ptr<GatewayServer> stronger =
      env_->NewGatewayWithAccounts(env_->account_store(), {2, 16 << 10}, &started);
  ASSERT_TRUE(started.ok()) << started;
  EXPECT_EQ(Login(name, "rehash password", stronger->port()).status, 200);
  const std::string after = env_->account_store()->FindByName(name).value()->password_hash;
  EXPECT_NE(after, before);
  EXPECT_TRUE(absl::StrContains(after, "m=16,t=2")) << "argon2id parameters in the hash";
  EXPECT_EQ(Login(name, "rehash password").status, 200) << "the old factors still verify it";
}

// The gateway binary itself: its --pg and account flags, next to the
// in-process replica on the same Redis and PostgreSQL.
TEST_F(AccountsTest, TheBinaryServesAccountsAndGuestsWithoutTheDatabase) {
  const std::string redis = platform::testing::RequiredTestEnv("DRAUGHTS_TEST_REDIS").value();
  const std::string pg = platform::testing::RequiredTestEnv("DRAUGHTS_TEST_PG").value();
  const std::vector<std::string> common = {
      absl::StrCat("--redis=", redis),
      absl::StrCat("--game-state=127.0.0.1:", env_->game_state_port()),
      absl::StrCat("--session-key-prefix=", env_->prefix()),
      absl::StrCat("--web-root=", env_->web_root().string()),
      "--metrics-port=-1",
      "--password-opslimit=1",
      "--password-memlimit-kib=8",
      "--login-limit-per-name=2"};
  std::vector<std::string> with_pg = common;
  with_pg.push_back(absl::StrCat("--pg=", pg));
  absl::StatusOr<std::unique_ptr<platform::testing::ServerProcess>> gateway =
      platform::testing::ServerProcess::Start(GATEWAY_BINARY, with_pg);
  ASSERT_TRUE(gateway.ok()) << gateway.status();
  const int port = (*gateway)->port();
  const std::string name = UniqueName("Bin");
  HttpReply registered =
      Call("POST", "/api/accounts", Credentials(name, "binary password"), "", {}, port);
  ASSERT_EQ(registered.status, 200) << registered.body;
  // The in-process replica knows the session and the account.
  EXPECT_EQ(StringAt(SessionOf(CookieOf(registered)), "displayName"), name);
  EXPECT_EQ(Login(name, "binary password").status, 200);
  EXPECT_EQ(Login(name, "wrong password", port).status, 401);
  EXPECT_EQ(Login(name, "wrong password", port).status, 401);
  EXPECT_EQ(Login(name, "wrong password", port).status, 429);
  EXPECT_TRUE(
      absl::StrContains(Call("GET", "/healthz", "", "", {}, port).body, R"("accounts":"ok")"));
  EXPECT_EQ((*gateway)->Terminate().value_or(-1), 0);

  std::vector<std::string> pg_down = common;
  pg_down.push_back("--pg=host=127.0.0.1 port=1 dbname=draughts_test connect_timeout=2");
  absl::StatusOr<std::unique_ptr<platform::testing::ServerProcess>> degraded =
      platform::testing::ServerProcess::Start(GATEWAY_BINARY, pg_down);
  ASSERT_TRUE(degraded.ok()) << degraded.status() << ": it must start with the database down";
  const int degraded_port = (*degraded)->port();
  EXPECT_EQ(Login(UniqueName("Down"), "binary password", degraded_port).status, 503);
  HttpReply guest = Call("POST", "/api/session", "", "", {}, degraded_port);
  ASSERT_EQ(guest.status, 200);
  EXPECT_EQ(Call("POST", "/api/games", R"({"variant":"international","mode":"hotseat"})",
                 CookieOf(guest), {}, degraded_port)
                .status,
            200);
  EXPECT_EQ(Call("GET", "/healthz", "", "", {}, degraded_port).status, 200);
}

// No password or hash reaches any response, log line or metric label.
TEST(AccountSecretsTest, PasswordsAndHashesAppearNowhere) {
  LogCapture logs;
  GatewayEnv env;
  env.EnableAccounts({10, 1000, absl::Minutes(10)});
  ASSERT_TRUE(env.Start().ok());
  std::string received;
  const auto call = [&](const std::string& method, const std::string& target,
                        const std::string& body, const std::string& cookie) {
    absl::StatusOr<HttpReply> reply = HttpCall(env.port(), method, target, body, cookie);
    EXPECT_TRUE(reply.ok()) << reply.status();
    if (!reply.ok()) return HttpReply();
    absl::StrAppend(&received, reply->status, "\n", reply->headers, "\n", reply->body, "\n");
    return *reply;
  };
  const std::string name = UniqueName("Sec");
  const std::string first = "Pa55-first-SECRET";
  const std::string second = "Pa55-second-SECRET";
  const std::string typo = "Pa55-typo-SECRET";
  HttpReply registered = call("POST", "/api/accounts", Credentials(name, first), "");
  ASSERT_EQ(registered.status, 200);
  const std::string first_hash = env.account_store()->FindByName(name).value()->password_hash;
  call("POST", "/api/login", Credentials(name, typo), "");
  call("POST", "/api/login", Credentials(UniqueName("Nobody"), typo), "");
  // A password typed into the name box.
  call("POST", "/api/login", Credentials(typo, first), "");
  HttpReply in = call("POST", "/api/login", Credentials(name, first), "");
  ASSERT_EQ(in.status, 200);
  call("GET", "/api/session", "", CookieOf(in));
  HttpReply changed =
      call("POST", "/api/account/password",
           absl::StrCat(R"({"currentPassword":")", first, R"(","newPassword":")", second, R"("})"),
           CookieOf(in));
  ASSERT_EQ(changed.status, 200);
  const std::string second_hash = env.account_store()->FindByName(name).value()->password_hash;
  call("POST", "/api/account/password",
       absl::StrCat(R"({"currentPassword":")", typo, R"(","newPassword":")", first, R"("})"),
       CookieOf(changed));
  call("DELETE", "/api/account", absl::StrCat(R"({"password":")", typo, R"("})"),
       CookieOf(changed));
  ASSERT_EQ(call("DELETE", "/api/account", absl::StrCat(R"({"password":")", second, R"("})"),
                 CookieOf(changed))
                .status,
            200);
  call("GET", "/healthz", "", "");

  std::string labels;
  for (const auto& family : env.registry().Collect()) {
    for (const auto& metric : family.metric) {
      for (const auto& label : metric.label) absl::StrAppend(&labels, label.value, "\n");
    }
  }
  const std::string log_text = logs.Text();
  ASSERT_TRUE(absl::StrContains(log_text, "account registered")) << "the capture works";
  for (const auto& [what, value] :
       std::vector<std::pair<std::string, std::string>>{{"the first password", first},
                                                        {"the second password", second},
                                                        {"a mistyped password", typo},
                                                        {"the first hash", first_hash},
                                                        {"the second hash", second_hash},
                                                        {"an argon2 hash", "$argon2id$"}}) {
    EXPECT_FALSE(absl::StrContains(received, value)) << "a response shows " << what;
    EXPECT_FALSE(absl::StrContains(log_text, value)) << "the log shows " << what;
    EXPECT_FALSE(absl::StrContains(labels, value)) << "a metric shows " << what;
  }
}

}  // namespace
}  // namespace draughts::gateway::testing
