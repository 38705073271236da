#include "chat/chat_metrics.h"

#include <string>

#include "absl/strings/ascii.h"

namespace draughts::chat {

ChatMetrics::ChatMetrics(prometheus::Registry& registry)
    : posted_(prometheus::BuildCounter()
                  .Name("draughts_chat_messages_posted_total")
                  .Help("Chat messages appended to a room, by author role (player, spectator, "
                        "system); repeats of an idempotency key not counted")
                  .Register(registry)),
      refused_(prometheus::BuildCounter()
                   .Name("draughts_chat_messages_refused_total")
                   .Help("PostMessage calls refused, by reason (too_long, invalid_utf8, "
                         "rate_limited, muted, ...)")
                   .Register(registry)),
      watchers_(prometheus::BuildGauge()
                    .Name("draughts_chat_watch_streams")
                    .Help("WatchChat streams open on this replica")
                    .Register(registry)
                    .Add({})),
      notices_(prometheus::BuildCounter()
                   .Name("draughts_chat_notices_total")
                   .Help("Game notices from the chat notices stream handled (posted, or found "
                         "already posted)")
                   .Register(registry)
                   .Add({})),
      notices_malformed_(prometheus::BuildCounter()
                             .Name("draughts_chat_notices_malformed_total")
                             .Help("Chat notices stream entries that could not be read "
                                   "(logged and acknowledged)")
                             .Register(registry)
                             .Add({})) {
  // The usual reasons are exported at zero from the start, so a rate() of
  // them exists before the first refusal.
  for (std::string_view reason : {"too_long", "invalid_utf8", "empty", "control_character",
                                  "rate_limited", "muted", "not_seated", "bad_request"}) {
    std::lock_guard<std::mutex> lock(mu_);
    RefusedCounter(reason);
  }
}

void ChatMetrics::Posted(v1::ChatRole role) {
  std::lock_guard<std::mutex> lock(mu_);
  prometheus::Counter*& counter = posted_by_role_[role];
  if (counter == nullptr) {
    std::string name = v1::ChatRole_Name(role);
    constexpr std::string_view kPrefix = "CHAT_ROLE_";
    if (name.rfind(kPrefix, 0) == 0) name = name.substr(kPrefix.size());
    absl::AsciiStrToLower(&name);
    counter = &posted_.Add({{"role", name}});
  }
  counter->Increment();
}

prometheus::Counter& ChatMetrics::RefusedCounter(std::string_view reason) {
  auto found = refused_by_reason_.find(reason);
  if (found == refused_by_reason_.end()) {
    found = refused_by_reason_
                .emplace(std::string(reason), &refused_.Add({{"reason", std::string(reason)}}))
                .first;
  }
  return *found->second;
}

void ChatMetrics::Refused(std::string_view reason) {
  std::lock_guard<std::mutex> lock(mu_);
  RefusedCounter(reason).Increment();
}

}  // namespace draughts::chat
