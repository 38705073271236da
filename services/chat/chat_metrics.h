// The chat service's own Prometheus metrics (request counts, errors and
// latency per method come from the platform's RPC interceptor).
#ifndef DRAUGHTS_CHAT_CHAT_METRICS_H_
#define DRAUGHTS_CHAT_CHAT_METRICS_H_

#include <map>
#include <mutex>
#include <string>
#include <string_view>

#include "draughts/v1/chat.pb.h"
#include "prometheus/counter.h"
#include "prometheus/family.h"
#include "prometheus/gauge.h"
#include "prometheus/registry.h"

namespace draughts::chat {

class ChatMetrics {
 public:
  explicit ChatMetrics(prometheus::Registry& registry);

  // A message appended to a room (repeats of an idempotency key not counted).
  void Posted(v1::ChatRole role);
  // A PostMessage refused; `reason` is a short snake_case label.
  void Refused(std::string_view reason);
  void WatchStarted() { watchers_.Increment(); }
  void WatchEnded() { watchers_.Decrement(); }
  // The chat notices stream: an entry posted as a system line, or one that
  // could not be read (logged and acknowledged).
  void NoticePosted() { notices_.Increment(); }
  void NoticeMalformed() { notices_malformed_.Increment(); }

 private:
  // Under mu_.
  prometheus::Counter& RefusedCounter(std::string_view reason);

  prometheus::Family<prometheus::Counter>& posted_;
  prometheus::Family<prometheus::Counter>& refused_;
  prometheus::Gauge& watchers_;
  prometheus::Counter& notices_;
  prometheus::Counter& notices_malformed_;
  std::mutex mu_;
  std::map<std::string, prometheus::Counter*, std::less<>> refused_by_reason_;
  std::map<v1::ChatRole, prometheus::Counter*> posted_by_role_;
};

}  // namespace draughts::chat

#endif  // DRAUGHTS_CHAT_CHAT_METRICS_H_
