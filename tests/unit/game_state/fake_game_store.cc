#include "fake_game_store.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "game_state/game_change.h"
#include "game_state/proto_convert.h"
#include "platform/event_id.h"
#include "platform/proto_time.h"

namespace draughts::game_state::testing {
namespace {

int64_t ActivityMs(const StoredGame& game) {
  return absl::ToUnixMillis(platform::FromProtoTime(game.state().updated_at()));
}

platform::EventId IdOf(const v1::GameEvent& event) {
  absl::StatusOr<platform::EventId> id = platform::ParseEventId(event.event_id());
  return id.ok() ? *id : platform::EventId{};
}

class FakeSubscription final : public EventSubscription {
 public:
  FakeSubscription(const FakeGameStore* store, std::string game_id,
                   std::optional<platform::EventId> after, std::mutex* mu,
                   std::condition_variable* appended)
      : store_(store), game_id_(std::move(game_id)), after_(after), mu_(mu), appended_(appended) {}
  ~FakeSubscription() override { store_->ForgetReadyCallback(this); }

  bool SetReadyCallback(std::function<void()> ready) override {
    store_->AddReadyCallback(this, std::move(ready));
    return true;
  }

  absl::StatusOr<std::vector<v1::GameEvent>> Next(absl::Duration timeout) override {
    const absl::Time deadline = absl::Now() + timeout;
    while (true) {
      std::vector<v1::GameEvent> out;
      for (v1::GameEvent& event : store_->Events(game_id_)) {
        if (after_.has_value() && IdOf(event) <= *after_) continue;
        out.push_back(std::move(event));
      }
      if (!out.empty()) {
        after_ = IdOf(out.back());
        return out;
      }
      std::unique_lock<std::mutex> lock(*mu_);
      if (absl::Now() >= deadline) return out;
      appended_->wait_for(lock, absl::ToChronoMilliseconds(deadline - absl::Now()));
      if (absl::Now() >= deadline) return std::vector<v1::GameEvent>{};
    }
  }

