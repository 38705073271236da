#include "rating/pg_archive_store.h"

#include <google/protobuf/util/json_util.h>
#include <google/protobuf/util/message_differencer.h>
#include <google/protobuf/util/time_util.h>

#include <map>
#include <pqxx/binarystring>
#include <pqxx/result>
#include <pqxx/transaction_base>
#include <set>
#include <utility>

#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "platform/status_macros.h"
#include "rating/rating_book.h"
#include "rating/result_rules.h"

namespace draughts::rating {
namespace {

using google::protobuf::util::TimeUtil;

// Every batch statement takes its rows as text[] parameters, one per
// column, unnested and cast in SQL: one round trip for any number of rows.
// Times go as microseconds since the epoch and are rebuilt exactly ('' =
// unset); the record as hex.
constexpr const char* kInsertGamesSql = R"sql(
INSERT INTO archived_games (
  game_id, table_id, variant, variant_options, rated,
  white_kind, white_player_id, white_display_name,
  black_kind, black_player_id, black_display_name,
  result, reason, ended_by, ply, initial_fen, moves, final_fen, time_per_move_ms,
  started_at, finished_at, archived_at, record)
SELECT
  u.game_id, u.table_id, u.variant, u.options::jsonb, u.rated::boolean,
  u.white_kind, u.white_player_id, u.white_display_name,
  u.black_kind, u.black_player_id, u.black_display_name,
  u.result, u.reason, u.ended_by, u.ply::integer, u.initial_fen, u.moves::text[], u.final_fen,
  u.time_per_move_ms::bigint,
  CASE WHEN u.started_us <> '' THEN 'epoch'::timestamptz + u.started_us::bigint * interval '1 microsecond' END,
  CASE WHEN u.finished_us <> '' THEN 'epoch'::timestamptz + u.finished_us::bigint * interval '1 microsecond' END,
  'epoch'::timestamptz + $23::bigint * interval '1 microsecond',
  decode(u.record, 'hex')
FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[],
            $8::text[], $9::text[], $10::text[], $11::text[], $12::text[], $13::text[], $14::text[],
            $15::text[], $16::text[], $17::text[], $18::text[], $19::text[], $20::text[],
            $21::text[], $22::text[])
  AS u(game_id, table_id, variant, options, rated, white_kind, white_player_id,
       white_display_name, black_kind, black_player_id, black_display_name, result, reason,
       ended_by, ply, initial_fen, moves, final_fen, time_per_move_ms, started_us, finished_us,
       record)
ORDER BY u.game_id
ON CONFLICT (game_id) DO NOTHING
RETURNING game_id)sql";

constexpr const char* kStoredRecordsSql = R"sql(
SELECT game_id, record FROM archived_games WHERE game_id = ANY($1::text[]))sql";

// White's change first, as RecordResultResponse.changes lists them.
constexpr const char* kStoredChangesSql = R"sql(
SELECT game_id, player_id, color, month, elo_before, elo_after
FROM rating_history WHERE game_id = ANY($1::text[]) AND elo_changed
ORDER BY game_id, color = 'COLOR_BLACK')sql";

// Rows a batch needs exist before they are locked, so a concurrent batch
// that creates the same row cannot be overwritten with a stale value.
constexpr const char* kCreateRatingsSql = R"sql(
INSERT INTO ratings (variant, month, player_id, elo, updated_at)
SELECT k.variant, k.month, k.player_id, $4, now()
FROM unnest($1::text[], $2::text[], $3::text[]) AS k(variant, month, player_id)
ORDER BY k.variant, k.month, k.player_id
ON CONFLICT DO NOTHING)sql";

constexpr const char* kLockRatingsSql = R"sql(
SELECT r.variant, r.month, r.player_id, r.display_name, r.elo, r.games, r.wins, r.draws, r.losses
FROM ratings r
JOIN unnest($1::text[], $2::text[], $3::text[]) AS k(variant, month, player_id)
  ON r.variant = k.variant AND r.month = k.month AND r.player_id = k.player_id
ORDER BY r.variant, r.month, r.player_id
FOR UPDATE OF r)sql";

constexpr const char* kUpdateRatingsSql = R"sql(
UPDATE ratings r SET
  display_name = u.display_name, elo = u.elo::integer, games = u.games::integer,
  wins = u.wins::integer, draws = u.draws::integer, losses = u.losses::integer,
  updated_at = 'epoch'::timestamptz + $10::bigint * interval '1 microsecond'
FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[],
            $8::text[], $9::text[])
  AS u(variant, month, player_id, display_name, elo, games, wins, draws, losses)
