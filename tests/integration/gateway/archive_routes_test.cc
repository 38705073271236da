// GET /api/games/{id}/pdn and /api/games/{id}/archive end to end, on real
// servers: the gateway and GameService (in-process, over the test Redis) and
// the rating binary as a child process, archiving from the game's results
// stream into a PostgreSQL schema of its own (DRAUGHTS_TEST_PG).
#include <gtest/gtest.h>
#include <unistd.h>

#include <pqxx/pqxx>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "gateway/proto_json.h"
#include "gateway_env.h"
#include "platform/testing/server_process.h"
#include "platform/testing/test_env.h"
#include "test_client.h"

namespace draughts::gateway::testing {
namespace {

class ArchiveRoutesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    absl::StatusOr<std::string> pg = platform::testing::RequiredTestEnv("DRAUGHTS_TEST_PG");
    ASSERT_TRUE(pg.ok()) << pg.status().message();
    absl::StatusOr<std::string> redis = platform::testing::RequiredTestEnv("DRAUGHTS_TEST_REDIS");
    ASSERT_TRUE(redis.ok()) << redis.status().message();
    admin_conninfo_ = *pg;
    std::random_device random;
    schema_ = absl::StrCat("gw_archive_", getpid(), "_", random() % 1000000);
    ASSERT_TRUE(Admin(absl::StrCat("CREATE SCHEMA ", schema_)));

    absl::StatusOr<int> rating_port = platform::testing::PickFreePort();
    ASSERT_TRUE(rating_port.ok()) << rating_port.status();
    const std::string rating_address = absl::StrCat("127.0.0.1:", *rating_port);
    env_.set_rating_address(rating_address);
    const absl::Status started = env_.Start();
    ASSERT_TRUE(started.ok()) << started;
    absl::StatusOr<std::unique_ptr<platform::testing::ServerProcess>> rating =
        platform::testing::ServerProcess::Start(
            RATING_BINARY,
            {
                "--listen=" + rating_address,
                "--metrics-port=-1",
                "--drain=0s",
                "--redis=" + *redis,
                absl::StrCat("--pg=", admin_conninfo_, " options='-c search_path=", schema_, "'"),
                "--results-stream=" + env_.results_stream(),
                "--consumer-name=gateway-test",
            });
    ASSERT_TRUE(rating.ok()) << rating.status();
    rating_ = *std::move(rating);
  }

  void TearDown() override {
    if (rating_ != nullptr) {
      absl::StatusOr<int> code = rating_->Terminate();
      EXPECT_TRUE(code.ok() && *code == 0) << "rating did not stop cleanly";
    }
    if (!schema_.empty()) Admin(absl::StrCat("DROP SCHEMA IF EXISTS ", schema_, " CASCADE"));
  }

  bool Admin(const std::string& sql) {
    try {
      pqxx::connection connection(admin_conninfo_);
      pqxx::nontransaction tx(connection);
      tx.exec(sql);
      return true;
    } catch (const std::exception& e) {
      ADD_FAILURE() << "admin SQL failed: " << sql << ": " << e.what();
      return false;
    }
  }

  HttpReply Get(const std::string& target) {
    absl::StatusOr<HttpReply> reply = HttpCall(env_.port(), "GET", target);
    EXPECT_TRUE(reply.ok()) << reply.status();
    return reply.ok() ? *reply : HttpReply{};
  }

  GatewayEnv env_;
  std::string admin_conninfo_;
  std::string schema_;
  std::unique_ptr<platform::testing::ServerProcess> rating_;
};

std::string ErrorCode(const HttpReply& reply) {
  absl::StatusOr<google::protobuf::Struct> body = ParseJsonObject(reply.body);
  return body.ok() ? StringAt(*body, "error.code") : "";
}

std::string FirstLegalMove(const google::protobuf::Struct& snapshot) {
  const google::protobuf::Value* moves = Field(snapshot, "legalMoves");
  if (moves == nullptr || moves->list_value().values_size() == 0) return "";
  return StringAt(moves->list_value().values(0).struct_value(), "notation");
}

