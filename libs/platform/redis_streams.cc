#include "platform/redis_streams.h"

#include "absl/strings/str_cat.h"

namespace draughts::platform {
namespace {

absl::Status Malformed(std::string_view what, const RedisReply& reply) {
  return absl::InternalError(
      absl::StrCat("malformed stream reply (", std::string(what), "): ", reply.DebugString()));
}

}  // namespace

const std::string* StreamEntry::Find(std::string_view name) const {
  for (const auto& [field, value] : fields) {
    if (field == name) return &value;
  }
  return nullptr;
}

absl::StatusOr<std::vector<StreamEntry>> ParseStreamEntries(const RedisReply& reply) {
  auto items = reply.AsArray();
  if (!items.ok()) return items.status();
  std::vector<StreamEntry> entries;
  entries.reserve(items->size());
  for (const RedisReply& item : *items) {
    if (item.is_nil()) continue;
    auto entry = ParseStreamEntry(item);
    if (!entry.ok()) return entry.status();
    entries.push_back(*std::move(entry));
  }
  return entries;
}

absl::StatusOr<std::vector<StreamBatch>> ParseStreamBatches(const RedisReply& reply) {
  std::vector<StreamBatch> batches;
  if (reply.is_nil()) return batches;  // timed out with nothing new
  auto streams = reply.AsArray();
  if (!streams.ok()) return streams.status();
  for (const RedisReply& stream : *streams) {
    if (stream.type() != RedisReply::Type::kArray || stream.elements().size() != 2) {
      return Malformed("stream is not [key, entries]", stream);
    }
    auto key = stream.elements()[0].AsString();
    if (!key.ok()) return Malformed("key", stream);
    auto entries = ParseStreamEntries(stream.elements()[1]);
    if (!entries.ok()) return entries.status();
    batches.push_back({*std::move(key), *std::move(entries)});
  }
  return batches;
}

absl::StatusOr<StreamEntry> ParseStreamEntry(const RedisReply& reply) {
  if (reply.type() != RedisReply::Type::kArray || reply.elements().size() != 2) {
    return Malformed("entry is not [id, fields]", reply);
  }
  auto id = reply.elements()[0].AsString();
  if (!id.ok()) return Malformed("id", reply);
  StreamEntry entry{*id, {}};
  // A nil field list marks an entry deleted after it was read (XREADGROUP
  // history); keep the id with no fields.
  auto fields = reply.elements()[1].AsArray();
  if (!fields.ok() || fields->size() % 2 != 0) return Malformed("fields", reply);
  for (size_t i = 0; i < fields->size(); i += 2) {
    auto name = (*fields)[i].AsString();
    auto value = (*fields)[i + 1].AsString();
    if (!name.ok() || !value.ok()) return Malformed("field", reply);
    entry.fields.emplace_back(*std::move(name), *std::move(value));
  }
  return entry;
}

absl::StatusOr<std::string> StreamAdd(RedisClient& client, const std::string& key,
                                      const StreamFields& fields, int64_t max_len,
                                      const std::string& id) {
  if (fields.empty()) return absl::InvalidArgumentError("XADD needs at least one field");
  std::vector<std::string> argv = {"XADD", key};
  if (max_len > 0) {
    argv.insert(argv.end(), {"MAXLEN", "~", absl::StrCat(max_len)});
  }
  argv.push_back(id);
  for (const auto& [name, value] : fields) {
    argv.push_back(name);
    argv.push_back(value);
  }
  auto reply = client.Command(argv);
  if (!reply.ok()) return reply.status();
  return reply->AsString();
}

absl::StatusOr<std::vector<StreamEntry>> StreamRange(RedisClient& client, const std::string& key,
                                                     const std::string& start,
                                                     const std::string& end, int64_t count) {
  std::vector<std::string> argv = {"XRANGE", key, start, end};
  if (count > 0) argv.insert(argv.end(), {"COUNT", absl::StrCat(count)});
  auto reply = client.Command(argv);
  if (!reply.ok()) return reply.status();
  return ParseStreamEntries(*reply);
}

absl::StatusOr<std::vector<StreamBatch>> StreamReadBlocking(
    RedisClient& client, const std::vector<std::pair<std::string, std::string>>& keys_and_ids,
    absl::Duration block, int64_t count) {
  if (keys_and_ids.empty()) return absl::InvalidArgumentError("XREAD needs at least one stream");
  int64_t block_ms = absl::ToInt64Milliseconds(block);
  // BLOCK 0 would wait forever and outlive every timeout; refuse it.
  if (block_ms <= 0) return absl::InvalidArgumentError("XREAD BLOCK needs a positive block time");
  std::vector<std::string> argv = {"XREAD"};
  if (count > 0) argv.insert(argv.end(), {"COUNT", absl::StrCat(count)});
  argv.insert(argv.end(), {"BLOCK", absl::StrCat(block_ms), "STREAMS"});
  for (const auto& key_and_id : keys_and_ids) argv.push_back(key_and_id.first);
  for (const auto& key_and_id : keys_and_ids) argv.push_back(key_and_id.second);
  auto reply = client.CommandWithTimeout(argv, block + client.options().command_timeout);
  if (!reply.ok()) return reply.status();
  return ParseStreamBatches(*reply);
}

}  // namespace draughts::platform
