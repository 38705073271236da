-- A claimed move timer was handled: removed, or due again later. Nothing
-- changes when the game was armed again since the claim (a new version or
-- a new deadline replaced the timer).
-- KEYS[1] the game's hash, KEYS[2] the timers.
-- ARGV: game_id, lease_until_ms (the claim), game_version (claimed),
--       retry_at_ms ('' = remove)
-- Returns 1 when it changed the timer, else 0.
local member = 'm:' .. ARGV[1]
local score = redis.call('ZSCORE', KEYS[2], member)
if not score or tonumber(score) ~= tonumber(ARGV[2]) then return 0 end
if redis.call('HGET', KEYS[1], 'v') ~= ARGV[3] then return 0 end
if ARGV[4] == '' then
  redis.call('ZREM', KEYS[2], member)
else
  redis.call('ZADD', KEYS[2], ARGV[4], member)
end
return 1
