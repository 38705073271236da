#include "matchmaking_env.h"

#include <unistd.h>

#include <atomic>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "platform/secret_tokens.h"
#include "platform/testing/test_env.h"

namespace draughts::matchmaking::testing {
namespace {

std::string UniquePrefix() {
  std::string random = platform::RandomUrlSafeString(6);
  for (char& c : random) {
    if (c == '-' || c == '_') c = 'x';
  }
  return absl::StrCat("mmit-", getpid(), "-", random, ":");
}

template <typename Stub>
std::unique_ptr<Stub> StubFor(const std::string& address) {
  return std::make_unique<Stub>(grpc::CreateChannel(address, grpc::InsecureChannelCredentials()));
}

std::unique_ptr<grpc::ClientContext> Context(absl::Duration timeout = absl::Seconds(20)) {
  auto context = std::make_unique<grpc::ClientContext>();
  context->set_deadline(absl::ToChronoTime(absl::Now() + timeout));
  return context;
}

}  // namespace

absl::StatusOr<std::unique_ptr<Cluster>> Cluster::Start(
    int replicas, const std::vector<std::string>& extra_args) {
  absl::StatusOr<std::string> redis = platform::testing::RequiredTestEnv("DRAUGHTS_TEST_REDIS");
  if (!redis.ok()) return redis.status();
  auto cluster = std::make_unique<Cluster>();
  cluster->prefix_ = UniquePrefix();
  // Both binaries put the key prefix before the stream names.
  const std::string results = "results";
  absl::StatusOr<std::unique_ptr<platform::testing::ServerProcess>> game_state =
      platform::testing::ServerProcess::Start(
          GAME_STATE_BINARY,
          {absl::StrCat("--redis=", *redis), absl::StrCat("--key-prefix=", cluster->prefix_),
           absl::StrCat("--results-stream=", results), "--metrics-port=-1",
           "--token-secret=integration-test-shared-secret", "--drain=100ms",
           "--shutdown-timeout=2s", "--log-level=warn"});
  if (!game_state.ok()) return game_state.status();
  cluster->game_state_ = *std::move(game_state);
  cluster->game_ = StubFor<v1::GameService::Stub>(cluster->game_state_->address());
  for (int i = 0; i < replicas; ++i) {
    std::vector<std::string> args = {absl::StrCat("--redis=", *redis),
                                     absl::StrCat("--key-prefix=", cluster->prefix_),
                                     absl::StrCat("--game-state=", cluster->game_state_->address()),
                                     absl::StrCat("--results-stream=", results),
                                     absl::StrCat("--consumer-name=replica-", i),
                                     "--metrics-port=-1",
                                     "--token-secret=matchmaking-integration-shared-secret",
                                     "--password-memlimit-kib=64",
                                     "--sweep-interval=50ms",
                                     "--drain=100ms",
                                     "--shutdown-timeout=2s",
                                     "--log-level=warn"};
    args.insert(args.end(), extra_args.begin(), extra_args.end());
    absl::StatusOr<std::unique_ptr<platform::testing::ServerProcess>> replica =
        platform::testing::ServerProcess::Start(MATCHMAKING_BINARY, args);
    if (!replica.ok()) return replica.status();
    cluster->mm_.push_back(StubFor<v1::MatchmakingService::Stub>((*replica)->address()));
    cluster->replicas_.push_back(*std::move(replica));
  }
  absl::StatusOr<platform::RedisOptions> options = platform::ParseRedisAddress(*redis);
  if (!options.ok()) return options.status();
  cluster->redis_ = std::make_unique<platform::RedisClient>(*options);
  return cluster;
}

v1::Seat Person(const std::string& id) {
  v1::Seat seat;
  seat.set_kind(v1::SEAT_KIND_PERSON);
  seat.set_player_id(id);
  seat.set_display_name(absl::StrCat("Player ", id));
  return seat;
}

v1::Seat Guest(const std::string& id) {
  v1::Seat seat = Person(id);
  seat.set_kind(v1::SEAT_KIND_GUEST);
  return seat;
}

std::string Key() {
  static std::atomic<int> counter{0};
  return absl::StrCat("k", getpid(), "-", counter.fetch_add(1), "-",
                      absl::ToUnixNanos(absl::Now()));
}

std::string Text(const grpc::Status& status) {
  return absl::StrCat(static_cast<int>(status.error_code()), " ", status.error_message());
}

absl::StatusOr<v1::GetTableResponse> WaitForTable(
    v1::MatchmakingService::Stub& stub, const std::string& table_id, const v1::Seat& viewer,
    const std::function<bool(const v1::GetTableResponse&)>& done, absl::Duration timeout) {
  const absl::Time deadline = absl::Now() + timeout;
  v1::GetTableResponse response;
  grpc::Status status;
  while (true) {
    v1::GetTableRequest request;
    request.set_table_id(table_id);
    *request.mutable_requester() = viewer;
    response.Clear();
    status = stub.GetTable(Context().get(), request, &response);
    if (status.ok() && done(response)) return response;
    if (absl::Now() > deadline) break;
    absl::SleepFor(absl::Milliseconds(20));
  }
  if (!status.ok()) return absl::DeadlineExceededError(Text(status));
  return absl::DeadlineExceededError(
      absl::StrCat("table never got there: ", response.table().ShortDebugString()));
}

bool WaitForClosed(v1::MatchmakingService::Stub& stub, const std::string& table_id,
                   absl::Duration timeout) {
  const absl::Time deadline = absl::Now() + timeout;
  while (absl::Now() < deadline) {
    v1::GetTableRequest request;
    request.set_table_id(table_id);
    v1::GetTableResponse response;
    grpc::Status status = stub.GetTable(Context().get(), request, &response);
    if (status.error_code() == grpc::StatusCode::NOT_FOUND) return true;
    absl::SleepFor(absl::Milliseconds(20));
  }
  return false;
}

grpc::Status CreateTable(v1::MatchmakingService::Stub& stub, v1::CreateTableRequest request,
                         v1::Table* table) {
  if (request.idempotency_key().empty()) request.set_idempotency_key(Key());
  v1::CreateTableResponse response;
  grpc::Status status = stub.CreateTable(Context().get(), request, &response);
  if (table != nullptr) *table = response.table();
  return status;
}

grpc::Status Join(v1::MatchmakingService::Stub& stub, const v1::Seat& who,
                  const std::string& table_id, const std::string& password, v1::Table* table) {
  v1::JoinTableRequest request;
  request.set_idempotency_key(Key());
  *request.mutable_requester() = who;
  request.set_table_id(table_id);
  request.set_password(password);
  v1::JoinTableResponse response;
  grpc::Status status = stub.JoinTable(Context().get(), request, &response);
  if (table != nullptr) *table = response.table();
  return status;
}

grpc::Status Start(v1::MatchmakingService::Stub& stub, const v1::Seat& who,
                   const std::string& table_id, v1::StartGameResponse* response) {
  v1::StartGameRequest request;
  request.set_idempotency_key(Key());
  *request.mutable_requester() = who;
  request.set_table_id(table_id);
  return stub.StartGame(Context().get(), request, response);
}

grpc::Status Vote(v1::MatchmakingService::Stub& stub, const v1::Seat& who,
                  const std::string& table_id, v1::VoteRematchResponse* response) {
  v1::VoteRematchRequest request;
  request.set_idempotency_key(Key());
  *request.mutable_requester() = who;
  request.set_table_id(table_id);
  return stub.VoteRematch(Context().get(), request, response);
}

grpc::Status Leave(v1::MatchmakingService::Stub& stub, const v1::Seat& who,
                   const std::string& table_id, v1::Table* table) {
  v1::LeaveTableRequest request;
  request.set_idempotency_key(Key());
  *request.mutable_requester() = who;
  request.set_table_id(table_id);
  v1::LeaveTableResponse response;
  grpc::Status status = stub.LeaveTable(Context().get(), request, &response);
  if (table != nullptr) *table = response.table();
  return status;
}

grpc::Status Resign(v1::GameService::Stub& stub, const std::string& game_id,
                    const std::string& token) {
  v1::GetGameRequest get;
  get.set_game_id(game_id);
  v1::GetGameResponse game;
  grpc::Status status = stub.GetGame(Context().get(), get, &game);
  if (!status.ok()) return status;
  v1::ResignRequest request;
  request.set_game_id(game_id);
  request.set_player_token(token);
  request.set_expected_ply(game.game().ply());
  v1::ResignResponse response;
  return stub.Resign(Context().get(), request, &response);
}

std::vector<v1::TableEvent> WatchAll(v1::MatchmakingService::Stub& stub,
                                     const std::string& table_id, absl::Duration timeout,
                                     grpc::Status* end) {
  v1::WatchTableRequest request;
  request.set_table_id(table_id);
  auto context = Context(timeout);
  std::unique_ptr<grpc::ClientReader<v1::TableEvent>> reader =
      stub.WatchTable(context.get(), request);
  std::vector<v1::TableEvent> events;
  v1::TableEvent event;
  while (reader->Read(&event)) events.push_back(event);
  grpc::Status status = reader->Finish();
  if (end != nullptr) *end = status;
  return events;
}

}  // namespace draughts::matchmaking::testing