// The next snapshot frame at `ply` (events and acks in between skipped).
absl::StatusOr<google::protobuf::Struct> SnapshotAt(WsClient& ws, int ply) {
  while (true) {
    absl::StatusOr<google::protobuf::Struct> frame = ws.ReadJson();
    if (!frame.ok()) return frame.status();
    if (StringAt(*frame, "type") == "error") {
      return absl::InternalError(StringAt(*frame, "error.message"));
    }
    if (StringAt(*frame, "type") == "snapshot" && NumberAt(*frame, "game.ply") == ply) {
      return frame;
    }
  }
}

TEST_F(ArchiveRoutesTest, FinishedGameIsExportedAsPdnAndPlayingOneIsNotFound) {
  // A hotseat game through the gateway: a guest session plays both seats.
  absl::StatusOr<HttpReply> session = HttpCall(env_.port(), "POST", "/api/session");
  ASSERT_TRUE(session.ok()) << session.status();
  const std::string cookie = session->set_cookie.substr(0, session->set_cookie.find(';'));
  const std::string guest_name = StringAt(ParseJsonObject(session->body).value(), "guestName");
  ASSERT_FALSE(guest_name.empty());
  absl::StatusOr<HttpReply> created = HttpCall(
      env_.port(), "POST", "/api/games", R"({"variant":"international","mode":"hotseat"})", cookie);
  ASSERT_TRUE(created.ok()) << created.status();
  ASSERT_EQ(created->status, 200) << created->body;
  const google::protobuf::Struct game = ParseJsonObject(created->body).value();
  const std::string game_id = StringAt(game, "gameId");
  const std::string white = StringAt(game, "seats.white");
  const std::string black = StringAt(game, "seats.black");

  WsClient ws;
  ASSERT_TRUE(ws.Connect(env_.port(), "/ws/games/" + game_id, cookie).ok());
  absl::StatusOr<google::protobuf::Struct> snapshot = SnapshotAt(ws, 0);
  ASSERT_TRUE(snapshot.ok()) << snapshot.status();
  std::vector<std::string> played;
  for (int ply = 0; ply < 3; ++ply) {
    const std::string move = FirstLegalMove(*snapshot);
    ASSERT_FALSE(move.empty());
    played.push_back(move);
    ASSERT_TRUE(ws.Send(absl::StrCat(R"({"requestId":"m)", ply, R"(","action":"move","token":")",
                                     ply % 2 == 0 ? white : black, R"(","move":")", move,
                                     R"(","expectedPly":)", ply, "}"))
                    .ok());
    snapshot = SnapshotAt(ws, ply + 1);
    ASSERT_TRUE(snapshot.ok()) << snapshot.status();
  }

  // Still being played: not in the archive.
  HttpReply playing = Get(absl::StrCat("/api/games/", game_id, "/pdn"));
  EXPECT_EQ(playing.status, 404) << playing.body;
  EXPECT_EQ(ErrorCode(playing), "NOT_FOUND") << playing.body;
  EXPECT_TRUE(absl::StrContains(playing.body, "still being played")) << playing.body;
  EXPECT_EQ(Get(absl::StrCat("/api/games/", game_id, "/archive")).status, 404);

  // Black (to move at ply 3) resigns.
  ASSERT_TRUE(ws.Send(absl::StrCat(R"({"requestId":"bye","action":"resign","token":")", black,
                                   R"(","expectedPly":3})"))
                  .ok());
  absl::StatusOr<google::protobuf::Struct> ended = SnapshotAt(ws, 3);
  ASSERT_TRUE(ended.ok()) << ended.status();

  // The rating service archives it from the results stream shortly after.
  HttpReply pdn;
  const absl::Time deadline = absl::Now() + absl::Seconds(20);
  do {
    pdn = Get(absl::StrCat("/api/games/", game_id, "/pdn"));
    if (pdn.status != 404) break;
    absl::SleepFor(absl::Milliseconds(100));
  } while (absl::Now() < deadline);
  ASSERT_EQ(pdn.status, 200) << pdn.body;
  std::cerr << "PDNDEBUG\n"
            << pdn.headers << pdn.body << "\nARCHIVEDEBUG "
            << Get(absl::StrCat("/api/games/", game_id, "/archive")).body << "\n";
  EXPECT_EQ(pdn.content_type, "text/plain; charset=utf-8");
  EXPECT_TRUE(absl::StrContains(
      pdn.headers, absl::StrCat("attachment; filename=\"draughts-", game_id, ".pdn\"")))
      << pdn.headers;
  EXPECT_TRUE(absl::StrContains(pdn.body, absl::StrCat("[White \"", guest_name, "\"]")))
      << pdn.body;
  EXPECT_TRUE(absl::StrContains(pdn.body, absl::StrCat("[Black \"", guest_name, "\"]")))
      << pdn.body;
  // White won by resignation: "2-0" (or "1-0" in one-point scoring).
  EXPECT_TRUE(absl::StrContains(pdn.body, "[Result \"2-0\"]") ||
              absl::StrContains(pdn.body, "[Result \"1-0\"]"))
      << pdn.body;
  std::size_t after = pdn.body.find("]\n\n");
  ASSERT_NE(after, std::string::npos) << pdn.body;
  for (const std::string& move : played) {
    const std::size_t at = pdn.body.find(move, after);
    EXPECT_NE(at, std::string::npos) << move << " missing in order from " << pdn.body;
    if (at != std::string::npos) after = at + move.size();
  }

  // The same game as JSON: the record game_state reported, and the PDN.
  HttpReply archive = Get(absl::StrCat("/api/games/", game_id, "/archive"));
  ASSERT_EQ(archive.status, 200) << archive.body;
  EXPECT_EQ(archive.content_type, "application/json");
  const google::protobuf::Struct record = ParseJsonObject(archive.body).value();
  EXPECT_EQ(StringAt(record, "record.gameId"), game_id);
  EXPECT_EQ(StringAt(record, "record.result"), "GAME_RESULT_WHITE_WINS");
  EXPECT_EQ(StringAt(record, "record.reason"), "RESULT_REASON_RESIGNATION");
  EXPECT_EQ(StringAt(record, "record.white.displayName"), guest_name);
  EXPECT_EQ(NumberAt(record, "record.ply"), 3);
  EXPECT_EQ(StringAt(record, "pdn"), pdn.body);
  // No seat token, no session secret.
  for (const std::string& secret : {white, black, cookie.substr(cookie.find('=') + 1)}) {
    EXPECT_FALSE(absl::StrContains(archive.body, secret));
    EXPECT_FALSE(absl::StrContains(pdn.body, secret));
  }
}