WHERE r.variant = u.variant AND r.month = u.month AND r.player_id = u.player_id)sql";

constexpr const char* kInsertHistorySql = R"sql(
INSERT INTO rating_history (game_id, player_id, variant, month, finished_at, color, outcome,
  reason, opponent_player_id, opponent, elo_changed, elo_before, elo_after)
SELECT u.game_id, u.player_id, u.variant, u.month,
  'epoch'::timestamptz + u.finished_us::bigint * interval '1 microsecond',
  u.color, u.outcome, u.reason, u.opponent_player_id, decode(u.opponent, 'hex'),
  u.elo_changed::boolean, u.elo_before::integer, u.elo_after::integer
FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[],
            $8::text[], $9::text[], $10::text[], $11::text[], $12::text[], $13::text[])
  AS u(game_id, player_id, variant, month, finished_us, color, outcome, reason,
       opponent_player_id, opponent, elo_changed, elo_before, elo_after))sql";

constexpr const char* kFindSql = R"sql(
SELECT record, (extract(epoch FROM archived_at) * 1000000)::bigint
FROM archived_games WHERE game_id = $1)sql";

template <typename Enum>
std::string EnumText(const std::string& name, Enum value) {
  return name.empty() ? absl::StrCat(static_cast<int>(value)) : name;
}

std::string SeatKindText(const v1::Seat& seat) {
  return EnumText(v1::SeatKind_Name(seat.kind()), seat.kind());
}

std::string MicrosText(bool set, const google::protobuf::Timestamp& at) {
  return set ? absl::StrCat(TimeUtil::TimestampToMicroseconds(at)) : "";
}

// Columns of a batch statement, one text[] parameter each.
class Columns {
 public:
  explicit Columns(size_t count) : columns_(count) {}
  void Row(std::vector<std::string> values) {
    for (size_t i = 0; i < columns_.size(); ++i) columns_[i].push_back(std::move(values[i]));
  }
  std::string operator[](size_t i) const { return TextArrayLiteral(columns_[i]); }
  bool empty() const { return columns_.front().empty(); }

 private:
  std::vector<std::vector<std::string>> columns_;
};

absl::Status AddGameRow(const v1::ResultRecord& record, Columns& rows) {
  std::string options_json;
  if (!google::protobuf::util::MessageToJsonString(record.options(), &options_json).ok()) {
    return absl::InvalidArgumentError("variant options cannot be written as JSON");
  }
  std::string bytes;
  if (!record.SerializeToString(&bytes)) {
    return absl::InvalidArgumentError("record cannot be serialized");
  }
  const std::vector<std::string> moves(record.moves().begin(), record.moves().end());
  rows.Row({record.game_id(),
            record.table_id(),
            record.variant(),
            std::move(options_json),
            record.rated() ? "true" : "false",
            SeatKindText(record.white()),
            record.white().player_id(),
            record.white().display_name(),
            SeatKindText(record.black()),
            record.black().player_id(),
            record.black().display_name(),
            EnumText(v1::GameResult_Name(record.result()), record.result()),
            EnumText(v1::ResultReason_Name(record.reason()), record.reason()),
            EnumText(v1::Color_Name(record.ended_by()), record.ended_by()),
            absl::StrCat(record.ply()),
            record.initial_fen(),
            TextArrayLiteral(moves),
            record.final_fen(),
            absl::StrCat(TimeUtil::DurationToMilliseconds(record.time_per_move())),
            MicrosText(record.has_started_at(), record.started_at()),
            MicrosText(record.has_finished_at(), record.finished_at()),
            absl::BytesToHexString(bytes)});
  return absl::OkStatus();
}

absl::StatusOr<v1::ResultRecord> ParseRecord(const pqxx::field& field) {
  const pqxx::binarystring bytes(field);
  v1::ResultRecord record;
  if (!record.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) {
    return absl::DataLossError("archived_games.record is not a ResultRecord");
  }
  return record;
}

absl::StatusOr<std::optional<ArchivedRecord>> ReadRow(const pqxx::result& rows) {
  if (rows.empty()) return std::optional<ArchivedRecord>();
  ArchivedRecord archived;
  DRAUGHTS_ASSIGN_OR_RETURN(archived.record, ParseRecord(rows[0][0]));
  archived.archived_at = absl::FromUnixMicros(rows[0][1].as<int64_t>());
  return std::optional<ArchivedRecord>(std::move(archived));
}

// The stored records of the games `game_ids` named, and the Elo changes
// they made.
struct StoredGames {
  std::map<std::string, v1::ResultRecord> records;
  std::map<std::string, std::vector<v1::RatingChange>> changes;
};

