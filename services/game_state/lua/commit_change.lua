-- Applies one change to a game atomically if nobody changed it since it was
-- read: compares the stored version, appends the change's events, writes
-- the new state and queues its outbox messages. Two replicas racing on one
-- game both read version V; the first to run this wins, the second sees
-- V + k and writes nothing. Redis runs a script as a whole (and persists it
-- as a whole in the AOF), so a replica killed at any moment leaves either
-- all of a change or none of it.
--
-- KEYS[1] game:{<id>}:state, KEYS[2] game:{<id>}:events, KEYS[3] game:{<id>}:outbox;
-- on a single Redis (not a cluster) also KEYS[4..7], the global bot jobs,
--   results, deadlines and chat notices streams: the messages then go
--   straight to them in this same atomic step (no outbox, no relay), which
--   a cluster cannot do (those streams live in other slots).
-- ARGV[1] expected version, ARGV[2] new version, ARGV[3] StoredGame,
-- ARGV[4] seconds to keep the game from now (finished: the retention
--   period; ongoing: how long it may stay idle), 0 = leave the expiry times
--   as they are (the caller refreshes them only now and then),
-- ARGV[5] number of events n, then n GameEvent blobs,
-- then the number of outbox messages m, then m pairs (kind, data), then
-- (with KEYS[4..7]) the approximate length the global streams are kept to
-- and the game id (the entries' game_id field), and last the channel on
-- which the key of the events stream is published when events were added
-- (game-state's event feeds listen there; "" publishes nothing).
--
-- Returns {"ok", event_id * n, outbox_id * m, outbox_length},
-- {"stale", version, data, last_event_id} (the game as it is now, so the
-- caller can decide again without another round trip) or {"missing"} (the
-- game expired or never existed). outbox_length > m tells the relay that
-- older messages are still waiting (their forwarder died), so it leaves
-- them to the sweeper; it is 0 when m is 0 (nothing to forward). With
-- KEYS[4..7] the ids are those in the global streams and the length is 0:
-- nothing is left to forward.
local state, events, outbox = KEYS[1], KEYS[2], KEYS[3]
local current = redis.call("HGET", state, "v")
if not current then
  return {"missing"}
end
if current ~= ARGV[1] then
  local now = redis.call("HMGET", state, "v", "data", "last")
  return {"stale", now[1], now[2], now[3]}
end
-- Direct: every kind must name a stream, checked before anything is written
-- (a script that fails half way keeps what it wrote).
local direct = #KEYS >= 7
local streams = nil
if direct then
  streams = {bot_job = KEYS[4], result = KEYS[5], clock_update = KEYS[6], chat_notice = KEYS[7]}
  local at = 6 + tonumber(ARGV[5])
  for i = 0, tonumber(ARGV[at]) - 1 do
    if not streams[ARGV[at + 1 + 2 * i]] then
      return redis.error_reply("commit_change.lua: unknown outbox kind " .. ARGV[at + 1 + 2 * i])
    end
  end
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
  if ARGV[#ARGV] ~= "" then
    redis.call("PUBLISH", ARGV[#ARGV], events)
  end
else
  redis.call("HSET", state, "v", ARGV[2], "data", ARGV[3])
end
local at = 6 + n
local m = tonumber(ARGV[at])
for i = 0, m - 1 do
  local kind, data = ARGV[at + 1 + 2 * i], ARGV[at + 2 + 2 * i]
  if direct then
    -- The entry exactly as the relay writes it (outbox_relay.cc).
    reply[#reply + 1] = redis.call("XADD", streams[kind], "MAXLEN", "~", ARGV[at + 2 * m + 1], "*",
      "data", data, "game_id", ARGV[at + 2 * m + 2])
  else
    reply[#reply + 1] = redis.call("XADD", outbox, "*", "kind", kind, "data", data)
  end
end
if m > 0 and not direct then
  reply[#reply + 1] = redis.call("XLEN", outbox)
else
  reply[#reply + 1] = 0
end
local ttl = tonumber(ARGV[4])
if ttl > 0 then
  redis.call("EXPIRE", state, ttl)
  redis.call("EXPIRE", events, ttl)
  redis.call("EXPIRE", outbox, ttl)
end
return reply
