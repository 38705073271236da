-- Saves a presence check: the seats' fields and the next check. A beat
-- that changed a seat's connectivity while the check ran (so the check saw
-- an old state) makes the next check due now.
-- KEYS[1] the game's hash, KEYS[2] its connections, KEYS[3] the timers.
-- ARGV: game_id, lease_until_ms (the claim), next_ms ('' = none), now_ms,
--       live_window_ms, observed ('<color digit><0|1>' per seat, e.g. '1120'),
--       then field, value pairs ('' value = delete the field)
-- Returns 1, or 0 when the game is unknown or over.
local game, conns, timers = KEYS[1], KEYS[2], KEYS[3]
if redis.call('EXISTS', game) == 0 or redis.call('HGET', game, 'over') then return 0 end
for i = 7, #ARGV, 2 do
  if ARGV[i + 1] == '' then
    redis.call('HDEL', game, ARGV[i])
  else
    redis.call('HSET', game, ARGV[i], ARGV[i + 1])
  end
end
local now = tonumber(ARGV[4])
local nxt = ARGV[3]
local oldest = now - tonumber(ARGV[5])
local all = redis.call('HGETALL', conns)
for i = 1, #ARGV[6], 2 do
  local color = string.sub(ARGV[6], i, i)
  local seen = string.sub(ARGV[6], i + 1, i + 1) == '1'
  local connected = false
  for j = 1, #all, 2 do
    if string.sub(all[j], 1, 2) == color .. '|' and tonumber(all[j + 1]) > oldest then
      connected = true
    end
  end
  if connected ~= seen then nxt = ARGV[4] end
end
local member = 'p:' .. ARGV[1]
local score = redis.call('ZSCORE', timers, member)
if score and tonumber(score) == tonumber(ARGV[2]) then
  if nxt == '' then
    redis.call('ZREM', timers, member)
  else
    redis.call('ZADD', timers, nxt, member)
  end
elseif nxt ~= '' then
  redis.call('ZADD', timers, 'LT', nxt, member)
end
return 1
