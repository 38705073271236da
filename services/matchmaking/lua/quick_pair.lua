-- One quick-pair queue (one rule set, options, time per move and rated
-- flag), all in one hash slot so every step is atomic however many
-- replicas run. A request is a "ticket": the id of the table it would open
-- if it has to wait.
--
-- KEYS[1] queue      sorted set: player id, scored by rating
-- KEYS[2] entries    hash: player id -> "<enqueued ms>|<ticket>"
-- KEYS[3] seats      hash: ticket -> the requester's v1.Seat
-- KEYS[4] pending    sorted set: "<host table>|<joiner ticket>|<close>",
--                    pairs made but not yet seated, scored by when claimed
-- KEYS[5] paired     hash: ticket -> host table (answers retries)
-- KEYS[6] paired_at  sorted set: ticket, scored by when it was paired
--
-- ARGV[1] mode:
--   join  ARGV[2] now ms, [3] player, [4] rating, [5] ticket, [6] seat,
--         [7] base window. Pairs with the longest-waiting player within the
--         base window (a newcomer's window; a waiting player's is never
--         narrower), else queues the player.
--         Returns {"paired", host table, pending member},
--         {"queued", ticket} or {"waiting", ticket of the earlier request}.
--   sweep ARGV[2] now ms, [3] base, [4] widen by, [5] widen every ms,
--         [6] max window, [7] lease ms, [8] forget paired tickets after ms.
--         Pairs neighbours in rating order whose ratings differ by at most
--         the window of each (windows widen with the wait), the older one
--         hosting; claims pending pairs nobody finished within a lease.
--         Returns the pending members to seat now.
--   leave ARGV[2] player, [3] ticket. Takes the player out of the queue
--         if that ticket still waits. Returns 1 if it did.
local queue, entries, seats, pending, paired, paired_at =
  KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6]
local mode = ARGV[1]

local function split(entry)
  local enqueued, ticket = string.match(entry, "^(%d+)|(.*)$")
  return tonumber(enqueued), ticket
end

local function pair(now, host, joiner, close)
  local member = host .. "|" .. joiner .. "|" .. close
  redis.call("ZADD", pending, now, member)
  redis.call("HSET", paired, joiner, host)
  redis.call("ZADD", paired_at, now, joiner)
  return member
end

if mode == "join" then
  local now, player, rating, ticket = tonumber(ARGV[2]), ARGV[3], tonumber(ARGV[4]), ARGV[5]
  local host = redis.call("HGET", paired, ticket)
  if host then
    return {"paired", host, ""}
  end
  local entry = redis.call("HGET", entries, player)
  if entry then
    local _, waiting = split(entry)
    return {"waiting", waiting}
  end
  local base = tonumber(ARGV[7])
  local near = redis.call("ZRANGEBYSCORE", queue, rating - base, rating + base, "LIMIT", 0, 64)
  local best, best_since, best_ticket = nil, nil, nil
  for _, other in ipairs(near) do
    local since, other_ticket = split(redis.call("HGET", entries, other))
    if best == nil or since < best_since then
      best, best_since, best_ticket = other, since, other_ticket
    end
  end
  if best then
    redis.call("ZREM", queue, best)
    redis.call("HDEL", entries, best)
    redis.call("HSET", seats, ticket, ARGV[6])
    return {"paired", best_ticket, pair(now, best_ticket, ticket, "0")}
  end
  redis.call("ZADD", queue, rating, player)
  redis.call("HSET", entries, player, now .. "|" .. ticket)
  redis.call("HSET", seats, ticket, ARGV[6])
  return {"queued", ticket}
end

if mode == "leave" then
  local entry = redis.call("HGET", entries, ARGV[2])
  if entry then
    local _, ticket = split(entry)
    if ticket == ARGV[3] then
      redis.call("ZREM", queue, ARGV[2])
      redis.call("HDEL", entries, ARGV[2])
      return 1
    end
  end
  return 0
end

-- sweep
local now, base, widen_by = tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
local widen_every, max_window = tonumber(ARGV[5]), tonumber(ARGV[6])
local lease, forget_after = tonumber(ARGV[7]), tonumber(ARGV[8])
local function window(since)
  local waited = math.max(0, now - since)
  local steps = 0
  if widen_every > 0 then
    steps = math.floor(waited / widen_every)
  end
  return math.min(base + steps * widen_by, math.max(base, max_window))
end
local out = {}
local all = redis.call("ZRANGE", queue, 0, -1, "WITHSCORES")
local previous = nil
for i = 1, #all, 2 do
  local player, rating = all[i], tonumber(all[i + 1])
  local since, ticket = split(redis.call("HGET", entries, player))
  local mine = {player = player, rating = rating, since = since, ticket = ticket,
                window = window(since)}
  if previous and rating - previous.rating <= math.min(mine.window, previous.window) then
    local host, joiner = previous, mine
    if mine.since < previous.since then
      host, joiner = mine, previous
    end
    redis.call("ZREM", queue, host.player, joiner.player)
    redis.call("HDEL", entries, host.player, joiner.player)
    out[#out + 1] = pair(now, host.ticket, joiner.ticket, "1")
    previous = nil
  else
    previous = mine
  end
end
local stale = redis.call("ZRANGEBYSCORE", pending, "-inf", now - lease, "LIMIT", 0, 100)
for _, member in ipairs(stale) do
  redis.call("ZADD", pending, now, member)
  out[#out + 1] = member
end
local old = redis.call("ZRANGEBYSCORE", paired_at, "-inf", now - forget_after, "LIMIT", 0, 100)
for _, ticket in ipairs(old) do
  redis.call("HDEL", paired, ticket)
  redis.call("ZREM", paired_at, ticket)
end
return out
