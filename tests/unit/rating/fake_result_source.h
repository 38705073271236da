// A results stream with one consumer group, in memory: FakeStream holds the
// entries and the group's pending list, each FakeResultSource is one
// consumer of it. Same rules as Redis where the consumer relies on them:
// a new group starts after the existing entries, an entry read stays
// pending for its reader until acknowledged, a claim moves entries idle for
// long enough to the claimer. Time is the test's.
#ifndef DRAUGHTS_TESTS_UNIT_RATING_FAKE_RESULT_SOURCE_H_
#define DRAUGHTS_TESTS_UNIT_RATING_FAKE_RESULT_SOURCE_H_

#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "rating/result_source.h"

namespace draughts::rating::testing {

class FakeStream {
 public:
  explicit FakeStream(const absl::Time* now) : now_(now) {}

  // Appends an entry; returns its id.
  std::string Add(std::optional<std::string> data, const std::string& game_id);
  // Deletes the entry's content (XDEL, trimming): readers of it get an
  // entry without data; a claim drops it from the pending list (Redis 7).
  void Delete(const std::string& id);
  // Every call of every consumer fails with `status` until set back to OK.
  void FailWith(absl::Status status);

  // Pending entry ids of `consumer` (all consumers when empty), in order.
  std::vector<std::string> Pending(const std::string& consumer = "") const;
  // Times the entry was handed out (read or claimed); 0 if unknown.
  int Deliveries(const std::string& id) const;
  int64_t Undelivered() const;

 private:
  friend class FakeResultSource;
  struct PendingEntry {
    std::string consumer;
    absl::Time delivered_at;
    int deliveries = 0;
  };

  const absl::Time* now_;
  mutable std::mutex mu_;
  absl::Status failure_;
  bool group_created_ = false;
  std::vector<ResultEntry> entries_;
  size_t next_undelivered_ = 0;
  std::map<std::string, PendingEntry> pending_;  // ids sort in stream order
  std::map<std::string, int> deliveries_;
};

class FakeResultSource final : public ResultSource {
 public:
  FakeResultSource(FakeStream* stream, std::string consumer)
      : stream_(stream), consumer_(std::move(consumer)) {}

  absl::Status CreateGroup() override;
  absl::StatusOr<std::vector<ResultEntry>> ReadPending(const std::string& after_id,
                                                       int count) override;
  absl::StatusOr<std::vector<ResultEntry>> ReadNew(int count, absl::Duration block) override;
  absl::StatusOr<ClaimedEntries> ClaimIdle(const std::string& cursor, absl::Duration min_idle,
                                           int count) override;
  absl::Status Ack(const std::vector<std::string>& ids) override;
  absl::StatusOr<GroupBacklog> Backlog() override;

 private:
  const ResultEntry* Find(const std::string& id) const;

  FakeStream* stream_;
  std::string consumer_;
};

}  // namespace draughts::rating::testing

#endif  // DRAUGHTS_TESTS_UNIT_RATING_FAKE_RESULT_SOURCE_H_
