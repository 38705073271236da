// What the fault tests share: a private redis-server with AOF that can be
// killed and restarted on its data, a private PostgreSQL that can be
// stopped and started, a game client that rides over a dead replica or a
// restarting Redis by retrying on the other address, and the check that a
// game's event stream holds exactly the moves its clients were told about.
#ifndef DRAUGHTS_TESTS_FAULT_FAULT_ENV_H_
#define DRAUGHTS_TESTS_FAULT_FAULT_ENV_H_

#include <sys/types.h>

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "draughts/v1/game.grpc.pb.h"

namespace draughts::fault {

// An integer from the environment (the long versions in
// tests/bench/fault/run.sh raise them), `fallback` when unset.
int EnvInt(const char* name, int fallback);

// Polls `condition` every 20 ms until it holds or `timeout` passes.
bool WaitFor(const std::function<bool()>& condition, absl::Duration timeout = absl::Seconds(30));

// redis-server with appendonly yes and the given appendfsync, in its own
// directory, so a SIGKILL and a restart keep what was acknowledged.
class AofRedis {
 public:
  static absl::StatusOr<std::unique_ptr<AofRedis>> Start(const std::string& binary,
                                                         const std::string& appendfsync);
  ~AofRedis();
  AofRedis(const AofRedis&) = delete;
  AofRedis& operator=(const AofRedis&) = delete;

  std::string address() const;
  void Kill();
  absl::Status Restart();

 private:
  AofRedis(std::string binary, std::string appendfsync, int port, std::string dir)
      : binary_(std::move(binary)),
        appendfsync_(std::move(appendfsync)),
        port_(port),
        dir_(std::move(dir)) {}
  absl::Status Launch();

  std::string binary_;
  std::string appendfsync_;
  int port_;
  std::string dir_;
  pid_t pid_ = -1;
};

// A PostgreSQL cluster of its own (initdb from DRAUGHTS_TEST_PG_BIN, run by
// tests/fault/private_pg.sh), with database draughts_test.
class PrivatePostgres {
 public:
  static absl::StatusOr<std::unique_ptr<PrivatePostgres>> Start(const std::string& pg_bin);
  ~PrivatePostgres();
  PrivatePostgres(const PrivatePostgres&) = delete;
  PrivatePostgres& operator=(const PrivatePostgres&) = delete;

  std::string conninfo() const;
  absl::Status Stop();    // fast shutdown: clients see their connections end
  absl::Status Resume();  // starts again on the same port and data
  // The first column of the first row of `sql` ("" when none).
  absl::StatusOr<std::string> Query(const std::string& sql) const;

 private:
  PrivatePostgres(std::string pg_bin, int port, std::string dir)
      : pg_bin_(std::move(pg_bin)), port_(port), dir_(std::move(dir)) {}
  absl::Status Run(const std::string& command) const;

  std::string pg_bin_;
  int port_;
  std::string dir_;
  bool running_ = false;
};

// A client of game_state that knows several replicas: a call that fails
// with UNAVAILABLE or DEADLINE_EXCEEDED (outcome unknown) is repeated,
// unchanged, on the next address after a short pause, until `patience`
// has passed. Repeating is safe by contract (a move carries its expected
// ply; a repeat of a move that landed is answered OK).
class RetryingGameClient {
 public:
  RetryingGameClient(const std::vector<std::string>& addresses, absl::Duration patience);

  grpc::Status CreateGame(const v1::CreateGameRequest& request, v1::CreateGameResponse* response);
  grpc::Status ListLegalMoves(const std::string& game_id, v1::ListLegalMovesResponse* response);
  grpc::Status SubmitMove(const v1::SubmitMoveRequest& request, v1::SubmitMoveResponse* response);
  grpc::Status Resign(const v1::ResignRequest& request, v1::ResignResponse* response);
  grpc::Status GetGame(const std::string& game_id, v1::GameState* game);

  int retries() const { return retries_; }

 private:
  grpc::Status Call(
      const std::function<grpc::Status(v1::GameService::Stub&, grpc::ClientContext*)>& call);

  std::vector<std::unique_ptr<v1::GameService::Stub>> stubs_;
  absl::Duration patience_;
  std::size_t next_ = 0;
  int retries_ = 0;
};

// One game played by one client: what it was told.
struct PlayedMoves {
  std::string game_id;
  std::string white_token, black_token;
  std::vector<std::string> acknowledged;  // notation of every move answered OK, in order
  v1::GameState last;                     // the last state it was given
  grpc::Status failure;                   // the first call that failed for good
};

// Creates a two-person game and plays `plies` moves (or to its end),
// calling `after_each_move` after each acknowledged one.
PlayedMoves PlayGame(RetryingGameClient& client, const v1::CreateGameRequest& request, int plies,
                     const std::function<void()>& after_each_move = {});

// Empty when the game's event stream (key `events_key`) holds exactly the
// acknowledged moves, each once, in order; otherwise what differs.
std::string CompareWithEventStream(const std::string& redis_address, const std::string& events_key,
                                   const std::vector<std::string>& acknowledged);

}  // namespace draughts::fault

#endif  // DRAUGHTS_TESTS_FAULT_FAULT_ENV_H_
