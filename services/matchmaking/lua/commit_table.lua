-- Writes one table change atomically if nobody changed the table since it
-- was read: compares the stored version, writes the new Table, sets or
-- deletes the extra fields, appends the TableEvent to the table's stream.
-- Two replicas racing on one table both read version V; the first to run
-- this wins, the second sees "stale" and decides again.
--
-- KEYS[1] mm:{t:<id>}:table (hash), KEYS[2] mm:{t:<id>}:events (stream)
-- ARGV[1] expected version ("0": create; the table must not exist yet)
-- ARGV[2] the new v1.Table, ARGV[3] seconds to keep the table from now,
-- ARGV[4] events kept (about), ARGV[5] number of events n, then n
-- v1.TableEvent blobs, then field, value pairs to set (an empty value
-- deletes the field), and last the channel on which KEYS[2] is published
-- when events were added (the matchmaking feeds listen there; "" publishes
-- nothing).
--
-- Returns {"ok", last event id or "", new version}, {"stale"},
-- {"missing"} or {"exists"}.
local current = redis.call("HGET", KEYS[1], "v")
if ARGV[1] == "0" then
  if current then
    return {"exists"}
  end
elseif not current then
  return {"missing"}
elseif current ~= ARGV[1] then
  return {"stale"}
end
local version = tonumber(ARGV[1]) + 1
redis.call("HSET", KEYS[1], "v", version, "data", ARGV[2])
local n = tonumber(ARGV[5])
for i = 6 + n, #ARGV - 1, 2 do
  if ARGV[i + 1] == "" then
    redis.call("HDEL", KEYS[1], ARGV[i])
  else
    redis.call("HSET", KEYS[1], ARGV[i], ARGV[i + 1])
  end
end
local id = ""
for i = 6, 5 + n do
  id = redis.call("XADD", KEYS[2], "MAXLEN", "~", ARGV[4], "*", "data", ARGV[i])
end
if n > 0 and ARGV[#ARGV] ~= "" then
  redis.call("PUBLISH", ARGV[#ARGV], KEYS[2])
end
redis.call("EXPIRE", KEYS[1], ARGV[3])
redis.call("EXPIRE", KEYS[2], ARGV[3])
return {"ok", id, version}
