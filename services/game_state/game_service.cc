// GameServiceImpl: plumbing, CreateGame and the read-only calls (GetGame,
// ListGames, ListLegalMoves, WatchGame, ResolvePlayerToken). The players'
// acting calls are in game_service_actions.cc, the clock's (and
// matchmaking's) in game_service_clock_calls.cc.
#include "game_state/game_service.h"

#include <algorithm>
#include <random>
#include <utility>

#include "absl/strings/str_cat.h"
#include "game_state/game_change.h"
#include "game_state/game_id.h"
#include "game_state/new_game.h"
#include "game_state/page_tokens.h"
#include "game_state/proto_convert.h"
#include "game_state/request_checks.h"
#include "platform/event_id.h"
#include "platform/logging.h"
#include "platform/status.h"
#include "platform/status_macros.h"
#include "rules/variant.h"

namespace draughts::game_state {
namespace {

using platform::ToGrpcStatus;

constexpr int kDefaultGamesPage = 20;
constexpr int kMaxGamesPage = 100;
constexpr int kMaxMovesPage = 1000;
// ListGames reads the index in batches and filters; it stops after this
// many batches with a short page (and a token to go on) rather than scan a
// huge index for one request.
constexpr int kMaxListBatches = 8;

std::size_t RandomIndex(std::size_t n) {
  thread_local std::mt19937_64 generator(std::random_device{}());
  return std::uniform_int_distribution<std::size_t>(0, n - 1)(generator);
}

v1::GameSummary Summarize(const v1::GameState& state) {
  v1::GameSummary summary;
  summary.set_game_id(state.game_id());
  summary.set_table_id(state.table_id());
  summary.set_variant(state.variant());
  summary.set_rated(state.rated());
  *summary.mutable_white() = state.white().seat();
  *summary.mutable_black() = state.black().seat();
  summary.set_fen(state.fen());
  summary.set_side_to_move(state.side_to_move());
  summary.set_ply(state.ply());
  summary.set_result(state.result());
  summary.set_reason(state.reason());
  *summary.mutable_created_at() = state.created_at();
  *summary.mutable_updated_at() = state.updated_at();
  return summary;
}

}  // namespace

GameServiceImpl::GameServiceImpl(GameServiceDeps deps, GameServiceOptions options)
    : deps_(std::move(deps)),
      options_(options),
      cache_(options.game_cache_size),
      blocking_(options.blocking_threads) {
  if (!deps_.now) deps_.now = [] { return absl::Now(); };
  if (!deps_.random_index) deps_.random_index = RandomIndex;
}

absl::Status GameServiceImpl::Draining() {
  return absl::UnavailableError(
      "the server is shutting down: resume from the last event id received, on any replica");
}

void GameServiceImpl::BeginShutdown() {
  shutting_down_.store(true);
  watch_pump_.Drain(ToGrpcStatus(Draining()));
}

absl::StatusOr<v1::GameState> GameServiceImpl::Mutate(const std::string& game_id, Decide decide,
                                                      bool try_copy,
                                                      std::optional<StoredGame> current) {
  // `current`: the game as a refused commit returned it, decided on
  // without a Load.
  auto committed = [&](Change& change, const std::vector<std::string>& ids,
                       rules::GameRecord record) -> v1::GameState {
    return Committed(change, ids, std::move(record));
  };
  auto lost_race = [&] {
    if (deps_.metrics != nullptr) deps_.metrics->RaceLost();
  };

  // First try the copy this replica committed last, without reading the
  // game: when no other replica changed it since, the change costs one
  // round trip. The version check keeps that safe; a change refused there,
  // and any answer other than a change (an error, a no-op), may come from a
  // stale copy, so the game is read and decided on again below.
  std::optional<GameCache::LastKnown> known;
  if (try_copy && !current.has_value()) known = cache_.Latest(game_id);
  if (known.has_value()) {
    rules::GameRecord record = *known->record;
    absl::StatusOr<std::optional<Change>> change = decide(*known->game, record);
    if (change.ok() && change->has_value()) {
      absl::StatusOr<std::vector<std::string>> ids =
          deps_.store->Commit(game_id, **change, &current);
      if (ids.ok()) return committed(**change, *ids, std::move(record));
      if (!absl::IsAborted(ids.status())) return ids.status();
      lost_race();
    }
  }

  for (int attempt = 1;; ++attempt) {
    StoredGame game;
    if (current.has_value()) {
      game = *std::move(current);
      current.reset();
    } else {
      DRAUGHTS_ASSIGN_OR_RETURN(game, deps_.store->Load(game_id));
    }
    DRAUGHTS_ASSIGN_OR_RETURN(rules::GameRecord record, cache_.Replay(game.state()));
    DRAUGHTS_ASSIGN_OR_RETURN(std::optional<Change> change, decide(game, record));
    if (!change.has_value()) return std::move(*game.mutable_state());
    absl::StatusOr<std::vector<std::string>> ids = deps_.store->Commit(game_id, *change, &current);
    if (ids.ok()) return committed(*change, *ids, std::move(record));
    if (!absl::IsAborted(ids.status())) return ids.status();
    lost_race();
    // Lost a race: the next attempt sees the winner's change and either
    // still applies (the ply did not move) or fails its checks.
    if (attempt >= options_.commit_attempts) {
      return absl::AbortedError(
          "the game kept changing while this request was applied: re-read it and retry");
    }
  }
}

v1::GameState GameServiceImpl::Committed(Change& change, const std::vector<std::string>& event_ids,
                                         rules::GameRecord record) {
  if (deps_.metrics != nullptr) deps_.metrics->Committed(change.events);
  if (!event_ids.empty()) change.game.mutable_state()->set_last_event_id(event_ids.back());
  auto game = std::make_shared<const StoredGame>(std::move(change.game));
  v1::GameState state = game->state();
  cache_.Remember(std::move(game), std::move(record));
  return state;
}

void GameServiceImpl::MutateAsync(const std::string& game_id, DecideFn decide, MutateDone done) {
  // Decided again on the stored game, on the blocking pool.
  auto blocking = [this, game_id, decide, done](std::optional<StoredGame> current) {
    blocking_.Run([this, game_id, decide, done, current = std::move(current)]() mutable {
      done(Mutate(game_id, decide, /*try_copy=*/false, std::move(current)));
    });
  };
  std::optional<GameCache::LastKnown> known = cache_.Latest(game_id);
  if (!known.has_value()) {
    blocking(std::nullopt);
    return;
  }
  auto record = std::make_shared<rules::GameRecord>(*known->record);
  absl::StatusOr<std::optional<Change>> decided = decide(*known->game, *record);
  if (!decided.ok() || !decided->has_value()) {
    // May come from a stale copy.
    blocking(std::nullopt);
    return;
  }
  auto change = std::make_shared<Change>(**std::move(decided));
  deps_.store->CommitAsync(
      game_id, *change,
      [this, change, record, blocking, done](absl::StatusOr<std::vector<std::string>> ids,
                                             std::optional<StoredGame> current) {
        if (ids.ok()) {
          done(Committed(*change, *ids, std::move(*record)));
          return;
        }
        if (!absl::IsAborted(ids.status())) {
          done(ids.status());
          return;
        }
        if (deps_.metrics != nullptr) deps_.metrics->RaceLost();
        blocking(std::move(current));
      });
}

// --- CreateGame -------------------------------------------------------------

grpc::Status GameServiceImpl::CreateGame(grpc::ServerContext*, const v1::CreateGameRequest* request,
                                         v1::CreateGameResponse* response) {
  return ToGrpcStatus(DoCreateGame(*request, *response));
}

absl::Status GameServiceImpl::DoCreateGame(const v1::CreateGameRequest& request,
                                           v1::CreateGameResponse& response) {
  DRAUGHTS_ASSIGN_OR_RETURN(PreparedGame prepared, PrepareNewGame(request, *deps_.sealer, Now()));
  DRAUGHTS_ASSIGN_OR_RETURN(CreateResult result,
                            deps_.store->Create(prepared.game_id, prepared.game));
  TokenPair tokens = prepared.tokens;
  if (!result.created) {
    if (result.game.create_fingerprint() != prepared.game.game.create_fingerprint()) {
      return absl::InvalidArgumentError(
          "idempotency_key was already used for a different CreateGame request");
    }
    // A retry: answer as the first call did, with the tokens it issued.
    DRAUGHTS_ASSIGN_OR_RETURN(tokens, deps_.sealer->Open(result.game.sealed_tokens()));
  } else {
    if (deps_.metrics != nullptr) deps_.metrics->GameCreated();
    platform::LogInfo(
        "game created",
        {{"game", prepared.game_id}, {"variant", request.variant()}, {"rated", request.rated()}});
  }
  response.set_game_id(prepared.game_id);
  response.set_white_player_token(tokens.white);
  response.set_black_player_token(tokens.black);
  *response.mutable_game() = result.game.state();
  return absl::OkStatus();
}

// --- GetGame, ListGames, ListLegalMoves ------------------------------------

grpc::ServerUnaryReactor* GameServiceImpl::GetGame(grpc::CallbackServerContext* context,
                                                   const v1::GetGameRequest* request,
                                                   v1::GetGameResponse* response) {
  grpc::ServerUnaryReactor* reactor = context->DefaultReactor();
  absl::Status checked = ValidateGameId(request->game_id());
  if (checked.ok() && request->min_version() < 0) {
    checked = absl::InvalidArgumentError(
        absl::StrCat("min_version is negative (", request->min_version(), ")"));
  }
  if (!checked.ok()) {
    reactor->Finish(ToGrpcStatus(checked));
    return reactor;
  }
  if (request->min_version() > 0) {
    // Versions are committed once each, so a copy at min_version or newer
    // is the game as it was stored at that version.
    std::optional<GameCache::LastKnown> known = cache_.Latest(request->game_id());
    if (known.has_value() && known->game->state().version() >= request->min_version()) {
      reactor->Finish(ToGrpcStatus(AnswerGetGame(known->game->state(), *request, *response)));
      return reactor;
    }
  }
  blocking_.Run([this, reactor, request, response] {
    absl::StatusOr<StoredGame> game = deps_.store->Load(request->game_id());
    reactor->Finish(ToGrpcStatus(game.ok() ? AnswerGetGame(game->state(), *request, *response)
                                           : game.status()));
  });
  return reactor;
}

absl::Status GameServiceImpl::AnswerGetGame(const v1::GameState& state,
                                            const v1::GetGameRequest& request,
                                            v1::GetGameResponse& response) {
  if (request.include_legal_moves()) {
    DRAUGHTS_RETURN_IF_ERROR(
        ListEveryMoveOf(state, request.game_id(), *response.mutable_legal_moves()));
  }
  *response.mutable_game() = state;
  return absl::OkStatus();
}

grpc::Status GameServiceImpl::ListGames(grpc::ServerContext*, const v1::ListGamesRequest* request,
                                        v1::ListGamesResponse* response) {
  return ToGrpcStatus(DoListGames(*request, *response));
}

absl::Status GameServiceImpl::DoListGames(const v1::ListGamesRequest& request,
                                          v1::ListGamesResponse& response) {
  if (request.page_size() < 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("page_size is negative (", request.page_size(), ")"));
  }
  const int page_size =
      request.page_size() == 0 ? kDefaultGamesPage : std::min(request.page_size(), kMaxGamesPage);
  if (!request.variant().empty()) {
    rules::Result<rules::Variant> variant = rules::FindVariant(request.variant());
    if (!variant.ok()) return absl::InvalidArgumentError(variant.error().ToString());
  }
  if (request.player_id().size() > 128) {
    return absl::InvalidArgumentError("player_id is longer than 128 bytes");
  }
  const std::string filters =
      absl::StrCat(request.variant(), "\n", request.include_finished(), "\n", request.player_id());
  ListQuery query;
  query.include_finished = request.include_finished();
  query.player_id = request.player_id();
  if (!request.page_token().empty()) {
    DRAUGHTS_ASSIGN_OR_RETURN(ListCursor after,
                              DecodeGamesPageToken(request.page_token(), filters));
    query.after = std::move(after);
  }