 private:
  const FakeGameStore* store_;
  std::string game_id_;
  std::optional<platform::EventId> after_;
  std::mutex* mu_;
  std::condition_variable* appended_;
};

}  // namespace

absl::Status FakeGameStore::TakeFailureLocked() {
  absl::Status failure = fail_next_;
  fail_next_ = absl::OkStatus();
  return failure;
}

void FakeGameStore::FailNext(absl::Status status) {
  std::lock_guard<std::mutex> lock(mu_);
  fail_next_ = std::move(status);
}

void FakeGameStore::BeforeNextCommit(std::function<void()> hook) {
  std::lock_guard<std::mutex> lock(mu_);
  before_commit_ = std::move(hook);
}

std::string FakeGameStore::NextEventIdLocked() {
  ++event_counter_;
  return absl::StrCat(1700000000000 + event_counter_ / 3, "-", event_counter_ % 3);
}

void FakeGameStore::ForwardLocked(const std::vector<OutboxMessage>& outbox) {
  for (const OutboxMessage& message : outbox) {
    switch (message.kind) {
      case OutboxMessage::Kind::kBotJob:
        bot_jobs_.emplace_back().ParseFromString(message.data);
        break;
      case OutboxMessage::Kind::kResult:
        results_.emplace_back().ParseFromString(message.data);
        break;
      case OutboxMessage::Kind::kClockUpdate:
        clock_updates_.emplace_back().ParseFromString(message.data);
        break;
      case OutboxMessage::Kind::kChatNotice:
        chat_notices_.emplace_back().ParseFromString(message.data);
        break;
    }
  }
}

absl::StatusOr<StoredGame> FakeGameStore::Load(const std::string& game_id) {
  std::lock_guard<std::mutex> lock(mu_);
  ++loads_;
  if (absl::Status failure = TakeFailureLocked(); !failure.ok()) return failure;
  auto it = games_.find(game_id);
  if (it == games_.end()) return absl::NotFoundError(absl::StrCat("no game \"", game_id, "\""));
  return it->second.stored;
}

absl::StatusOr<CreateResult> FakeGameStore::Create(const std::string& game_id,
                                                   const NewGame& game) {
  std::lock_guard<std::mutex> lock(mu_);
  if (absl::Status failure = TakeFailureLocked(); !failure.ok()) return failure;
  CreateResult result;
  auto it = games_.find(game_id);
  if (it != games_.end()) {
    result.game = it->second.stored;
    return result;
  }
  Game& created = games_[game_id];
  created.stored = game.game;
  v1::GameEvent event = game.created;
  event.set_event_id(NextEventIdLocked());
  created.stored.mutable_state()->set_last_event_id(event.event_id());
  created.events.push_back(std::move(event));
  ForwardLocked(game.outbox);
  result.created = true;
  result.game = created.stored;
  appended_.notify_all();
  for (const auto& [subscription, ready] : ready_) ready();
  return result;
}

absl::StatusOr<std::vector<std::string>> FakeGameStore::Commit(const std::string& game_id,
                                                               const Change& change,
                                                               std::optional<StoredGame>* current) {
  std::function<void()> hook;
  {
    std::lock_guard<std::mutex> lock(mu_);
    hook.swap(before_commit_);
  }
  if (hook) hook();
  std::lock_guard<std::mutex> lock(mu_);
  if (absl::Status failure = TakeFailureLocked(); !failure.ok()) return failure;
  auto it = games_.find(game_id);
  if (it == games_.end()) return absl::NotFoundError(absl::StrCat("no game \"", game_id, "\""));
  Game& game = it->second;
  if (game.stored.state().version() != change.expected_version) {
    if (current != nullptr) *current = game.stored;
    return absl::AbortedError("version moved");
  }
  if (change.game.state().version() !=
      change.expected_version + static_cast<int64_t>(change.events.size())) {
    return absl::InternalError("the new version does not count the events");
  }
  std::vector<std::string> ids;
  for (const v1::GameEvent& event : change.events) {
    v1::GameEvent stored = event;
    stored.set_event_id(NextEventIdLocked());
    ids.push_back(stored.event_id());
    game.events.push_back(std::move(stored));
  }
  const std::string last = game.stored.state().last_event_id();
  game.stored = change.game;
  game.stored.mutable_state()->set_last_event_id(ids.empty() ? last : ids.back());
  ForwardLocked(change.outbox);
  ++commits_;
  appended_.notify_all();
  for (const auto& [subscription, ready] : ready_) ready();
  return ids;
}

absl::StatusOr<std::vector<ListCursor>> FakeGameStore::List(const ListQuery& query) {
  std::lock_guard<std::mutex> lock(mu_);
  if (absl::Status failure = TakeFailureLocked(); !failure.ok()) return failure;
  std::vector<ListCursor> all;
  for (const auto& [id, game] : games_) {
    const v1::GameState& state = game.stored.state();
    if (!query.include_finished && query.player_id.empty() && IsOver(state)) continue;
    if (!query.player_id.empty() && state.white().seat().player_id() != query.player_id &&
        state.black().seat().player_id() != query.player_id) {
      continue;
    }
    all.push_back({ActivityMs(game.stored), id});
  }
  std::sort(all.begin(), all.end(), [](const ListCursor& a, const ListCursor& b) {
    return a.activity_ms != b.activity_ms ? a.activity_ms > b.activity_ms : a.game_id > b.game_id;
  });
  std::vector<ListCursor> out;
  for (const ListCursor& entry : all) {
    if (query.after.has_value() && (entry.activity_ms > query.after->activity_ms ||
                                    (entry.activity_ms == query.after->activity_ms &&
                                     entry.game_id >= query.after->game_id))) {
      continue;
    }
    if (static_cast<int>(out.size()) == query.limit) break;
    out.push_back(entry);
  }
  return out;
}

absl::StatusOr<std::vector<std::optional<StoredGame>>> FakeGameStore::LoadMany(
    const std::vector<std::string>& game_ids) {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<std::optional<StoredGame>> out;
  for (const std::string& id : game_ids) {
    auto it = games_.find(id);
    if (it == games_.end()) {
      out.push_back(std::nullopt);
    } else {
      out.push_back(it->second.stored);
    }
  }
  return out;
}

absl::StatusOr<std::unique_ptr<EventSubscription>> FakeGameStore::Subscribe(
    const std::string& game_id, const std::string& after_event_id) {
  std::optional<platform::EventId> after;
  if (!after_event_id.empty()) {
    absl::StatusOr<platform::EventId> parsed = platform::ParseEventId(after_event_id);
    if (!parsed.ok()) return parsed.status();
    after = *parsed;
  }
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (!games_.contains(game_id)) return absl::NotFoundError("no such game");
  }
  return std::make_unique<FakeSubscription>(this, game_id, after, &mu_, &appended_);
}

void FakeGameStore::AddReadyCallback(const void* subscription, std::function<void()> ready) const {
  std::lock_guard<std::mutex> lock(mu_);
  ready_[subscription] = std::move(ready);
}

void FakeGameStore::ForgetReadyCallback(const void* subscription) const {
  std::lock_guard<std::mutex> lock(mu_);
  ready_.erase(subscription);
}

std::vector<v1::GameEvent> FakeGameStore::Events(const std::string& game_id) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = games_.find(game_id);
  return it == games_.end() ? std::vector<v1::GameEvent>{} : it->second.events;
}

std::vector<v1::BotJob> FakeGameStore::BotJobs() const {
  std::lock_guard<std::mutex> lock(mu_);
  return bot_jobs_;
}

std::vector<v1::ResultRecord> FakeGameStore::Results() const {
  std::lock_guard<std::mutex> lock(mu_);
  return results_;
}

std::vector<v1::ClockUpdate> FakeGameStore::ClockUpdates() const {
  std::lock_guard<std::mutex> lock(mu_);
  return clock_updates_;
}

std::vector<v1::ChatNoticeRecord> FakeGameStore::ChatNotices() const {
  std::lock_guard<std::mutex> lock(mu_);
  return chat_notices_;
}

int FakeGameStore::loads() const {
  std::lock_guard<std::mutex> lock(mu_);
  return loads_;
}

int FakeGameStore::commits() const {
  std::lock_guard<std::mutex> lock(mu_);
  return commits_;
}

StoredGame FakeGameStore::Raw(const std::string& game_id) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = games_.find(game_id);
  return it == games_.end() ? StoredGame{} : it->second.stored;
}

void FakeGameStore::Expire(const std::string& game_id) {
  std::lock_guard<std::mutex> lock(mu_);
  games_.erase(game_id);
}

}  // namespace draughts::game_state::testing