TEST_F(ArchiveRoutesTest, MalformedIdsAreRefusedAndUnknownOnesNotFound) {
  for (const char* target : {"/api/games/bad.id/pdn", "/api/games/a%2Fb/archive", "/api/games//pdn",
                             "/api/games/a/b/pdn"}) {
    HttpReply reply = Get(target);
    EXPECT_EQ(reply.status, 400) << target << ": " << reply.body;
    EXPECT_EQ(ErrorCode(reply), "INVALID_ARGUMENT") << target;
  }
  HttpReply unknown = Get("/api/games/g-never-played/pdn");
  EXPECT_EQ(unknown.status, 404) << unknown.body;
  EXPECT_EQ(ErrorCode(unknown), "NOT_FOUND");
  absl::StatusOr<HttpReply> post = HttpCall(env_.port(), "POST", "/api/games/g-1/pdn");
  ASSERT_TRUE(post.ok()) << post.status();
  EXPECT_EQ(post->status, 405);
}

TEST_F(ArchiveRoutesTest, ArchiveDownIsServiceUnavailable) {
  ASSERT_NE(rating_, nullptr);
  absl::StatusOr<int> code = rating_->Terminate();
  ASSERT_TRUE(code.ok()) << code.status();
  rating_.reset();
  for (const char* route : {"pdn", "archive"}) {
    HttpReply reply = Get(absl::StrCat("/api/games/g-any/", route));
    EXPECT_EQ(reply.status, 503) << reply.body;
    EXPECT_EQ(ErrorCode(reply), "UNAVAILABLE") << reply.body;
  }
}

}  // namespace
}  // namespace draughts::gateway::testing
