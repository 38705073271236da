// The service's frame: construction, the read-decide-write loop, what a
// requester may see, the read calls (GetTable, ListTables, GetInviteLink,
// WatchTable) and the gRPC edge of every call. The acting calls are in
// table_actions.cc, quick pairing in quick_pair.cc, the rematch window in
// rematch_window.cc.
#include "matchmaking/matchmaking_service.h"

#include <random>

#include "absl/strings/str_cat.h"
#include "matchmaking/table_ids.h"
#include "platform/event_id.h"
#include "platform/logging.h"
#include "platform/page_token.h"
#include "platform/proto_time.h"
#include "platform/status.h"
#include "platform/status_macros.h"
#include "platform/variant_config.h"

namespace draughts::matchmaking {
namespace {

using platform::ToGrpcStatus;

constexpr int kMutateAttempts = 32;
constexpr int kDefaultPage = 20;
constexpr int kMaxPage = 100;
constexpr int kLobbyBatch = 50;
constexpr int kMaxLobbyBatches = 8;

bool FairCoin() {
  thread_local std::mt19937_64 generator(std::random_device{}());
  return std::bernoulli_distribution(0.5)(generator);
}

template <typename Response>
grpc::Status Answer(absl::StatusOr<Response> result, Response* response) {
  if (!result.ok()) return ToGrpcStatus(result.status());
  *response = *std::move(result);
  return grpc::Status::OK;
}

const char* ClosedReasonName(v1::TableClosed::Reason reason) {
  switch (reason) {
    case v1::TableClosed::REASON_EVERYONE_LEFT:
      return "everyone_left";
    case v1::TableClosed::REASON_REMATCH_WINDOW_CLOSED:
      return "rematch_window_closed";
    case v1::TableClosed::REASON_PAIRED:
      return "paired";
    default:
      return "other";
  }
}

}  // namespace

MatchmakingServiceImpl::MatchmakingServiceImpl(MatchmakingDeps deps, MatchmakingOptions options)
    : deps_(std::move(deps)),
      options_(std::move(options)),
      watch_openers_(options_.watch_open_threads) {
  if (!deps_.now) deps_.now = [] { return absl::Now(); };
  if (!deps_.coin) deps_.coin = FairCoin;
}

absl::StatusOr<StoredTable> MatchmakingServiceImpl::Mutate(const std::string& table_id,
                                                           const Decide& decide,
                                                           const StoredTable* known) {
  for (int attempt = 0; attempt < kMutateAttempts; ++attempt) {
    StoredTable stored;
    if (attempt == 0 && known != nullptr) {
      stored = *known;
    } else {
      DRAUGHTS_ASSIGN_OR_RETURN(stored, deps_.store->Load(table_id));
    }
    DRAUGHTS_ASSIGN_OR_RETURN(std::optional<TableWrite> write, decide(stored));
    if (!write.has_value()) return stored;
    // The table as it stands after the write, built here rather than read
    // back: the version check guarantees nothing else changed it.
    StoredTable after = stored;
    after.table = write->table;
    after.version = stored.version + 1;
    ApplyFields(write->fields, after);
    std::vector<v1::TableEvent> events = write->events;
    absl::StatusOr<std::string> committed =
        deps_.store->Commit(table_id, stored.version, *std::move(write), Now());
    if (absl::IsAborted(committed.status())) continue;
    DRAUGHTS_RETURN_IF_ERROR(committed.status());
    for (const v1::TableEvent& event : events) {
      if (deps_.metrics == nullptr) break;
      if (event.has_table_closed()) {
        deps_.metrics->TableClosed(ClosedReasonName(event.table_closed().reason()));
      }
      if (event.has_game_started()) deps_.metrics->GameStarted();
    }
    AfterWrite(stored, after);
    return after;
  }
  return absl::AbortedError("the table kept changing; retry");
}

void MatchmakingServiceImpl::AfterWrite(const StoredTable& before, const StoredTable& after) {
  // Indexes live outside the table's slot; each step is idempotent and a
  // reader skips entries that no longer match (ListTables re-checks).
  const v1::Table& table = after.table;
  absl::Status status;
  if (table.status() == v1::TABLE_STATUS_CLOSED) {
    status.Update(deps_.store->ForgetClosedTable(table.table_id(), table.creator_player_id()));
  } else if (table.status() == v1::TABLE_STATUS_FINISHED && table.has_rematch_deadline()) {
    status.Update(deps_.store->ScheduleRematchEnd(
        table.table_id(), platform::FromProtoTime(table.rematch_deadline())));
  } else if (before.table.status() == v1::TABLE_STATUS_FINISHED) {
    status.Update(deps_.store->UnscheduleRematchEnd(table.table_id()));
  }
  if (!status.ok()) {
    platform::LogWarn("table index update failed",
                      {{"table", table.table_id()}, {"status", status}});
  }
}

void MatchmakingServiceImpl::Show(
    const StoredTable& stored, const v1::Seat* requester, v1::Table* table,
    google::protobuf::RepeatedPtrField<v1::PlayerToken>* tokens) const {
  *table = stored.table;
  std::vector<int> seats;
  if (requester != nullptr && requester->kind() != v1::SEAT_KIND_BOT) {
    seats = SeatsOf(stored.table, requester->player_id());
  }
  if (seats.empty()) {
    table->clear_invite_code();
    return;
  }
  if (tokens == nullptr || stored.sealed_tokens.empty() || deps_.token_box == nullptr) return;
  absl::StatusOr<std::string> opened = deps_.token_box->Open(stored.sealed_tokens);
  v1::StartGameResponse all;
  if (!opened.ok() || !all.ParseFromString(*opened)) {
    platform::LogWarn("a table's sealed tokens do not open (another --token-secret?)",
                      {{"table", stored.table.table_id()}});
    return;
  }
  for (const v1::PlayerToken& token : all.your_tokens()) {
    if (token.game_id() != stored.table.game_id()) continue;
    for (int seat : seats) {
      if (stored.table.seats(seat).color() == token.color()) *tokens->Add() = token;
    }
  }
}

// --- read calls --------------------------------------------------------------

absl::StatusOr<v1::GetTableResponse> MatchmakingServiceImpl::DoGetTable(
    const v1::GetTableRequest& request) {
  DRAUGHTS_RETURN_IF_ERROR(CheckTableId(request.table_id()));
  DRAUGHTS_ASSIGN_OR_RETURN(StoredTable stored, deps_.store->Load(request.table_id()));
  if (stored.table.status() == v1::TABLE_STATUS_CLOSED) {
    return absl::NotFoundError(absl::StrCat("table \"", request.table_id(), "\" is closed"));
  }
  v1::GetTableResponse response;
  Show(stored, request.has_requester() ? &request.requester() : nullptr, response.mutable_table(),
       response.mutable_your_tokens());
  return response;
}

absl::StatusOr<v1::ListTablesResponse> MatchmakingServiceImpl::DoListTables(
    const v1::ListTablesRequest& request) {
  if (request.page_size() < 0) return absl::InvalidArgumentError("page_size is negative");
  const int page_size =
      request.page_size() == 0 ? kDefaultPage : std::min(request.page_size(), kMaxPage);
  if (!request.variant().empty()) {
    DRAUGHTS_RETURN_IF_ERROR(
        platform::ConfigureVariant(request.variant(), v1::VariantOptions()).status());
  }
  std::optional<absl::Duration> time_filter;
  if (request.has_time_per_move()) {
    DRAUGHTS_ASSIGN_OR_RETURN(
        time_filter, platform::CheckProtoDuration(request.time_per_move(), "time_per_move"));
  }
  const std::string filters =
      absl::StrCat(request.variant(), "|", request.open_seats_only() ? 1 : 0, "|",
                   time_filter.has_value() ? absl::FormatDuration(*time_filter) : "-");
  std::optional<std::pair<int64_t, std::string>> after;
  if (!request.page_token().empty()) {
    DRAUGHTS_ASSIGN_OR_RETURN(std::vector<std::string> fields,
                              platform::DecodePageToken(request.page_token(), "mt1", 3));
    int64_t ms = 0;
    if (!platform::ParsePageTokenInt(fields[0], ms) || CheckTableId(fields[1]).ok() == false ||
        fields[2] != platform::PageFilterDigest(filters)) {
      return absl::InvalidArgumentError("page_token is malformed or was issued for other filters");
    }
    after = std::make_pair(ms, fields[1]);
  }
  v1::ListTablesResponse response;
  bool more = false;
  for (int batch = 0; batch < kMaxLobbyBatches; ++batch) {
    DRAUGHTS_ASSIGN_OR_RETURN(auto entries, deps_.store->LobbyPage(after, kLobbyBatch));
    if (entries.empty()) {
      more = false;
      break;
    }
    std::vector<std::string> ids;
    for (const auto& entry : entries) ids.push_back(entry.first);
    DRAUGHTS_ASSIGN_OR_RETURN(std::vector<std::optional<StoredTable>> tables,
                              deps_.store->LoadMany(ids));
    more = static_cast<int>(entries.size()) == kLobbyBatch;
    for (std::size_t i = 0; i < entries.size(); ++i) {
      after = std::make_pair(entries[i].second, entries[i].first);
      if (!tables[i].has_value()) {
        (void)deps_.store->RemoveFromLobby(entries[i].first);
        continue;
      }
      const v1::Table& table = tables[i]->table;
      if (table.status() == v1::TABLE_STATUS_CLOSED) continue;
      if (!request.variant().empty() && table.variant() != request.variant()) continue;
      if (request.open_seats_only() && !HasOpenSeat(table)) continue;
      if (time_filter.has_value() &&
          platform::FromProtoDuration(table.time_per_move()) != *time_filter) {
        continue;
      }
      Show(*tables[i], nullptr, response.add_tables(), nullptr);
      if (response.tables_size() == page_size) {
        more = i + 1 < entries.size() || more;
        break;
      }
    }
    if (response.tables_size() == page_size || !more) break;
  }
  if (more && after.has_value()) {
    response.set_next_page_token(platform::EncodePageToken(
        "mt1", {absl::StrCat(after->first), after->second, platform::PageFilterDigest(filters)}));
  }
  return response;
}

grpc::Status MatchmakingServiceImpl::GetInviteLink(grpc::ServerContext*,
                                                   const v1::GetInviteLinkRequest* request,
                                                   v1::GetInviteLinkResponse* response) {
  DRAUGHTS_GRPC_RETURN_IF_ERROR(CheckRequester(request->requester()));
  DRAUGHTS_GRPC_RETURN_IF_ERROR(CheckTableId(request->table_id()));
  DRAUGHTS_GRPC_ASSIGN_OR_RETURN(StoredTable stored, deps_.store->Load(request->table_id()));
  if (stored.table.status() == v1::TABLE_STATUS_CLOSED) {
    return ToGrpcStatus(absl::NotFoundError("the table is closed"));
  }
  if (SeatsOf(stored.table, request->requester().player_id()).empty()) {
    return ToGrpcStatus(absl::PermissionDeniedError("only a player seated at the table"));
  }
  response->set_invite_code(stored.table.invite_code());
  response->set_path(absl::StrCat("/join/", stored.table.invite_code()));
  return grpc::Status::OK;
}

absl::StatusOr<std::unique_ptr<platform::MessageFeed<v1::TableEvent>>>
MatchmakingServiceImpl::OpenWatch(const v1::WatchTableRequest& request) {
  DRAUGHTS_RETURN_IF_ERROR(CheckTableId(request.table_id()));
  DRAUGHTS_ASSIGN_OR_RETURN(std::optional<platform::EventId> from,
                            platform::ParseResumePoint("from_event_id", request.from_event_id()));
  if (shutting_down_.load()) return Draining();
  DRAUGHTS_ASSIGN_OR_RETURN(StoredTable stored, deps_.store->Load(request.table_id()));
  const std::string key = deps_.store->EventsKey(request.table_id());
  DRAUGHTS_ASSIGN_OR_RETURN(platform::StreamEnds ends, deps_.feed->ReadEnds(key));
  if (!ends.first.has_value()) return absl::NotFoundError("the table has no events (expired?)");
  if (from.has_value()) {
    DRAUGHTS_ASSIGN_OR_RETURN(platform::EventId first, platform::ParseEventId(ends.first->id));
    DRAUGHTS_ASSIGN_OR_RETURN(platform::EventId last, platform::ParseEventId(ends.last->id));
    if (*from > last) {
      return absl::FailedPreconditionError(
          absl::StrCat("from_event_id is past the table's last event ", ends.last->id,
                       ": call GetTable and watch from the beginning"));
    }
    v1::TableEvent oldest;
    const std::string* data = ends.first->Find("data");
    if (data != nullptr && oldest.ParseFromString(*data) && !oldest.has_table_opened() &&
        *from < first) {
      return absl::FailedPreconditionError(
          "from_event_id is older than the retained events: call GetTable and watch from the "
          "beginning");
    }
    if (*from == last && stored.table.status() == v1::TABLE_STATUS_CLOSED) return nullptr;
  }
  DRAUGHTS_ASSIGN_OR_RETURN(std::unique_ptr<platform::StreamSubscription> entries,
                            deps_.feed->Subscribe(key, from, ends.LastId()));
  return std::make_unique<platform::EntryFeed<v1::TableEvent>>(
      std::move(entries), [](platform::StreamEntry entry) -> absl::StatusOr<v1::TableEvent> {
        const std::string* data = entry.Find("data");
        v1::TableEvent event;
        if (data == nullptr || !event.ParseFromString(*data)) {
          return absl::InternalError(absl::StrCat("table event ", entry.id, " does not parse"));
        }
        event.set_event_id(std::move(entry.id));
        return event;
      });
}

absl::Status MatchmakingServiceImpl::Draining() {
  return absl::UnavailableError(
      "the server is shutting down: resume from the last event id received, on any replica");
}

void MatchmakingServiceImpl::BeginShutdown() {
  shutting_down_.store(true);
  watch_pump_.Drain(ToGrpcStatus(Draining()));
}

// --- the gRPC edge -----------------------------------------------------------

grpc::Status MatchmakingServiceImpl::CreateTable(grpc::ServerContext*,
                                                 const v1::CreateTableRequest* request,
                                                 v1::CreateTableResponse* response) {
  return Answer(DoCreateTable(*request), response);
}
grpc::Status MatchmakingServiceImpl::GetTable(grpc::ServerContext*,
                                              const v1::GetTableRequest* request,
                                              v1::GetTableResponse* response) {
  return Answer(DoGetTable(*request), response);
}
grpc::Status MatchmakingServiceImpl::ListTables(grpc::ServerContext*,
                                                const v1::ListTablesRequest* request,
                                                v1::ListTablesResponse* response) {
  return Answer(DoListTables(*request), response);
}
grpc::Status MatchmakingServiceImpl::JoinTable(grpc::ServerContext*,
                                               const v1::JoinTableRequest* request,
                                               v1::JoinTableResponse* response) {
  return Answer(DoJoinTable(*request), response);
}
grpc::Status MatchmakingServiceImpl::LeaveTable(grpc::ServerContext*,
                                                const v1::LeaveTableRequest* request,
                                                v1::LeaveTableResponse* response) {
  return Answer(DoLeaveTable(*request), response);
}
grpc::Status MatchmakingServiceImpl::FillSeatsWithBots(grpc::ServerContext*,
                                                       const v1::FillSeatsWithBotsRequest* request,
                                                       v1::FillSeatsWithBotsResponse* response) {
  return Answer(DoFillSeats(*request), response);
}
grpc::Status MatchmakingServiceImpl::QuickPair(grpc::ServerContext*,
                                               const v1::QuickPairRequest* request,
                                               v1::QuickPairResponse* response) {
  return Answer(DoQuickPair(*request), response);
}
grpc::Status MatchmakingServiceImpl::StartGame(grpc::ServerContext*,
                                               const v1::StartGameRequest* request,
                                               v1::StartGameResponse* response) {
  return Answer(DoStartGame(*request), response);
}
grpc::Status MatchmakingServiceImpl::VoteRematch(grpc::ServerContext*,
                                                 const v1::VoteRematchRequest* request,
                                                 v1::VoteRematchResponse* response) {
  return Answer(DoVoteRematch(*request), response);
}
grpc::ServerWriteReactor<v1::TableEvent>* MatchmakingServiceImpl::WatchTable(
    grpc::CallbackServerContext*, const v1::WatchTableRequest* request) {
  platform::StreamWatchOptions<v1::TableEvent> options;
  options.is_last = [](const v1::TableEvent& event) { return event.has_table_closed(); };
  return platform::OpenStreamWatch<v1::TableEvent>(watch_pump_, watch_openers_, std::move(options),
                                                   [this, request] { return OpenWatch(*request); });
}

}  // namespace draughts::matchmaking
