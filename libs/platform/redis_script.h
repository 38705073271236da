// Lua scripts run with EVALSHA. A RedisScript is declared once (typically a
// static in a store adapter) and shared by every connection: the first call
// loads it with SCRIPT LOAD and remembers the SHA; when a server answers
// NOSCRIPT (restart, failover, SCRIPT FLUSH) it is loaded again and the
// call retried once. EVALSHA itself never runs a script twice, so the retry
// is safe.
//
// Scripts can pick the status code of their errors:
//   return redis.error_reply("ABORTED stale ply")  -> absl::AbortedError("stale ply")
#ifndef DRAUGHTS_PLATFORM_REDIS_SCRIPT_H_
#define DRAUGHTS_PLATFORM_REDIS_SCRIPT_H_

#include <mutex>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "platform/redis_client.h"
#include "platform/redis_reply.h"

namespace draughts::platform {

class RedisScript {
 public:
  explicit RedisScript(std::string source) : source_(std::move(source)) {}

  const std::string& source() const { return source_; }
  // The SHA1 the server reported, empty before the first load. Thread-safe.
  std::string sha() const;
  void set_sha(std::string sha);

 private:
  const std::string source_;
  mutable std::mutex mu_;
  std::string sha_;
};

// Loads the script into the server now (e.g. at startup, to fail fast on a
// syntax error) and records its SHA.
absl::Status LoadScript(RedisClient& client, RedisScript& script);

// EVALSHA with automatic SCRIPT LOAD and one retry on NOSCRIPT.
absl::StatusOr<RedisReply> EvalScript(RedisClient& client, RedisScript& script,
                                      const std::vector<std::string>& keys,
                                      const std::vector<std::string>& args);

// One script call of a pipeline: the script, its keys and its arguments.
struct ScriptCall {
  RedisScript* script = nullptr;
  std::vector<std::string> keys;
  std::vector<std::string> args;
};

// Sends `calls` in one pipeline (run in their order) and returns each
// reply as the server gave it: an error reply stays a reply. Scripts not
// loaded yet are loaded first; calls answered NOSCRIPT (the server lost its
// scripts: restart, failover, SCRIPT FLUSH) did not run, and are sent again
// once, in their order, after the script is loaded. Fails as a whole only
// when the connection does.
absl::StatusOr<std::vector<RedisReply>> PipelineScripts(RedisClient& client,
                                                        const std::vector<ScriptCall>& calls);

}  // namespace draughts::platform

#endif  // DRAUGHTS_PLATFORM_REDIS_SCRIPT_H_
