#include "platform/redis_cluster_slots.h"

#include <array>
#include <cctype>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "platform/absl_compat.h"

namespace draughts::platform {
namespace {

constexpr std::array<uint16_t, 256> MakeCrc16Table() {
  std::array<uint16_t, 256> table{};
  for (int byte = 0; byte < 256; ++byte) {
    uint16_t crc = static_cast<uint16_t>(byte << 8);
    for (int bit = 0; bit < 8; ++bit) {
      crc = (crc & 0x8000) != 0 ? static_cast<uint16_t>((crc << 1) ^ 0x1021)
                                : static_cast<uint16_t>(crc << 1);
    }
    table[static_cast<size_t>(byte)] = crc;
  }
  return table;
}

constexpr std::array<uint16_t, 256> kCrc16Table = MakeCrc16Table();

std::string Upper(std::string_view text) {
  return absl::AsciiStrToUpper(ToAbsl(text));
}

absl::Status TooShort(const std::vector<std::string>& argv) {
  return absl::InvalidArgumentError(
      absl::StrCat("redis cluster: ", argv[0], " has fewer arguments than the keys it declares"));
}

}  // namespace

uint16_t RedisCrc16(std::string_view data) {
  uint16_t crc = 0;
  for (unsigned char c : data) {
    crc = static_cast<uint16_t>((crc << 8) ^ kCrc16Table[((crc >> 8) ^ c) & 0xff]);
  }
  return crc;
}

int RedisKeySlot(std::string_view key) {
  const size_t open = key.find('{');
  if (open != std::string_view::npos) {
    const size_t close = key.find('}', open + 1);
    if (close != std::string_view::npos && close > open + 1) {
      key = key.substr(open + 1, close - open - 1);
    }
  }
  return RedisCrc16(key) % kRedisClusterSlots;
}

absl::StatusOr<RedisCommandKeys> CommandKeys(const std::vector<std::string>& argv) {
  if (argv.empty()) return absl::InvalidArgumentError("redis: empty command");
  RedisCommandKeys result;
  const std::string name = Upper(argv[0]);
  auto all_from = [&](size_t first, size_t step, size_t end) {
    for (size_t i = first; i < end; i += step) result.keys.push_back(argv[i]);
  };
  if (name == "PING" || name == "INFO" || name == "CLIENT" || name == "CLUSTER" || name == "TIME" ||
      name == "ECHO" || name == "DBSIZE" || name == "ASKING" || name == "READONLY" ||
      name == "WAIT" || name == "COMMAND" || name == "CONFIG") {
    result.route = RedisCommandRoute::kAnyNode;
  } else if (name == "SCRIPT" || name == "FLUSHALL" || name == "FLUSHDB" || name == "FUNCTION") {
    result.route = RedisCommandRoute::kAllMasters;
  } else if (name == "EVAL" || name == "EVALSHA" || name == "EVAL_RO" || name == "EVALSHA_RO" ||
             name == "FCALL" || name == "FCALL_RO") {
    int64_t count = 0;
    if (argv.size() < 3 || !absl::SimpleAtoi(argv[2], &count) || count < 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("redis cluster: ", argv[0], " needs a key count"));
    }
    if (argv.size() < 3 + static_cast<size_t>(count)) return TooShort(argv);
    all_from(3, 1, 3 + static_cast<size_t>(count));
    if (count == 0) result.route = RedisCommandRoute::kAnyNode;
  } else if (name == "XREAD" || name == "XREADGROUP") {
    size_t streams = 0;
    for (size_t i = 1; i < argv.size(); ++i) {
      if (Upper(argv[i]) == "STREAMS") {
        streams = i;
        break;
      }
    }
    const size_t rest = streams == 0 ? 0 : argv.size() - streams - 1;
    if (streams == 0 || rest == 0 || rest % 2 != 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("redis cluster: ", argv[0], " needs STREAMS key... id..."));
    }
    all_from(streams + 1, 1, streams + 1 + rest / 2);
  } else if (name == "MGET" || name == "DEL" || name == "UNLINK" || name == "EXISTS" ||
             name == "TOUCH" || name == "WATCH" || name == "SINTER" || name == "SUNION" ||
             name == "SDIFF" || name == "PFCOUNT") {
    all_from(1, 1, argv.size());
  } else if (name == "MSET" || name == "MSETNX") {
    all_from(1, 2, argv.size());
  } else if (name == "BLPOP" || name == "BRPOP" || name == "BZPOPMIN" || name == "BZPOPMAX") {
    all_from(1, 1, argv.size() - 1);
  } else if (name == "RENAME" || name == "RENAMENX" || name == "SMOVE" || name == "RPOPLPUSH" ||
             name == "LMOVE" || name == "COPY") {
    all_from(1, 1, std::min<size_t>(argv.size(), 3));
  } else if (name == "XGROUP" || name == "XINFO" || name == "OBJECT" || name == "MEMORY") {
    // Subcommand first, then the key (XGROUP HELP and the like have none).
    if (argv.size() >= 3) {
      result.keys.push_back(argv[2]);
    } else {
      result.route = RedisCommandRoute::kAnyNode;
    }
  } else if (argv.size() >= 2) {
    result.keys.push_back(argv[1]);
  } else {
    result.route = RedisCommandRoute::kAnyNode;
  }
  if (result.route == RedisCommandRoute::kByKeys && result.keys.empty()) return TooShort(argv);
  return result;
}

