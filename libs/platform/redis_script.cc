#include "platform/redis_script.h"

#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"

namespace draughts::platform {
namespace {

bool IsNoScript(const absl::Status& status) {
  return status.code() == absl::StatusCode::kNotFound &&
         absl::StrContains(status.message(), "NOSCRIPT");
}

}  // namespace

std::string RedisScript::sha() const {
  std::lock_guard<std::mutex> lock(mu_);
  return sha_;
}

void RedisScript::set_sha(std::string sha) {
  std::lock_guard<std::mutex> lock(mu_);
  sha_ = std::move(sha);
}

absl::Status LoadScript(RedisClient& client, RedisScript& script) {
  auto reply = client.Command({"SCRIPT", "LOAD", script.source()});
  if (!reply.ok()) return reply.status();
  auto sha = reply->AsString();
  if (!sha.ok()) return sha.status();
  script.set_sha(*std::move(sha));
  return absl::OkStatus();
}

absl::StatusOr<RedisReply> EvalScript(RedisClient& client, RedisScript& script,
                                      const std::vector<std::string>& keys,
                                      const std::vector<std::string>& args) {
  if (script.sha().empty()) {
    if (absl::Status status = LoadScript(client, script); !status.ok()) return status;
  }
  auto build = [&](const std::string& sha) {
    std::vector<std::string> argv;
    argv.reserve(3 + keys.size() + args.size());
    argv.push_back("EVALSHA");
    argv.push_back(sha);
    argv.push_back(absl::StrCat(keys.size()));
    argv.insert(argv.end(), keys.begin(), keys.end());
    argv.insert(argv.end(), args.begin(), args.end());
    return argv;
  };
  auto reply = client.Command(build(script.sha()));
  if (reply.ok() || !IsNoScript(reply.status())) return reply;
  if (absl::Status status = LoadScript(client, script); !status.ok()) return status;
  return client.Command(build(script.sha()));
}

}  // namespace draughts::platform
