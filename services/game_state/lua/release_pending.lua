-- Drops a game from the outbox-pending index only if nobody re-marked it
-- since the relay read it (same score), so a mark made by a concurrent
-- change is never lost. Touches one key, so it runs on Redis Cluster too.
--
-- KEYS[1] the pending index (sorted set: game id -> ms when marked)
-- ARGV[1] game id, ARGV[2] the score the relay saw
-- Returns 1 if removed, 0 if it was re-marked (or already gone).
local score = redis.call("ZSCORE", KEYS[1], ARGV[1])
if score and tonumber(score) == tonumber(ARGV[2]) then
  return redis.call("ZREM", KEYS[1], ARGV[1])
end
return 0