absl::StatusOr<std::optional<int>> CommandSlot(const std::vector<std::string>& argv) {
  absl::StatusOr<RedisCommandKeys> keys = CommandKeys(argv);
  if (!keys.ok()) return keys.status();
  if (keys->route != RedisCommandRoute::kByKeys) return std::optional<int>();
  const int slot = RedisKeySlot(keys->keys.front());
  for (std::string_view key : keys->keys) {
    if (RedisKeySlot(key) != slot) {
      return absl::InvalidArgumentError(absl::StrCat(
          "redis cluster: ", argv[0], " names keys of different hash slots (\"",
          ToAbsl(keys->keys.front()), "\" and \"", ToAbsl(key),
          "\"); on a cluster one command or script may only use keys of one slot: give them "
          "the same {hash tag}"));
    }
  }
  return std::optional<int>(slot);
}

bool IsReadOnlyCommand(std::string_view name) {
  static constexpr std::string_view kReads[] = {"GET",           "MGET",
                                                "EXISTS",        "TTL",
                                                "PTTL",          "TYPE",
                                                "STRLEN",        "HGET",
                                                "HMGET",         "HGETALL",
                                                "HEXISTS",       "HLEN",
                                                "HKEYS",         "HVALS",
                                                "SMEMBERS",      "SISMEMBER",
                                                "SCARD",         "SRANDMEMBER",
                                                "ZRANGE",        "ZREVRANGE",
                                                "ZRANGEBYSCORE", "ZREVRANGEBYSCORE",
                                                "ZSCORE",        "ZCARD",
                                                "ZCOUNT",        "ZRANK",
                                                "ZREVRANK",      "ZMSCORE",
                                                "LRANGE",        "LLEN",
                                                "LINDEX",        "XRANGE",
                                                "XREVRANGE",     "XLEN",
                                                "XREAD",         "XINFO",
                                                "XPENDING",      "PING",
                                                "INFO",          "CLUSTER",
                                                "TIME",          "ECHO",
                                                "DBSIZE",        "EVAL_RO",
                                                "EVALSHA_RO",    "FCALL_RO",
                                                "PFCOUNT",       "CLIENT"};
  const std::string upper = Upper(name);
  for (std::string_view read : kReads) {
    if (upper == read) return true;
  }
  return false;
}

}  // namespace draughts::platform
