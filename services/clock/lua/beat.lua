-- One heartbeat (or a closing connection) of a human seat.
-- KEYS[1] the game's hash, KEYS[2] its connections, KEYS[3] the timers.
-- ARGV: game_id, color digit, connection_id, closing ('1'/'0'), now_ms,
--       live_window_ms, ttl_ms
-- Returns 1 when the seat is connected after the beat, else 0. When that
-- differs from what game-state was last told, a presence check is due now.
local game, conns, timers = KEYS[1], KEYS[2], KEYS[3]
local id, color = ARGV[1], ARGV[2]
if redis.call('EXISTS', game) == 0 or redis.call('HGET', game, 'over') then
  return redis.error_reply('NOT_FOUND the clock is not tracking game ' .. id ..
                           ' (over or unknown): stop beating')
end
local humans = redis.call('HGET', game, 'humans') or ''
if not string.find(humans, color, 1, true) then
  return redis.error_reply('FAILED_PRECONDITION that seat of game ' .. id ..
                           ' is a bot\'s: it is always present')
end
local now = tonumber(ARGV[5])
local mine = color .. '|'
if ARGV[4] == '1' then
  redis.call('HDEL', conns, mine .. ARGV[3])
else
  redis.call('HSET', conns, mine .. ARGV[3], ARGV[5])
end
redis.call('HSET', game, 's' .. color, ARGV[5])
local oldest = now - tonumber(ARGV[6])
local connected = false
local all = redis.call('HGETALL', conns)
for i = 1, #all, 2 do
  if string.sub(all[i], 1, #mine) == mine then
    if tonumber(all[i + 1]) > oldest then
      connected = true
    else
      redis.call('HDEL', conns, all[i])
    end
  end
end
local reported = redis.call('HGET', game, 'r' .. color) == '1'
if connected ~= reported then redis.call('ZADD', timers, 'LT', now, 'p:' .. id) end
redis.call('PEXPIRE', conns, ARGV[7])
return connected and 1 or 0