  bool exhausted = false;
  for (int batch = 0; batch < kMaxListBatches && response.games_size() < page_size; ++batch) {
    query.limit = page_size - response.games_size();
    DRAUGHTS_ASSIGN_OR_RETURN(std::vector<ListCursor> entries, deps_.store->List(query));
    if (entries.empty()) {
      exhausted = true;
      break;
    }
    std::vector<std::string> ids;
    for (const ListCursor& entry : entries) ids.push_back(entry.game_id);
    DRAUGHTS_ASSIGN_OR_RETURN(std::vector<std::optional<StoredGame>> games,
                              deps_.store->LoadMany(ids));
    for (std::size_t i = 0; i < entries.size(); ++i) {
      query.after = entries[i];
      if (!games[i].has_value()) continue;  // expired since it was indexed
      const v1::GameState& state = games[i]->state();
      if (!request.variant().empty() && state.variant() != request.variant()) continue;
      if (!request.include_finished() && IsOver(state)) continue;
      *response.add_games() = Summarize(state);
    }
    if (static_cast<int>(entries.size()) < query.limit) {
      exhausted = true;
      break;
    }
  }
  if (!exhausted && query.after.has_value()) {
    response.set_next_page_token(EncodeGamesPageToken(*query.after, filters));
  }
  return absl::OkStatus();
}

