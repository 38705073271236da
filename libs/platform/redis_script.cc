#include "platform/redis_script.h"

#include <algorithm>
#include <cstddef>
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

absl::StatusOr<std::vector<RedisReply>> PipelineScripts(RedisClient& client,
                                                        const std::vector<ScriptCall>& calls) {
  auto command = [](const ScriptCall& call) {
    std::vector<std::string> argv;
    argv.reserve(3 + call.keys.size() + call.args.size());
    argv.push_back("EVALSHA");
    argv.push_back(call.script->sha());
    argv.push_back(absl::StrCat(call.keys.size()));
    argv.insert(argv.end(), call.keys.begin(), call.keys.end());
    argv.insert(argv.end(), call.args.begin(), call.args.end());
    return argv;
  };
  auto is_no_script = [](const RedisReply& reply) {
    return reply.is_error() && absl::StartsWith(reply.text(), "NOSCRIPT");
  };
  std::vector<std::vector<std::string>> commands;
  commands.reserve(calls.size());
  for (const ScriptCall& call : calls) {
    if (call.script->sha().empty()) {
      if (absl::Status status = LoadScript(client, *call.script); !status.ok()) return status;
    }
    commands.push_back(command(call));
  }
  absl::StatusOr<std::vector<RedisReply>> replies = client.Pipeline(commands);
  if (!replies.ok()) return replies;
  std::vector<std::size_t> again;
  for (std::size_t i = 0; i < replies->size(); ++i) {
    if (is_no_script((*replies)[i])) again.push_back(i);
  }
  if (again.empty()) return replies;
  std::vector<RedisScript*> reloaded;
  std::vector<std::vector<std::string>> resent;
  for (std::size_t i : again) {
    RedisScript* script = calls[i].script;
    if (std::find(reloaded.begin(), reloaded.end(), script) == reloaded.end()) {
      if (absl::Status status = LoadScript(client, *script); !status.ok()) return status;
      reloaded.push_back(script);
    }
    resent.push_back(command(calls[i]));
  }
  absl::StatusOr<std::vector<RedisReply>> retried = client.Pipeline(resent);
  if (!retried.ok()) return retried.status();
  for (std::size_t k = 0; k < again.size(); ++k) (*replies)[again[k]] = std::move((*retried)[k]);
  return replies;
}

}  // namespace draughts::platform
