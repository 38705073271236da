-- Applies one change to a game atomically if nobody changed it since it was
-- read: compares the stored version, appends the change's events, writes
-- the new state and queues its outbox messages. Two replicas racing on one
-- game both read version V; the first to run this wins, the second sees
-- V + k and writes nothing. Redis runs a script as a whole (and persists it
-- as a whole in the AOF), so a replica killed at any moment leaves either
-- all of a change or none of it.
--
-- KEYS[1] game:{<id>}:state, KEYS[2] game:{<id>}:events, KEYS[3] game:{<id>}:outbox
-- ARGV[1] expected version, ARGV[2] new version, ARGV[3] StoredGame,
-- ARGV[4] seconds to keep the game from now (finished: the retention
--   period; ongoing: how long it may stay idle), 0 = no expiry,
-- ARGV[5] number of events n, then n GameEvent blobs,
-- then the number of outbox messages m, then m pairs (kind, data).
--
-- Returns {"ok", event_id * n, outbox_id * m, outbox_length},
-- {"stale", current_version} or {"missing"} (the game expired or never
-- existed). outbox_length > m tells the relay that older messages are still
-- waiting (their forwarder died), so it leaves them to the sweeper.
local state, events, outbox = KEYS[1], KEYS[2], KEYS[3]
local current = redis.call("HGET", state, "v")
if not current then
  return {"missing"}
end
if current ~= ARGV[1] then
  return {"stale", current}
end
local reply = {"ok"}
local last = nil
local n = tonumber(ARGV[5])
for i = 1, n do
  last = redis.call("XADD", events, "*", "data", ARGV[5 + i])
  reply[#reply + 1] = last
end
if last then
  redis.call("HSET", state, "v", ARGV[2], "data", ARGV[3], "last", last)
else
  redis.call("HSET", state, "v", ARGV[2], "data", ARGV[3])
end
local at = 6 + n
local m = tonumber(ARGV[at])
for i = 0, m - 1 do
  reply[#reply + 1] = redis.call("XADD", outbox, "*", "kind", ARGV[at + 1 + 2 * i], "data", ARGV[at + 2 + 2 * i])
end
reply[#reply + 1] = redis.call("XLEN", outbox)
local ttl = tonumber(ARGV[4])
if ttl > 0 then
  redis.call("EXPIRE", state, ttl)
  redis.call("EXPIRE", events, ttl)
  redis.call("EXPIRE", outbox, ttl)
end
return reply