grpc::Status GameServiceImpl::ListLegalMoves(grpc::ServerContext*,
                                             const v1::ListLegalMovesRequest* request,
                                             v1::ListLegalMovesResponse* response) {
  return ToGrpcStatus(DoListLegalMoves(*request, *response));
}

absl::Status GameServiceImpl::DoListLegalMoves(const v1::ListLegalMovesRequest& request,
                                               v1::ListLegalMovesResponse& response) {
  DRAUGHTS_RETURN_IF_ERROR(ValidateGameId(request.game_id()));
  if (request.page_size() < 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("page_size is negative (", request.page_size(), ")"));
  }
  std::optional<MovesPage> page;
  if (!request.page_token().empty()) {
    DRAUGHTS_ASSIGN_OR_RETURN(page, DecodeMovesPageToken(request.page_token(), request.game_id()));
  }
  DRAUGHTS_ASSIGN_OR_RETURN(StoredGame game, deps_.store->Load(request.game_id()));
  const v1::GameState& state = game.state();
  if (page.has_value() && page->ply != state.ply()) {
    return absl::AbortedError(absl::StrCat("page_token was issued at ply ", page->ply,
                                           "; the game is at ply ", state.ply(),
                                           ": list the moves again"));
  }
  const int size =
      request.page_size() == 0 ? kMaxMovesPage : std::min(request.page_size(), kMaxMovesPage);
  return ListMovesOf(state, request.game_id(), page, size, response);
}

