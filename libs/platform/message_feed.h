// What a watch stream delivers from: a reader of one live stream of
// messages that can signal arrivals instead of being waited on
// (stream_watch.h), and the adapter from a Redis stream's entries.
#ifndef DRAUGHTS_PLATFORM_MESSAGE_FEED_H_
#define DRAUGHTS_PLATFORM_MESSAGE_FEED_H_

#include <functional>
#include <memory>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "platform/stream_feed.h"

namespace draughts::platform {

// A reader positioned in one live stream of messages; one reader.
template <typename Message>
class MessageFeed {
 public:
  virtual ~MessageFeed() = default;
  // The messages after those already returned, oldest first, waiting up to
  // `timeout` for at least one; empty when none came in time.
  virtual absl::StatusOr<std::vector<Message>> Next(absl::Duration timeout) = 0;
  // `ready` is called whenever messages arrive for Next(0) to return, from a
  // thread of the feed that may hold its locks: it must only hand the work
  // on. False when the feed cannot tell (the caller must then wait in Next).
  virtual bool SetReadyCallback(std::function<void()> ready) = 0;
};

// A StreamSubscription's entries, each turned into a Message by `convert`
// (an entry that does not convert ends the reading with its status).
template <typename Message>
class EntryFeed final : public MessageFeed<Message> {
 public:
  using Convert = std::function<absl::StatusOr<Message>(StreamEntry entry)>;

  EntryFeed(std::unique_ptr<StreamSubscription> entries, Convert convert)
      : entries_(std::move(entries)), convert_(std::move(convert)) {}

  absl::StatusOr<std::vector<Message>> Next(absl::Duration timeout) override {
    absl::StatusOr<std::vector<StreamEntry>> entries = entries_->Next(timeout);
    if (!entries.ok()) return entries.status();
    std::vector<Message> messages;
    messages.reserve(entries->size());
    for (StreamEntry& entry : *entries) {
      absl::StatusOr<Message> message = convert_(std::move(entry));
      if (!message.ok()) return message.status();
      messages.push_back(*std::move(message));
    }
    return messages;
  }

  bool SetReadyCallback(std::function<void()> ready) override {
    return entries_->SetReadyCallback(std::move(ready));
  }

 private:
  std::unique_ptr<StreamSubscription> entries_;
  Convert convert_;
};

}  // namespace draughts::platform

#endif  // DRAUGHTS_PLATFORM_MESSAGE_FEED_H_