absl::StatusOr<StoredGames> LoadStored(pqxx::transaction_base& tx,
                                       const std::vector<std::string>& game_ids) {
  StoredGames stored;
  if (game_ids.empty()) return stored;
  const std::string ids = TextArrayLiteral(game_ids);
  for (const pqxx::row& row : tx.exec_params(kStoredRecordsSql, ids)) {
    DRAUGHTS_ASSIGN_OR_RETURN(stored.records[row[0].c_str()], ParseRecord(row[1]));
  }
  for (const pqxx::row& row : tx.exec_params(kStoredChangesSql, ids)) {
    v1::RatingChange change;
    change.set_player_id(row[1].c_str());
    v1::Color color = v1::COLOR_UNSPECIFIED;
    v1::Color_Parse(row[2].c_str(), &color);
    change.set_color(color);
    change.set_month(row[3].c_str());
    change.set_elo_before(row[4].as<int>());
    change.set_elo_after(row[5].as<int>());
    stored.changes[row[0].c_str()].push_back(std::move(change));
  }
  return stored;
}

// Loads (creating the missing ones, then locking all, in key order) the
// rating rows `keys` name.
absl::StatusOr<std::map<RatingKey, BookEntry>> LockBook(pqxx::transaction_base& tx,
                                                        const std::vector<RatingKey>& keys,
                                                        const EloSettings& settings) {
  std::map<RatingKey, BookEntry> book;
  if (keys.empty()) return book;
  Columns key_columns(3);
  for (const RatingKey& key : keys) key_columns.Row({key.variant, key.month, key.player_id});
  tx.exec_params(kCreateRatingsSql, key_columns[0], key_columns[1], key_columns[2],
                 settings.initial);
  for (const pqxx::row& row :
       tx.exec_params(kLockRatingsSql, key_columns[0], key_columns[1], key_columns[2])) {
    BookEntry& entry = book[RatingKey{row[0].c_str(), row[1].c_str(), row[2].c_str()}];
    entry.display_name = row[3].c_str();
    entry.standing = {row[4].as<int>(), row[5].as<int>(), row[6].as<int>(), row[7].as<int>(),
                      row[8].as<int>()};
  }
  if (book.size() != keys.size()) return absl::InternalError("rating rows missing after insert");
  return book;
}

void WriteBook(pqxx::transaction_base& tx, const std::map<RatingKey, BookEntry>& book,
               absl::Time now) {
  Columns rows(9);
  for (const auto& [key, entry] : book) {
    if (!entry.dirty) continue;
    const Standing& s = entry.standing;
    rows.Row({key.variant, key.month, key.player_id, entry.display_name, absl::StrCat(s.elo),
              absl::StrCat(s.games), absl::StrCat(s.wins), absl::StrCat(s.draws),
              absl::StrCat(s.losses)});
  }
  if (rows.empty()) return;
  tx.exec_params(kUpdateRatingsSql, rows[0], rows[1], rows[2], rows[3], rows[4], rows[5], rows[6],
                 rows[7], rows[8], absl::ToUnixMicros(now));
}

void WriteHistory(pqxx::transaction_base& tx, const std::vector<HistoryRow>& history) {
  if (history.empty()) return;
  Columns rows(13);
  for (const HistoryRow& row : history) {
    const v1::HistoryEntry& e = row.entry;
    rows.Row({e.game_id(), row.player_id, e.variant(),
              MonthOf(TimeUtil::TimestampToMicroseconds(e.finished_at())),
              absl::StrCat(TimeUtil::TimestampToMicroseconds(e.finished_at())),
              EnumText(v1::Color_Name(e.color()), e.color()),
              EnumText(v1::Outcome_Name(e.outcome()), e.outcome()),
              EnumText(v1::ResultReason_Name(e.reason()), e.reason()), e.opponent().player_id(),
              absl::BytesToHexString(e.opponent().SerializeAsString()),
              e.elo_changed() ? "true" : "false", absl::StrCat(e.elo_before()),
              absl::StrCat(e.elo_after())});
  }
  tx.exec_params(kInsertHistorySql, rows[0], rows[1], rows[2], rows[3], rows[4], rows[5], rows[6],
                 rows[7], rows[8], rows[9], rows[10], rows[11], rows[12]);
}