absl::Status GameServiceImpl::ListEveryMoveOf(const v1::GameState& state,
                                              const std::string& game_id,
                                              v1::ListLegalMovesResponse& response) {
  return ListMovesOf(state, game_id, std::nullopt, kMaxMovesPage, response);
}

absl::Status GameServiceImpl::ListMovesOf(const v1::GameState& state, const std::string& game_id,
                                          const std::optional<MovesPage>& page, int size,
                                          v1::ListLegalMovesResponse& response) {
  response.set_ply(state.ply());
  if (IsOver(state)) {
    response.set_side_to_move(v1::COLOR_UNSPECIFIED);
    return absl::OkStatus();
  }
  DRAUGHTS_ASSIGN_OR_RETURN(rules::GameRecord record, cache_.Replay(state));
  const rules::MoveList& legal = record.legal_moves();
  response.set_side_to_move(state.side_to_move());
  response.set_must_capture(
      record.variant().mandatory_capture && !legal.empty() &&
      std::all_of(legal.begin(), legal.end(), [](const rules::Move& m) { return m.is_capture(); }));
  const int total = static_cast<int>(legal.size());
  const int begin = page.has_value() ? std::min(page->offset, total) : 0;
  const int end = std::min(total, begin + size);
  for (int i = begin; i < end; ++i) {
    *response.add_moves() = ToLegalMove(legal[static_cast<std::size_t>(i)]);
  }
  if (end < total) {
    response.set_next_page_token(EncodeMovesPageToken(game_id, {state.ply(), end}));
  }
  return absl::OkStatus();
}

