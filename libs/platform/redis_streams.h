// Typed helpers for Redis streams (event logs, job queues, chat):
// XADD, XRANGE and XREAD BLOCK, with replies parsed into plain structs.
#ifndef DRAUGHTS_PLATFORM_REDIS_STREAMS_H_
#define DRAUGHTS_PLATFORM_REDIS_STREAMS_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "platform/redis_client.h"
#include "platform/redis_reply.h"

namespace draughts::platform {

using StreamFields = std::vector<std::pair<std::string, std::string>>;

struct StreamEntry {
  std::string id;  // "<ms>-<seq>", ordered
  StreamFields fields;

  // The value of field `name` (the first one if repeated), nullptr when
  // absent. The shared streams (bot jobs, deadlines, results) carry "data"
  // (a serialized proto) and "game_id".
  const std::string* Find(std::string_view name) const;
  bool operator==(const StreamEntry&) const = default;
};

struct StreamBatch {
  std::string key;
  std::vector<StreamEntry> entries;
};

// XADD key [MAXLEN ~ max_len] id field value ...; returns the entry id.
// `max_len` <= 0 keeps the stream unbounded.
absl::StatusOr<std::string> StreamAdd(RedisClient& client, const std::string& key,
                                      const StreamFields& fields, int64_t max_len = 0,
                                      const std::string& id = "*");

// XRANGE key start end [COUNT count]; `count` <= 0 means all.
absl::StatusOr<std::vector<StreamEntry>> StreamRange(RedisClient& client, const std::string& key,
                                                     const std::string& start = "-",
                                                     const std::string& end = "+",
                                                     int64_t count = 0);

// XREAD [COUNT count] BLOCK ms STREAMS key... id... : entries after each id
// ("$" = only new ones), waiting up to `block` (> 0) for the first. Returns
// an empty vector on timeout.
absl::StatusOr<std::vector<StreamBatch>> StreamReadBlocking(
    RedisClient& client, const std::vector<std::pair<std::string, std::string>>& keys_and_ids,
    absl::Duration block, int64_t count = 0);

// Parses one XRANGE/XREAD entry reply ([id, [field, value, ...]]).
absl::StatusOr<StreamEntry> ParseStreamEntry(const RedisReply& reply);
// Parses a list of them; nil items (entries deleted since, in some replies
// of older servers) are skipped.
absl::StatusOr<std::vector<StreamEntry>> ParseStreamEntries(const RedisReply& reply);
// Parses an XREAD/XREADGROUP reply ([[key, entries], ...], nil = nothing).
absl::StatusOr<std::vector<StreamBatch>> ParseStreamBatches(const RedisReply& reply);

}  // namespace draughts::platform

#endif  // DRAUGHTS_PLATFORM_REDIS_STREAMS_H_