// The whole batch inside one transaction.
absl::StatusOr<std::vector<RecordedGame>> RecordInTransaction(
    pqxx::transaction_base& tx, const std::vector<v1::ResultRecord>& records,
    absl::Time archived_at, const EloSettings& settings) {
  std::vector<RecordedGame> recorded(records.size());
  // The first occurrence of each game id in the batch is written; later
  // ones are judged against whatever the archive ends up holding.
  std::map<std::string, size_t> first;
  Columns game_rows(22);
  for (size_t i = 0; i < records.size(); ++i) {
    if (!first.try_emplace(records[i].game_id(), i).second) continue;
    DRAUGHTS_RETURN_IF_ERROR(AddGameRow(records[i], game_rows));
  }
  std::set<std::string> inserted;
  for (const pqxx::row& row : tx.exec_params(
           kInsertGamesSql, game_rows[0], game_rows[1], game_rows[2], game_rows[3], game_rows[4],
           game_rows[5], game_rows[6], game_rows[7], game_rows[8], game_rows[9], game_rows[10],
           game_rows[11], game_rows[12], game_rows[13], game_rows[14], game_rows[15], game_rows[16],
           game_rows[17], game_rows[18], game_rows[19], game_rows[20], game_rows[21],
           absl::ToUnixMicros(archived_at))) {
    inserted.insert(row[0].c_str());
  }

  std::vector<const v1::ResultRecord*> fresh;
  std::vector<size_t> fresh_index;
  std::vector<std::string> already;
  for (const auto& [game_id, index] : first) {
    if (inserted.count(game_id) == 0) already.push_back(game_id);
  }
  for (size_t i = 0; i < records.size(); ++i) {
    if (first[records[i].game_id()] == i && inserted.count(records[i].game_id()) > 0) {
      fresh.push_back(&records[i]);
      fresh_index.push_back(i);
    }
  }
  DRAUGHTS_ASSIGN_OR_RETURN(StoredGames stored, LoadStored(tx, already));

  DRAUGHTS_ASSIGN_OR_RETURN(auto book, LockBook(tx, KeysTouched(fresh), settings));
  std::vector<HistoryRow> history;
  std::vector<std::vector<v1::RatingChange>> changes = ApplyGames(fresh, settings, book, history);
  WriteBook(tx, book, archived_at);
  WriteHistory(tx, history);

  for (size_t f = 0; f < fresh.size(); ++f) {
    RecordedGame& game = recorded[fresh_index[f]];
    game.kind = RecordedGame::Kind::kNew;
    game.elo_changed = !changes[f].empty();
    game.changes = std::move(changes[f]);
    stored.records[fresh[f]->game_id()] = *fresh[f];
    stored.changes[fresh[f]->game_id()] = game.changes;
  }
  for (size_t i = 0; i < records.size(); ++i) {
    const std::string& game_id = records[i].game_id();
    if (first[game_id] == i && inserted.count(game_id) > 0) continue;
    RecordedGame& game = recorded[i];
    auto it = stored.records.find(game_id);
    const bool same = it != stored.records.end() &&
                      google::protobuf::util::MessageDifferencer::Equals(it->second, records[i]);
    game.kind = same ? RecordedGame::Kind::kDuplicate : RecordedGame::Kind::kConflict;
    if (same) {
      game.changes = stored.changes[game_id];
      game.elo_changed = !game.changes.empty();
    }
  }
  return recorded;
}

}  // namespace

std::string TextArrayLiteral(const std::vector<std::string>& items) {
  std::string out = "{";
  for (size_t i = 0; i < items.size(); ++i) {
    if (i > 0) out += ',';
    out += '"';
    for (char c : items[i]) {
      if (c == '"' || c == '\\') out += '\\';
      out += c;
    }
    out += '"';
  }
  out += '}';
  return out;
}

absl::StatusOr<std::vector<RecordedGame>> PgArchiveStore::Record(
    const std::vector<v1::ResultRecord>& records, absl::Time archived_at) {
  if (records.empty()) return std::vector<RecordedGame>();
  const absl::Time started = absl::Now();
  // A deadlock or serialization failure with another replica's batch
  // touching the same players rolls everything back: run it again.
  platform::TransactionOptions options;
  options.attempts = 3;
  return Observed("record", started,
                  pool_->WithTransactionResult<std::vector<RecordedGame>>(
                      [&](pqxx::transaction_base& tx) {
                        return RecordInTransaction(tx, records, archived_at, settings_);
                      },
                      options));
}

absl::StatusOr<std::optional<ArchivedRecord>> PgArchiveStore::Find(const std::string& game_id) {
  const absl::Time started = absl::Now();
  return Observed(
      "find_game", started,
      pool_->WithTransactionResult<std::optional<ArchivedRecord>>(
          [&](pqxx::transaction_base& tx) { return ReadRow(tx.exec_params(kFindSql, game_id)); }));
}

}  // namespace draughts::rating