// --- WatchGame ---------------------------------------------------------------

grpc::ServerWriteReactor<v1::GameEvent>* GameServiceImpl::WatchGame(
    grpc::CallbackServerContext*, const v1::WatchGameRequest* request) {
  platform::StreamWatchOptions<v1::GameEvent> options;
  options.is_last = [](const v1::GameEvent& event) { return event.has_game_ended(); };
  if (deps_.metrics != nullptr) {
    options.on_start = [metrics = deps_.metrics] { metrics->WatchStarted(); };
    options.on_end = [metrics = deps_.metrics] { metrics->WatchEnded(); };
  }
  return platform::OpenStreamWatch<v1::GameEvent>(watch_pump_, blocking_, std::move(options),
                                                  [this, request] { return OpenWatch(*request); });
}

absl::StatusOr<std::unique_ptr<EventSubscription>> GameServiceImpl::OpenWatch(
    const v1::WatchGameRequest& request) {
  DRAUGHTS_RETURN_IF_ERROR(ValidateGameId(request.game_id()));
  DRAUGHTS_ASSIGN_OR_RETURN(std::optional<platform::EventId> from,
                            platform::ParseResumePoint("from_event_id", request.from_event_id()));
  if (shutting_down_.load()) return Draining();
  DRAUGHTS_ASSIGN_OR_RETURN(StoredGame game, deps_.store->Load(request.game_id()));
  if (from.has_value()) {
    absl::StatusOr<platform::EventId> last = platform::ParseEventId(game.state().last_event_id());
    if (last.ok()) {
      // The caller received from_event_id before this call, so the game's
      // last event cannot be older: the id is another game's, or its events
      // were lost with Redis. Waiting for it could take for ever.
      if (*from > *last) {
        return absl::FailedPreconditionError(absl::StrCat(
            "from_event_id ", request.from_event_id(), " is past the game's last event ",
            game.state().last_event_id(), ": call GetGame and resume from its last_event_id"));
      }
      // A finished game's stream ends with GameEnded: resuming from it
      // there is nothing more to send (and nothing will ever come).
      if (*from == *last && IsOver(game.state())) return nullptr;
    }
  }
  return deps_.feed->Subscribe(request.game_id(), request.from_event_id());
}

// --- ResolvePlayerToken ------------------------------------------------------

grpc::Status GameServiceImpl::ResolvePlayerToken(grpc::ServerContext*,
                                                 const v1::ResolvePlayerTokenRequest* request,
                                                 v1::ResolvePlayerTokenResponse* response) {
  DRAUGHTS_GRPC_RETURN_IF_ERROR(ValidateGameId(request->game_id()));
  DRAUGHTS_GRPC_RETURN_IF_ERROR(CheckTokenPresent(request->player_token()));
  DRAUGHTS_GRPC_ASSIGN_OR_RETURN(StoredGame game, deps_.store->Load(request->game_id()));
  DRAUGHTS_GRPC_ASSIGN_OR_RETURN(v1::Color color, AuthenticateSeat(game, request->player_token()));
  response->set_color(color);
  *response->mutable_seat() = PlayerOf(game.state(), color).seat();
  return grpc::Status::OK;
}

}  // namespace draughts::game_state
