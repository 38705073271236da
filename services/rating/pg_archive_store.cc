#include "rating/pg_archive_store.h"

#include <google/protobuf/util/json_util.h>
#include <google/protobuf/util/time_util.h>

#include <pqxx/binarystring>
#include <pqxx/result>
#include <pqxx/transaction_base>
#include <utility>

#include "absl/strings/str_cat.h"
#include "platform/status_macros.h"

namespace draughts::rating {
namespace {

using google::protobuf::util::TimeUtil;

// A timestamp parameter goes as (is set, microseconds since the epoch) and
// is rebuilt exactly in SQL; a float conversion could move it by a
// microsecond.
constexpr const char* kInsertSql = R"sql(
INSERT INTO archived_games (
  game_id, table_id, variant, variant_options, rated,
  white_kind, white_player_id, white_display_name,
  black_kind, black_player_id, black_display_name,
  result, reason, ended_by, ply, initial_fen, moves, final_fen, time_per_move_ms,
  started_at, finished_at, archived_at, record)
VALUES (
  $1, $2, $3, $4::jsonb, $5,
  $6, $7, $8,
  $9, $10, $11,
  $12, $13, $14, $15, $16, $17::text[], $18, $19,
  CASE WHEN $20::boolean THEN 'epoch'::timestamptz + $21::bigint * interval '1 microsecond' END,
  CASE WHEN $22::boolean THEN 'epoch'::timestamptz + $23::bigint * interval '1 microsecond' END,
  'epoch'::timestamptz + $24::bigint * interval '1 microsecond',
  $25)
ON CONFLICT (game_id) DO NOTHING
RETURNING game_id)sql";

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

int64_t Micros(const google::protobuf::Timestamp& at) {
  return TimeUtil::TimestampToMicroseconds(at);
}

int64_t DurationMillis(const google::protobuf::Duration& duration) {
  return TimeUtil::DurationToMilliseconds(duration);
}

absl::StatusOr<std::optional<ArchivedRecord>> ReadRow(const pqxx::result& rows) {
  if (rows.empty()) return std::optional<ArchivedRecord>();
  const pqxx::binarystring bytes(rows[0][0]);
  ArchivedRecord archived;
  if (!archived.record.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) {
    return absl::DataLossError("archived_games.record is not a ResultRecord");
  }
  archived.archived_at = absl::FromUnixMicros(rows[0][1].as<int64_t>());
  return std::optional<ArchivedRecord>(std::move(archived));
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

absl::StatusOr<InsertResult> PgArchiveStore::Insert(const v1::ResultRecord& record,
                                                    absl::Time archived_at) {
  std::string options_json;
  if (!google::protobuf::util::MessageToJsonString(record.options(), &options_json).ok()) {
    return absl::InvalidArgumentError("variant options cannot be written as JSON");
  }
  std::string bytes;
  if (!record.SerializeToString(&bytes)) {
    return absl::InvalidArgumentError("record cannot be serialized");
  }
  const std::vector<std::string> moves(record.moves().begin(), record.moves().end());
  return pool_->WithTransactionResult<InsertResult>(
      [&](pqxx::transaction_base& tx) -> absl::StatusOr<InsertResult> {
        const pqxx::result inserted = tx.exec_params(
            kInsertSql, record.game_id(), record.table_id(), record.variant(), options_json,
            record.rated(), SeatKindText(record.white()), record.white().player_id(),
            record.white().display_name(), SeatKindText(record.black()), record.black().player_id(),
            record.black().display_name(),
            EnumText(v1::GameResult_Name(record.result()), record.result()),
            EnumText(v1::ResultReason_Name(record.reason()), record.reason()),
            EnumText(v1::Color_Name(record.ended_by()), record.ended_by()), record.ply(),
            record.initial_fen(), TextArrayLiteral(moves), record.final_fen(),
            DurationMillis(record.time_per_move()), record.has_started_at(),
            Micros(record.started_at()), record.has_finished_at(), Micros(record.finished_at()),
            absl::ToUnixMicros(archived_at), pqxx::binarystring(bytes));
        InsertResult result;
        result.inserted = !inserted.empty();
        if (!result.inserted) {
          DRAUGHTS_ASSIGN_OR_RETURN(result.existing,
                                    ReadRow(tx.exec_params(kFindSql, record.game_id())));
        }
        return result;
      });
}

absl::StatusOr<std::optional<ArchivedRecord>> PgArchiveStore::Find(const std::string& game_id) {
  return pool_->WithTransactionResult<std::optional<ArchivedRecord>>(
      [&](pqxx::transaction_base& tx) { return ReadRow(tx.exec_params(kFindSql, game_id)); });
}

}  // namespace draughts::rating
