// The acting calls on one table: CreateTable, JoinTable, LeaveTable,
// FillSeatsWithBots, StartGame, VoteRematch. Each claims its idempotency
// key first (a repeat of a finished call answers with the table as it is),
// then changes the table through Mutate.
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "matchmaking/matchmaking_service.h"
#include "matchmaking/table_ids.h"
#include "platform/idempotency.h"
#include "platform/logging.h"
#include "platform/proto_time.h"
#include "platform/status_macros.h"
#include "platform/variant_config.h"

namespace draughts::matchmaking {
namespace {

constexpr std::size_t kMaxPasswordBytes = 64;

v1::TableEvent SeatTaken(int index, const v1::Seat& occupant) {
  v1::TableEvent event;
  event.mutable_seat_taken()->set_index(index);
  *event.mutable_seat_taken()->mutable_occupant() = occupant;
  return event;
}

v1::TableEvent Closed(v1::TableClosed::Reason reason) {
  v1::TableEvent event;
  event.mutable_table_closed()->set_reason(reason);
  return event;
}

// READY once both seats are filled before any game (or after one).
void SettleStatus(v1::Table& table) {
  if (table.status() == v1::TABLE_STATUS_WAITING && !HasOpenSeat(table)) {
    table.set_status(v1::TABLE_STATUS_READY);
  }
}

absl::Status RequireSeated(const v1::Table& table, const v1::Seat& requester) {
  if (SeatsOf(table, requester.player_id()).empty()) {
    return absl::PermissionDeniedError("the requester is not seated at this table");
  }
  return absl::OkStatus();
}

absl::Status RequireNotClosed(const v1::Table& table) {
  if (table.status() == v1::TABLE_STATUS_CLOSED) {
    return absl::FailedPreconditionError("the table is closed");
  }
  return absl::OkStatus();
}

v1::Seat SeatOf(const v1::Table& table, v1::Color color) {
  for (const v1::TableSeat& seat : table.seats()) {
    if (seat.color() == color) return seat.occupant();
  }
  return v1::Seat();
}

}  // namespace

// --- CreateTable -------------------------------------------------------------

absl::StatusOr<StoredTable> MatchmakingServiceImpl::OpenTable(v1::Table table,
                                                              const std::string& password,
                                                              v1::Color creator_color,
                                                              const std::string& quick_queue,
                                                              bool fresh_id) {
  const std::string id = table.table_id();
  if (!fresh_id) {
    absl::StatusOr<StoredTable> existing = deps_.store->Load(id);
    if (existing.ok()) return existing;
    if (!absl::IsNotFound(existing.status())) return existing.status();
  }
  std::string code;
  for (int attempt = 0; attempt < 4 && code.empty(); ++attempt) {
    std::string candidate = NewInviteCode();
    DRAUGHTS_ASSIGN_OR_RETURN(bool reserved, deps_.store->ReserveInviteCode(candidate, id));
    if (reserved) code = std::move(candidate);
  }
  if (code.empty()) return absl::UnavailableError("could not draw a free invite code; retry");
  table.set_invite_code(code);
  const absl::Time now = Now();
  *table.mutable_created_at() = platform::ToProtoTime(now);
  TableWrite write;
  write.table = table;
  write.events.emplace_back().mutable_table_opened();
  for (const v1::TableSeat& seat : table.seats()) {
    if (seat.has_occupant()) write.events.push_back(SeatTaken(seat.index(), seat.occupant()));
  }
  if (!password.empty()) {
    DRAUGHTS_ASSIGN_OR_RETURN(std::string hash, deps_.passwords->Hash(password));
    write.fields.emplace_back(kFieldPassword, std::move(hash));
  }
  if (creator_color != v1::COLOR_UNSPECIFIED) {
    write.fields.emplace_back(kFieldCreatorColor, absl::StrCat(static_cast<int>(creator_color)));
  }
  if (!quick_queue.empty()) write.fields.emplace_back(kFieldQuickQueue, quick_queue);
  StoredTable opened;
  opened.version = 1;
  opened.table = table;
  ApplyFields(write.fields, opened);
  absl::StatusOr<std::string> committed = deps_.store->Commit(id, 0, std::move(write), now);
  if (!committed.ok() && !absl::IsAlreadyExists(committed.status())) return committed.status();
  if (committed.ok() && deps_.metrics != nullptr) deps_.metrics->TableOpened();
  if (quick_queue.empty() && !table.hotseat() && !table.vs_computer()) {
    DRAUGHTS_RETURN_IF_ERROR(deps_.store->AddToLobby(id, now));
  }
  if (quick_queue.empty()) {
    DRAUGHTS_RETURN_IF_ERROR(deps_.store->AddCreatorTable(table.creator_player_id(), id, now));
  }
  // Created here: it stands as written. Created by a racing retry: read it.
  if (committed.ok()) return opened;
  return deps_.store->Load(id);
}

absl::StatusOr<v1::CreateTableResponse> MatchmakingServiceImpl::DoCreateTable(
    const v1::CreateTableRequest& request) {
  DRAUGHTS_RETURN_IF_ERROR(platform::ValidateIdempotencyKey(request.idempotency_key()));
  DRAUGHTS_RETURN_IF_ERROR(CheckRequester(request.requester()));
  DRAUGHTS_RETURN_IF_ERROR(
      platform::ConfigureVariant(request.variant(), request.options()).status());
  DRAUGHTS_ASSIGN_OR_RETURN(
      absl::Duration time_per_move,
      ChooseTimePerMove(request.variant(), request.options(),
                        request.has_time_per_move() ? &request.time_per_move() : nullptr,
                        options_.allow_one_second));
  if (request.rated() && (request.vs_computer() || request.hotseat())) {
    return absl::InvalidArgumentError(
        "a game against the computer or on one device is never rated");
  }
  if (request.rated() && request.requester().kind() == v1::SEAT_KIND_GUEST) {
    return absl::InvalidArgumentError("guests play unrated games only");
  }
  if (request.vs_computer() && request.hotseat()) {
    return absl::InvalidArgumentError("vs_computer and hotseat exclude each other");
  }
  if (request.creator_color() != v1::COLOR_UNSPECIFIED && !request.vs_computer()) {
    return absl::InvalidArgumentError("creator_color is only for a game against the computer");
  }
  if (!v1::Color_IsValid(request.creator_color()) || !v1::BotLevel_IsValid(request.bot_level())) {
    return absl::InvalidArgumentError("unknown creator_color or bot_level");
  }
  if (request.password().size() > kMaxPasswordBytes) {
    return absl::InvalidArgumentError("password is longer than 64 bytes");
  }
  const v1::Seat& requester = request.requester();
  DRAUGHTS_ASSIGN_OR_RETURN(
      KeyClaim claim,
      deps_.store->ClaimKey("create", requester.player_id(), request.idempotency_key(),
                            platform::RequestFingerprint(request), NewTableId()));
  if (claim.kind == KeyClaim::Kind::kNew || !claim.done) {
    DRAUGHTS_ASSIGN_OR_RETURN(std::vector<std::string> mine,
                              deps_.store->CreatorTables(requester.player_id()));
    DRAUGHTS_ASSIGN_OR_RETURN(std::vector<std::optional<StoredTable>> tables,
                              deps_.store->LoadMany(mine));
    int open = 0;
    for (std::size_t i = 0; i < mine.size(); ++i) {
      if (mine[i] == claim.table_id) continue;
      if (tables[i].has_value() && tables[i]->table.status() != v1::TABLE_STATUS_CLOSED) {
        ++open;
      } else {
        (void)deps_.store->ForgetCreatorTable(requester.player_id(), mine[i]);
      }
    }
    if (open >= options_.max_open_tables) {
      return absl::ResourceExhaustedError(
          absl::StrCat("you already have ", open, " open tables (at most ",
                       options_.max_open_tables, "): leave one first"));
    }
  }
  v1::Table table;
  table.set_table_id(claim.table_id);
  table.set_variant(request.variant());
  *table.mutable_options() = request.options();
  table.mutable_time_per_move()->set_seconds(absl::ToInt64Seconds(time_per_move));
  table.set_rated(request.rated());
  table.set_has_password(!request.password().empty());
  table.set_vs_computer(request.vs_computer());
  table.set_hotseat(request.hotseat());
  table.set_creator_player_id(requester.player_id());
  for (int i = 0; i < 2; ++i) table.add_seats()->set_index(i);
  *table.mutable_seats(0)->mutable_occupant() = requester;
  if (request.vs_computer()) {
    *table.mutable_seats(1)->mutable_occupant() = BotSeat(request.bot_level(), "");
  } else if (request.hotseat()) {
    *table.mutable_seats(1)->mutable_occupant() = requester;
  }
  table.set_status(HasOpenSeat(table) ? v1::TABLE_STATUS_WAITING : v1::TABLE_STATUS_READY);
  DRAUGHTS_ASSIGN_OR_RETURN(StoredTable stored, OpenTable(std::move(table), request.password(),
                                                          request.creator_color(), ""));
  DRAUGHTS_RETURN_IF_ERROR(
      deps_.store->MarkKeyDone("create", requester.player_id(), request.idempotency_key()));
  v1::CreateTableResponse response;
  Show(stored, &requester, response.mutable_table(), nullptr);
  return response;
}

// --- JoinTable ---------------------------------------------------------------

absl::Status MatchmakingServiceImpl::CheckPassword(const std::string& table_id,
                                                   const std::optional<StoredTable>& table,
                                                   const v1::Seat& requester,
                                                   const std::string& password) {
  DRAUGHTS_ASSIGN_OR_RETURN(
      bool allowed,
      deps_.store->GuessesAllowed(table_id, requester.player_id(), options_.guesses_per_table,
                                  options_.guesses_per_player));
  if (!allowed) {
    return absl::ResourceExhaustedError(
        "too many wrong passwords for this table or from you lately: try again later");
  }
  bool right = false;
  if (table.has_value()) {
    right = deps_.passwords->Verify(table->password_hash, password);
  } else {
    deps_.passwords->VerifyNothing(password);
  }
  if (right) return absl::OkStatus();
  DRAUGHTS_RETURN_IF_ERROR(
      deps_.store->CountWrongGuess(table_id, requester.player_id(), options_.guess_window));
  if (deps_.metrics != nullptr) deps_.metrics->WrongPassword();
  // One message for a wrong password and an unknown table: a guesser
  // learns nothing about which ids exist.
  return absl::PermissionDeniedError("wrong table id or password");
}

absl::StatusOr<v1::JoinTableResponse> MatchmakingServiceImpl::DoJoinTable(
    const v1::JoinTableRequest& request) {
  DRAUGHTS_RETURN_IF_ERROR(platform::ValidateIdempotencyKey(request.idempotency_key()));
  DRAUGHTS_RETURN_IF_ERROR(CheckRequester(request.requester()));
  const v1::Seat& requester = request.requester();
  std::string table_id;
  const bool by_code = request.target_case() == v1::JoinTableRequest::kInviteCode;
  if (by_code) {
    if (request.invite_code().empty() || request.invite_code().size() > 64) {
      return absl::InvalidArgumentError("invite_code must be 1-64 characters");
    }
    DRAUGHTS_ASSIGN_OR_RETURN(table_id, deps_.store->ResolveInviteCode(request.invite_code()));
  } else if (request.target_case() == v1::JoinTableRequest::kTableId) {
    DRAUGHTS_RETURN_IF_ERROR(CheckTableId(request.table_id()));
    table_id = request.table_id();
  } else {
    return absl::InvalidArgumentError("give table_id or invite_code");
  }
  if (request.password().size() > kMaxPasswordBytes) {
    return absl::InvalidArgumentError("password is longer than 64 bytes");
  }
  DRAUGHTS_ASSIGN_OR_RETURN(
      KeyClaim claim,
      deps_.store->ClaimKey("join", requester.player_id(), request.idempotency_key(),
                            platform::RequestFingerprint(request), table_id));
  absl::StatusOr<StoredTable> loaded = deps_.store->Load(table_id);
  if (!loaded.ok() && !absl::IsNotFound(loaded.status())) return loaded.status();
  std::optional<StoredTable> found;
  if (loaded.ok() && loaded->table.status() != v1::TABLE_STATUS_CLOSED) found = *loaded;
  const bool seated = found.has_value() && !SeatsOf(found->table, requester.player_id()).empty();
  if (!by_code && !seated && !(claim.kind == KeyClaim::Kind::kRepeat && claim.done)) {
    if (!found.has_value()) {
      if (!request.password().empty()) {
        return CheckPassword(table_id, std::nullopt, requester, request.password());
      }
      if (loaded.ok()) return absl::FailedPreconditionError("the table is closed");
      return absl::NotFoundError(absl::StrCat("table \"", table_id, "\" not found"));
    }
    if (!found->password_hash.empty()) {
      if (request.password().empty()) {
        return absl::PermissionDeniedError("this table is private: give its password");
      }
      DRAUGHTS_RETURN_IF_ERROR(CheckPassword(table_id, found, requester, request.password()));
    }
  }
  if (!loaded.ok()) return loaded.status();
  DRAUGHTS_ASSIGN_OR_RETURN(
      StoredTable stored,
      Mutate(table_id,
             [&](const StoredTable& current) -> absl::StatusOr<std::optional<TableWrite>> {
               const v1::Table& table = current.table;
               if (!SeatsOf(table, requester.player_id()).empty()) return std::nullopt;
               DRAUGHTS_RETURN_IF_ERROR(RequireNotClosed(table));
               if (table.rated() && requester.kind() == v1::SEAT_KIND_GUEST) {
                 return absl::FailedPreconditionError("guests cannot join a rated table");
               }
               if (!current.quick_queue.empty()) {
                 return absl::FailedPreconditionError(
                     "a quick-pair table is waiting for its pairing; use QuickPair");
               }
               TableWrite write;
               write.table = table;
               for (v1::TableSeat& seat : *write.table.mutable_seats()) {
                 if (!IsOpen(seat)) continue;
                 *seat.mutable_occupant() = requester;
                 seat.set_rematch_vote(false);
                 write.events.push_back(SeatTaken(seat.index(), requester));
                 SettleStatus(write.table);
                 return write;
               }
               return absl::FailedPreconditionError("the table has no open seat");
             }));
  DRAUGHTS_RETURN_IF_ERROR(
      deps_.store->MarkKeyDone("join", requester.player_id(), request.idempotency_key()));
  v1::JoinTableResponse response;
  Show(stored, &requester, response.mutable_table(), nullptr);
  return response;
}

// --- LeaveTable --------------------------------------------------------------

absl::StatusOr<v1::LeaveTableResponse> MatchmakingServiceImpl::DoLeaveTable(
    const v1::LeaveTableRequest& request) {
  DRAUGHTS_RETURN_IF_ERROR(platform::ValidateIdempotencyKey(request.idempotency_key()));
  DRAUGHTS_RETURN_IF_ERROR(CheckRequester(request.requester()));
  DRAUGHTS_RETURN_IF_ERROR(CheckTableId(request.table_id()));
  const v1::Seat& requester = request.requester();
  DRAUGHTS_RETURN_IF_ERROR(deps_.store
                               ->ClaimKey("leave", requester.player_id(), request.idempotency_key(),
                                          platform::RequestFingerprint(request), request.table_id())
                               .status());
  DRAUGHTS_ASSIGN_OR_RETURN(StoredTable before, deps_.store->Load(request.table_id()));
  const std::vector<int> seats = SeatsOf(before.table, requester.player_id());
  if (!before.quick_queue.empty() && before.table.status() == v1::TABLE_STATUS_WAITING &&
      !seats.empty()) {
    DRAUGHTS_RETURN_IF_ERROR(
        deps_.store->LeaveQueue(before.quick_queue, requester.player_id(), request.table_id())
            .status());
  }
  // Leaving during a game loses it (or hands the seat to the computer with
  // computer_plays_for_absent): game_state decides, from DeclareAbandoned.
  if (!seats.empty() && before.table.status() == v1::TABLE_STATUS_PLAYING) {
    const v1::Color color = before.table.seats(seats.front()).color();
    for (int attempt = 0; attempt < 8; ++attempt) {
      v1::GetGameRequest get;
      get.set_game_id(before.table.game_id());
      DRAUGHTS_ASSIGN_OR_RETURN(
          v1::GetGameResponse game,
          deps_.game->Call(&GameClient::Stub::GetGame, get, {.safe_to_retry = true}));
      if (game.game().result() != v1::GAME_RESULT_ONGOING) break;
      v1::DeclareAbandonedRequest abandon;
      abandon.set_game_id(before.table.game_id());
      abandon.set_color(color);
      abandon.set_expected_ply(game.game().ply());
      absl::StatusOr<v1::DeclareAbandonedResponse> declared =
          deps_.game->Call(&GameClient::Stub::DeclareAbandoned, abandon, {.safe_to_retry = true});
      if (declared.ok() || absl::IsFailedPrecondition(declared.status())) break;
      if (!absl::IsAborted(declared.status())) return declared.status();
    }
  }
  DRAUGHTS_ASSIGN_OR_RETURN(
      StoredTable stored,
      Mutate(request.table_id(),
             [&](const StoredTable& current) -> absl::StatusOr<std::optional<TableWrite>> {
               const std::vector<int> mine = SeatsOf(current.table, requester.player_id());
               if (mine.empty() || current.table.status() == v1::TABLE_STATUS_CLOSED) {
                 return std::nullopt;
               }
               TableWrite write;
               write.table = current.table;
               for (int index : mine) {
                 v1::TableSeat& seat = *write.table.mutable_seats(index);
                 v1::TableEvent& left = write.events.emplace_back();
                 left.mutable_seat_left()->set_index(index);
                 *left.mutable_seat_left()->mutable_occupant() = seat.occupant();
                 seat.clear_occupant();
                 seat.set_rematch_vote(false);
               }
               v1::Table& table = write.table;
               const bool computer_stands_in = table.status() == v1::TABLE_STATUS_PLAYING &&
                                               table.options().computer_plays_for_absent();
               if (!HasPeople(table)) {
                 table.set_status(v1::TABLE_STATUS_CLOSED);
                 table.clear_rematch_deadline();
                 write.events.push_back(Closed(v1::TableClosed::REASON_EVERYONE_LEFT));
               } else if (!computer_stands_in) {
                 table.set_status(v1::TABLE_STATUS_WAITING);
                 table.clear_rematch_deadline();
                 for (v1::TableSeat& seat : *table.mutable_seats()) seat.set_rematch_vote(false);
               }
               return write;
             }));
  DRAUGHTS_RETURN_IF_ERROR(
      deps_.store->MarkKeyDone("leave", requester.player_id(), request.idempotency_key()));
  v1::LeaveTableResponse response;
  Show(stored, &requester, response.mutable_table(), nullptr);
  return response;
}

// --- FillSeatsWithBots -------------------------------------------------------

absl::StatusOr<v1::FillSeatsWithBotsResponse> MatchmakingServiceImpl::DoFillSeats(
    const v1::FillSeatsWithBotsRequest& request) {
  DRAUGHTS_RETURN_IF_ERROR(platform::ValidateIdempotencyKey(request.idempotency_key()));
  DRAUGHTS_RETURN_IF_ERROR(CheckRequester(request.requester()));
  DRAUGHTS_RETURN_IF_ERROR(CheckTableId(request.table_id()));
  if (!v1::BotLevel_IsValid(request.level()) ||
      (request.level() == v1::BOT_LEVEL_UNSPECIFIED && request.engine_id().empty())) {
    return absl::InvalidArgumentError("choose a bot level (EASY, MEDIUM, HARD) or an engine_id");
  }
  const v1::Seat& requester = request.requester();
  DRAUGHTS_ASSIGN_OR_RETURN(
      KeyClaim claim,
      deps_.store->ClaimKey("fill", requester.player_id(), request.idempotency_key(),
                            platform::RequestFingerprint(request), request.table_id()));
  DRAUGHTS_ASSIGN_OR_RETURN(StoredTable before, deps_.store->Load(request.table_id()));
  if (before.table.rated()) {
    return absl::InvalidArgumentError("a rated table cannot have bots");
  }
  if (!request.engine_id().empty() && !options_.engines.contains(request.engine_id())) {
    return absl::NotFoundError(absl::StrCat("unknown engine_id \"", request.engine_id(), "\""));
  }
  if (before.table.creator_player_id() != requester.player_id()) {
    return absl::PermissionDeniedError("only the table's creator fills seats with bots");
  }
  const bool repeat = claim.kind == KeyClaim::Kind::kRepeat && claim.done;
  DRAUGHTS_ASSIGN_OR_RETURN(
      StoredTable stored,
      Mutate(request.table_id(),
             [&](const StoredTable& current) -> absl::StatusOr<std::optional<TableWrite>> {
               if (repeat) return std::nullopt;
               DRAUGHTS_RETURN_IF_ERROR(RequireNotClosed(current.table));
               if (current.table.status() == v1::TABLE_STATUS_PLAYING) {
                 return absl::FailedPreconditionError("a game is in progress");
               }
               if (!current.quick_queue.empty()) {
                 return absl::FailedPreconditionError(
                     "a quick-pair table is waiting for its pairing");
               }
               if (!HasOpenSeat(current.table)) {
                 return absl::FailedPreconditionError("the table has no open seat");
               }
               TableWrite write;
               write.table = current.table;
               const v1::Seat bot = BotSeat(request.level(), request.engine_id());
               for (v1::TableSeat& seat : *write.table.mutable_seats()) {
                 if (!IsOpen(seat)) continue;
                 *seat.mutable_occupant() = bot;
                 seat.set_rematch_vote(write.table.status() == v1::TABLE_STATUS_FINISHED);
                 write.events.push_back(SeatTaken(seat.index(), bot));
               }
               SettleStatus(write.table);
               return write;
             }));
  DRAUGHTS_RETURN_IF_ERROR(
      deps_.store->MarkKeyDone("fill", requester.player_id(), request.idempotency_key()));
  v1::FillSeatsWithBotsResponse response;
  Show(stored, &requester, response.mutable_table(), nullptr);
  return response;
}

// --- StartGame ---------------------------------------------------------------

absl::StatusOr<StoredTable> MatchmakingServiceImpl::StartNextGame(const std::string& table_id,
                                                                  const StoredTable* known) {
  StoredTable stored;
  if (known != nullptr) {
    stored = *known;
  } else {
    DRAUGHTS_ASSIGN_OR_RETURN(stored, deps_.store->Load(table_id));
  }
  const int number = stored.table.games_played() + 1;
  if (stored.table.status() == v1::TABLE_STATUS_PLAYING) return stored;
  DRAUGHTS_RETURN_IF_ERROR(RequireNotClosed(stored.table));
  if (stored.table.status() == v1::TABLE_STATUS_FINISHED) {
    return absl::FailedPreconditionError("the table's game is over: use VoteRematch");
  }
  if (stored.table.status() != v1::TABLE_STATUS_READY || HasOpenSeat(stored.table)) {
    return absl::FailedPreconditionError("a seat is open");
  }
  // Fix the colours first, so every replica racing to start this game asks
  // game_state for the same one.
  DRAUGHTS_ASSIGN_OR_RETURN(
      stored,
      Mutate(
          table_id,
          [&](const StoredTable& current) -> absl::StatusOr<std::optional<TableWrite>> {
            if (current.table.status() != v1::TABLE_STATUS_READY ||
                current.table.games_played() + 1 != number || current.pending_start == number) {
              return std::nullopt;
            }
            TableWrite write;
            write.table = current.table;
            const v1::Color first = SeatZeroColor(current.table, current.creator_color, deps_.coin);
            write.table.mutable_seats(0)->set_color(first);
            write.table.mutable_seats(1)->set_color(first == v1::COLOR_WHITE ? v1::COLOR_BLACK
                                                                             : v1::COLOR_WHITE);
            write.fields.emplace_back(kFieldPendingStart, absl::StrCat(number));
            return write;
          },
          &stored));
  if (stored.table.status() == v1::TABLE_STATUS_PLAYING) return stored;
  if (stored.table.status() != v1::TABLE_STATUS_READY) {
    return absl::AbortedError("the table changed while its game was starting; retry");
  }
  const v1::Table& table = stored.table;
  v1::CreateGameRequest create;
  create.set_idempotency_key(absl::StrCat("mm.", table_id, ".", number));
  create.set_variant(table.variant());
  *create.mutable_options() = table.options();
  *create.mutable_white() = SeatOf(table, v1::COLOR_WHITE);
  *create.mutable_black() = SeatOf(table, v1::COLOR_BLACK);
  if (platform::FromProtoDuration(table.time_per_move()) > absl::ZeroDuration()) {
    *create.mutable_time_per_move() = table.time_per_move();
  }
  create.set_rated(table.rated() && create.white().kind() == v1::SEAT_KIND_PERSON &&
                   create.black().kind() == v1::SEAT_KIND_PERSON);
  create.set_table_id(table_id);
  DRAUGHTS_ASSIGN_OR_RETURN(
      v1::CreateGameResponse created,
      deps_.game->Call(&GameClient::Stub::CreateGame, create, {.safe_to_retry = true}));
  if (created.white_player_token().empty() || created.black_player_token().empty()) {
    // A retry answered on a game_state replica without the shared token
    // secret: the first caller holds the tokens and will write them.
    return absl::UnavailableError("the game's tokens are not available here yet; retry");
  }
  v1::StartGameResponse tokens;
  for (auto [color, token] : {std::pair{v1::COLOR_WHITE, created.white_player_token()},
                              std::pair{v1::COLOR_BLACK, created.black_player_token()}}) {
    v1::PlayerToken& entry = *tokens.add_your_tokens();
    entry.set_game_id(created.game_id());
    entry.set_color(color);
    entry.set_player_token(token);
  }
  const std::string sealed = deps_.token_box->Seal(tokens.SerializeAsString());
  DRAUGHTS_ASSIGN_OR_RETURN(
      stored, Mutate(
                  table_id,
                  [&](const StoredTable& current) -> absl::StatusOr<std::optional<TableWrite>> {
                    if (current.table.status() != v1::TABLE_STATUS_READY ||
                        current.pending_start != number) {
                      return std::nullopt;
                    }
                    TableWrite write;
                    write.table = current.table;
                    write.table.set_status(v1::TABLE_STATUS_PLAYING);
                    write.table.set_game_id(created.game_id());
                    write.table.set_games_played(number);
                    write.table.clear_rematch_deadline();
                    for (v1::TableSeat& seat : *write.table.mutable_seats())
                      seat.set_rematch_vote(false);
                    write.fields.emplace_back(kFieldPendingStart, "");
                    write.fields.emplace_back(kFieldTokens, sealed);
                    v1::TableEvent& started = write.events.emplace_back();
                    started.mutable_game_started()->set_game_id(created.game_id());
                    started.mutable_game_started()->set_game_number(number);
                    return write;
                  },
                  &stored));
  if (stored.table.status() != v1::TABLE_STATUS_PLAYING) {
    return absl::AbortedError("the table changed while its game was starting; retry");
  }
  return stored;
}

absl::StatusOr<v1::StartGameResponse> MatchmakingServiceImpl::DoStartGame(
    const v1::StartGameRequest& request) {
  DRAUGHTS_RETURN_IF_ERROR(platform::ValidateIdempotencyKey(request.idempotency_key()));
  DRAUGHTS_RETURN_IF_ERROR(CheckRequester(request.requester()));
  DRAUGHTS_RETURN_IF_ERROR(CheckTableId(request.table_id()));
  const v1::Seat& requester = request.requester();
  DRAUGHTS_ASSIGN_OR_RETURN(
      KeyClaim claim,
      deps_.store->ClaimKey("start", requester.player_id(), request.idempotency_key(),
                            platform::RequestFingerprint(request), request.table_id()));
  DRAUGHTS_ASSIGN_OR_RETURN(StoredTable stored, deps_.store->Load(request.table_id()));
  DRAUGHTS_RETURN_IF_ERROR(RequireSeated(stored.table, requester));
  if (!(claim.kind == KeyClaim::Kind::kRepeat && claim.done)) {
    DRAUGHTS_ASSIGN_OR_RETURN(stored, StartNextGame(request.table_id()));
    DRAUGHTS_RETURN_IF_ERROR(
        deps_.store->MarkKeyDone("start", requester.player_id(), request.idempotency_key()));
  }
  v1::StartGameResponse response;
  Show(stored, &requester, response.mutable_table(), response.mutable_your_tokens());
  return response;
}

// --- VoteRematch -------------------------------------------------------------

absl::StatusOr<v1::VoteRematchResponse> MatchmakingServiceImpl::DoVoteRematch(
    const v1::VoteRematchRequest& request) {
  DRAUGHTS_RETURN_IF_ERROR(platform::ValidateIdempotencyKey(request.idempotency_key()));
  DRAUGHTS_RETURN_IF_ERROR(CheckRequester(request.requester()));
  DRAUGHTS_RETURN_IF_ERROR(CheckTableId(request.table_id()));
  const v1::Seat& requester = request.requester();
  DRAUGHTS_ASSIGN_OR_RETURN(
      KeyClaim claim,
      deps_.store->ClaimKey("rematch", requester.player_id(), request.idempotency_key(),
                            platform::RequestFingerprint(request), request.table_id()));
  DRAUGHTS_ASSIGN_OR_RETURN(StoredTable stored, deps_.store->Load(request.table_id()));
  DRAUGHTS_RETURN_IF_ERROR(RequireSeated(stored.table, requester));
  const int voted_after = stored.table.games_played();
  if (!(claim.kind == KeyClaim::Kind::kRepeat && claim.done)) {
    const absl::Time now = Now();
    DRAUGHTS_ASSIGN_OR_RETURN(
        stored,
        Mutate(
            request.table_id(),
            [&](const StoredTable& current) -> absl::StatusOr<std::optional<TableWrite>> {
              const v1::Table& table = current.table;
              DRAUGHTS_RETURN_IF_ERROR(RequireNotClosed(table));
              if (table.status() == v1::TABLE_STATUS_READY && current.pending_start > 0) {
                return std::nullopt;  // both voted; the next game is starting
              }
              if (table.status() != v1::TABLE_STATUS_FINISHED) {
                return absl::FailedPreconditionError("the table has no finished game to vote on");
              }
              if (now >= platform::FromProtoTime(table.rematch_deadline())) {
                return absl::FailedPreconditionError("the 2-minute \"play again\" window is over");
              }
              if (HasOpenSeat(table)) {
                return absl::FailedPreconditionError("a seat is open: the opponent left");
              }
              TableWrite write;
              write.table = table;
              for (int index : SeatsOf(table, requester.player_id())) {
                v1::TableSeat& seat = *write.table.mutable_seats(index);
                if (seat.rematch_vote()) continue;
                seat.set_rematch_vote(true);
                write.events.emplace_back().mutable_rematch_voted()->set_index(index);
              }
              if (write.events.empty()) return std::nullopt;
              bool all = true;
              for (const v1::TableSeat& seat : write.table.seats())
                all = all && seat.rematch_vote();
              if (all) {
                write.table.set_status(v1::TABLE_STATUS_READY);
                write.table.clear_rematch_deadline();
              }
              return write;
            }));
    if (stored.table.status() == v1::TABLE_STATUS_READY) {
      DRAUGHTS_ASSIGN_OR_RETURN(stored, StartNextGame(request.table_id()));
    }
    DRAUGHTS_RETURN_IF_ERROR(
        deps_.store->MarkKeyDone("rematch", requester.player_id(), request.idempotency_key()));
  }
  v1::VoteRematchResponse response;
  const bool started = stored.table.status() == v1::TABLE_STATUS_PLAYING &&
                       stored.table.games_played() > voted_after - (claim.done ? 1 : 0);
  response.set_started(started);
  Show(stored, &requester, response.mutable_table(),
       started ? response.mutable_your_tokens() : nullptr);
  return response;
}

}  // namespace draughts::matchmaking
