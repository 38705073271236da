// Redis Cluster key routing: the hash slot of a key (CRC16 of its hash tag,
// modulo 16384) and the keys a command names, so a cluster client can send
// each command to the node that serves its slot. A command whose keys fall
// in several slots cannot run on a cluster (the server would answer
// CROSSSLOT); KeysSlot refuses it before anything is sent.
#ifndef DRAUGHTS_PLATFORM_REDIS_CLUSTER_SLOTS_H_
#define DRAUGHTS_PLATFORM_REDIS_CLUSTER_SLOTS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"

namespace draughts::platform {

inline constexpr int kRedisClusterSlots = 16384;

// CRC16-CCITT (XMODEM: polynomial 0x1021, initial value 0), as Redis uses.
uint16_t RedisCrc16(std::string_view data);

// The slot of `key`: only the part between the first '{' and the next '}'
// counts when that part is not empty ("game:{g1}:state" and
// "game:{g1}:events" share a slot).
int RedisKeySlot(std::string_view key);

// How a command is routed on a cluster.
enum class RedisCommandRoute {
  kByKeys,     // to the owner of its keys' slot
  kAnyNode,    // keyless (PING, INFO, CLIENT ...): any one master
  kAllMasters  // SCRIPT LOAD/FLUSH, FLUSHALL ...: every master
};

struct RedisCommandKeys {
  RedisCommandRoute route = RedisCommandRoute::kByKeys;
  std::vector<std::string_view> keys;  // views into the command's argv
};

// The keys `argv` names (EVAL/EVALSHA numkeys, XREAD/XREADGROUP STREAMS,
// MGET/DEL/EXISTS..., MSET pairs, otherwise argv[1]). INVALID_ARGUMENT for a
// command too short to hold the keys it declares.
absl::StatusOr<RedisCommandKeys> CommandKeys(const std::vector<std::string>& argv);

// The one slot every key of `argv` hashes to; nullopt for a keyless command
// (or EVAL with no keys). INVALID_ARGUMENT, naming two of the keys, when
// they fall in different slots.
absl::StatusOr<std::optional<int>> CommandSlot(const std::vector<std::string>& argv);

// Whether a command only reads (safe to send again after its connection
// broke, and needing no replica acknowledgement).
bool IsReadOnlyCommand(std::string_view name);

}  // namespace draughts::platform

#endif  // DRAUGHTS_PLATFORM_REDIS_CLUSTER_SLOTS_H_
