-- Creates a game in one atomic step, unless it already exists (the game id
-- is derived from the CreateGame idempotency key, so a retry lands here).
--
-- KEYS[1] game:{<id>}:state   hash: v (version), data (StoredGame), last (event id)
-- KEYS[2] game:{<id>}:events  stream of GameEvent (field data)
-- KEYS[3] game:{<id>}:outbox  stream of messages for global streams (fields kind, data)
-- ARGV[1] version after creation, ARGV[2] StoredGame, ARGV[3] GameCreated event,
-- ARGV[4] seconds to keep the game without activity (0: no expiry),
-- ARGV[5] number of outbox messages n, then n pairs (kind, data).
--
-- Returns {"created", event_id, outbox_id..., outbox_length}
--      or {"exists", version, data, last_event_id} (nothing written).
local state, events, outbox = KEYS[1], KEYS[2], KEYS[3]
if redis.call("EXISTS", state) == 1 then
  local stored = redis.call("HMGET", state, "v", "data", "last")
  return {"exists", stored[1], stored[2], stored[3]}
end
local event_id = redis.call("XADD", events, "*", "data", ARGV[3])
redis.call("HSET", state, "v", ARGV[1], "data", ARGV[2], "last", event_id)
local reply = {"created", event_id}
local n = tonumber(ARGV[5])
for i = 0, n - 1 do
  reply[#reply + 1] = redis.call("XADD", outbox, "*", "kind", ARGV[6 + 2 * i], "data", ARGV[7 + 2 * i])
end
reply[#reply + 1] = redis.call("XLEN", outbox)
local ttl = tonumber(ARGV[4])
if ttl > 0 then
  redis.call("EXPIRE", state, ttl)
  redis.call("EXPIRE", events, ttl)
  redis.call("EXPIRE", outbox, ttl)
end
return reply
