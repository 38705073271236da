#include "game_state/event_feed_redis.h"

#include <optional>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "platform/event_id.h"
#include "platform/status_macros.h"

namespace draughts::game_state {
namespace {

// One stream entry as a GameEvent: its "data" field, and the entry id as
// the event id.
absl::StatusOr<v1::GameEvent> ToGameEvent(platform::StreamEntry entry) {
  const std::string* data = entry.Find("data");
  if (data == nullptr) {
    return absl::InternalError(absl::StrCat("event ", entry.id, " has no data field"));
  }
  v1::GameEvent event;
  if (!event.ParseFromString(*data)) {
    return absl::InternalError(absl::StrCat("event ", entry.id, " does not parse"));
  }
  event.set_event_id(std::move(entry.id));
  return event;
}

// commit_change.lua publishes on this channel: the feed reads only the
// games that moved.
RedisEventFeedOptions WithChannel(RedisEventFeedOptions options, const RedisKeys& keys) {
  if (options.change_channel.empty()) options.change_channel = keys.EventsChanged();
  return options;
}

}  // namespace

RedisEventFeed::RedisEventFeed(platform::RedisPool* pool, platform::RedisOptions tail_options,
                               RedisKeys keys, RedisEventFeedOptions options)
    : keys_(std::move(keys)),
      streams_(pool, std::move(tail_options), WithChannel(options, keys_)) {}

absl::StatusOr<std::unique_ptr<EventSubscription>> RedisEventFeed::Subscribe(
    const std::string& game_id, const std::string& after_event_id) {
  std::optional<platform::EventId> after;
  if (!after_event_id.empty()) {
    DRAUGHTS_ASSIGN_OR_RETURN(after, platform::ParseEventId(after_event_id));
  }
  const std::string key = keys_.Events(game_id);
  DRAUGHTS_ASSIGN_OR_RETURN(platform::StreamEnds ends, streams_.ReadEnds(key));
  if (!ends.first.has_value()) {
    return absl::NotFoundError(absl::StrCat("game \"", game_id, "\" has no events (expired?)"));
  }
  DRAUGHTS_ASSIGN_OR_RETURN(v1::GameEvent first, ToGameEvent(*ends.first));
  // Streams are never trimmed today; this guards the day they are.
  absl::StatusOr<platform::EventId> first_id = platform::ParseEventId(first.event_id());
  if (!first.has_game_created() && first_id.ok() &&
      after.value_or(platform::EventId{}) < *first_id) {
    return absl::FailedPreconditionError(
        "from_event_id is older than the retained events: call GetGame and resume from its "
        "last_event_id");
  }
  DRAUGHTS_ASSIGN_OR_RETURN(std::unique_ptr<platform::StreamSubscription> entries,
                            streams_.Subscribe(key, after, ends.LastId()));
  return std::make_unique<platform::EntryFeed<v1::GameEvent>>(std::move(entries), ToGameEvent);
}

}  // namespace draughts::game_state
