// draughts.v1.GameService: the authoritative game. Every acting call loads
// the game, checks the request against it with the rules library and
// commits one atomic, version-checked change (GameStore::Commit); the store
// decides which of two racing replicas wins. Nothing about a game is kept
// only in this process, so any replica can serve any call.
#ifndef DRAUGHTS_GAME_STATE_GAME_SERVICE_H_
#define DRAUGHTS_GAME_STATE_GAME_SERVICE_H_

#include <atomic>
#include <cstddef>
#include <functional>
#include <optional>
#include <string>

#include "absl/functional/function_ref.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "draughts/v1/game.grpc.pb.h"
#include "game_state/game_cache.h"
#include "game_state/game_metrics.h"
#include "game_state/game_store.h"
#include "game_state/page_tokens.h"
#include "game_state/player_tokens.h"
#include "platform/blocking_pool.h"
#include "platform/stream_watch.h"

namespace draughts::game_state {

struct GameServiceOptions {
  // PlayAutomaticMove plays only once the deadline is this close: the
  // clock's and this replica's clocks may differ a little.
  absl::Duration deadline_tolerance = absl::Seconds(1);
  // A change that loses a race on the version (not on the ply: a draw offer
  // or presence report came in between) is recomputed this many times.
  int commit_attempts = 5;
  // Games this replica keeps a record and copy of (game_cache.h).
  std::size_t game_cache_size = 4096;
  // Threads for what a callback handler may not block on (a read of the
  // game, a commit retried after a lost race).
  int blocking_threads = 8;
};

struct GameServiceDeps {
  GameStore* store = nullptr;
  EventFeed* feed = nullptr;
  const TokenSealer* sealer = nullptr;
  // Injected so tests control time and randomness.
  std::function<absl::Time()> now;
  // A uniformly random index in [0, n).
  std::function<std::size_t(std::size_t n)> random_index;
  // Optional.
  GameMetrics* metrics = nullptr;
};

// SubmitMove, the hot call, GetGame and WatchGame use gRPC's callback API: a move
// is decided on the replica's copy of the game and committed through
// GameStore::CommitAsync without holding a thread while Redis answers, and
// a watcher holds no thread while it waits for events (platform/stream_watch.h). The
// other calls are synchronous.
class GameServiceImpl final
    : public v1::GameService::WithCallbackMethod_SubmitMove<
          v1::GameService::WithCallbackMethod_GetGame<
              v1::GameService::WithCallbackMethod_WatchGame<v1::GameService::Service>>> {
 public:
  // `deps` pointers must outlive the service. Null `now` / `random_index`
  // mean the system clock and a per-thread random generator.
  GameServiceImpl(GameServiceDeps deps, GameServiceOptions options = {});

  // Ends every WatchGame stream (UNAVAILABLE: resume on another replica) and
  // refuses new ones; called when the server starts draining.
  void BeginShutdown();

  grpc::Status CreateGame(grpc::ServerContext*, const v1::CreateGameRequest*,
                          v1::CreateGameResponse*) override;
  // Answered at once from this replica's copy when it committed
  // min_version or newer, else read on the blocking pool.
  grpc::ServerUnaryReactor* GetGame(grpc::CallbackServerContext* context,
                                    const v1::GetGameRequest* request,
                                    v1::GetGameResponse* response) override;
  grpc::Status ListGames(grpc::ServerContext*, const v1::ListGamesRequest*,
                         v1::ListGamesResponse*) override;
  grpc::Status ListLegalMoves(grpc::ServerContext*, const v1::ListLegalMovesRequest*,
                              v1::ListLegalMovesResponse*) override;
  grpc::ServerUnaryReactor* SubmitMove(grpc::CallbackServerContext* context,
                                       const v1::SubmitMoveRequest* request,
                                       v1::SubmitMoveResponse* response) override;
  grpc::Status Resign(grpc::ServerContext*, const v1::ResignRequest*, v1::ResignResponse*) override;
  grpc::Status OfferDraw(grpc::ServerContext*, const v1::OfferDrawRequest*,
                         v1::OfferDrawResponse*) override;
  grpc::Status RespondDraw(grpc::ServerContext*, const v1::RespondDrawRequest*,
                           v1::RespondDrawResponse*) override;
  grpc::Status UndoMove(grpc::ServerContext*, const v1::UndoMoveRequest*,
                        v1::UndoMoveResponse*) override;
  grpc::Status PlayAutomaticMove(grpc::ServerContext*, const v1::PlayAutomaticMoveRequest*,
                                 v1::PlayAutomaticMoveResponse*) override;
  grpc::ServerWriteReactor<v1::GameEvent>* WatchGame(grpc::CallbackServerContext* context,
                                                     const v1::WatchGameRequest* request) override;
  grpc::Status ResolvePlayerToken(grpc::ServerContext*, const v1::ResolvePlayerTokenRequest*,
                                  v1::ResolvePlayerTokenResponse*) override;
  grpc::Status RecordPresence(grpc::ServerContext*, const v1::RecordPresenceRequest*,
                              v1::RecordPresenceResponse*) override;
  grpc::Status DeclareAbandoned(grpc::ServerContext*, const v1::DeclareAbandonedRequest*,
                                v1::DeclareAbandonedResponse*) override;

 private:
  // Looks at the current game and decides: a change to commit, or nullopt
  // when there is nothing to write (a recognised retry, a no-op). May update
  // `record` to the record after the change.
  using Decide = absl::FunctionRef<absl::StatusOr<std::optional<Change>>(
      const StoredGame& game, rules::GameRecord& record)>;
  // Load, decide, commit; recomputed when the commit loses a version race.
  // Returns the state after the change (or the current one for nullopt).
  // `try_copy`: first decide on this replica's copy of the game; `current`:
  // the game as a refused commit returned it, decided on without a read.
  absl::StatusOr<v1::GameState> Mutate(const std::string& game_id, Decide decide,
                                       bool try_copy = true,
                                       std::optional<StoredGame> current = std::nullopt);

  // Mutate without blocking the caller: a change decided on this replica's
  // copy is committed with CommitAsync; everything else (no copy, a lost
  // race, an answer that is not a change) runs Mutate on the blocking pool.
  // `done` runs on whichever thread finishes.
  using DecideFn = std::function<absl::StatusOr<std::optional<Change>>(const StoredGame& game,
                                                                       rules::GameRecord& record)>;
  using MutateDone = std::function<void(absl::StatusOr<v1::GameState> state)>;
  void MutateAsync(const std::string& game_id, DecideFn decide, MutateDone done);
  // After a successful commit: metrics, the cache, the state to answer.
  v1::GameState Committed(Change& change, const std::vector<std::string>& event_ids,
                          rules::GameRecord record);

  absl::Status DoCreateGame(const v1::CreateGameRequest& request, v1::CreateGameResponse& response);
  absl::Status AnswerGetGame(const v1::GameState& state, const v1::GetGameRequest& request,
                             v1::GetGameResponse& response);
  absl::Status DoListGames(const v1::ListGamesRequest& request, v1::ListGamesResponse& response);
  absl::Status DoListLegalMoves(const v1::ListLegalMovesRequest& request,
                                v1::ListLegalMovesResponse& response);
  // The legal moves of `state` from `page` (none: the first), `size` at
  // most, as ListLegalMoves answers them (GetGame's include_legal_moves too).
  absl::Status ListMovesOf(const v1::GameState& state, const std::string& game_id,
                           const std::optional<MovesPage>& page, int size,
                           v1::ListLegalMovesResponse& response);
  // Every legal move of `state` on one page: GetGame's and SubmitMove's
  // include_legal_moves.
  absl::Status ListEveryMoveOf(const v1::GameState& state, const std::string& game_id,
                               v1::ListLegalMovesResponse& response);
  // SubmitMove's checks before the game is looked at, and its decision
  // (which records the move played in `played`).
  absl::Status CheckSubmitMove(const v1::SubmitMoveRequest& request);
  DecideFn DecideSubmitMove(const v1::SubmitMoveRequest& request, v1::MovePlayed& played);
  absl::Status DoResign(const v1::ResignRequest& request, v1::ResignResponse& response);
  absl::Status DoOfferDraw(const v1::OfferDrawRequest& request, v1::OfferDrawResponse& response);
  absl::Status DoRespondDraw(const v1::RespondDrawRequest& request,
                             v1::RespondDrawResponse& response);
  absl::Status DoUndoMove(const v1::UndoMoveRequest& request, v1::UndoMoveResponse& response);
  absl::Status DoPlayAutomaticMove(const v1::PlayAutomaticMoveRequest& request,
                                   v1::PlayAutomaticMoveResponse& response);
  // The subscription WatchGame delivers from; null when there is nothing
  // to send (resuming from a finished game's last event).
  absl::StatusOr<std::unique_ptr<EventSubscription>> OpenWatch(const v1::WatchGameRequest& request);
  absl::Status DoRecordPresence(const v1::RecordPresenceRequest& request,
                                v1::RecordPresenceResponse& response);
  absl::Status DoDeclareAbandoned(const v1::DeclareAbandonedRequest& request,
                                  v1::DeclareAbandonedResponse& response);

  absl::Time Now() const { return deps_.now(); }
  static absl::Status Draining();

  GameServiceDeps deps_;
  GameServiceOptions options_;
  GameCache cache_;
  std::atomic<bool> shutting_down_{false};
  platform::WatchPump watch_pump_;
  // Last member: destroyed first, finishing its work while the rest lives.
  platform::BlockingPool blocking_;
};

}  // namespace draughts::game_state

#endif  // DRAUGHTS_GAME_STATE_GAME_SERVICE_H_
