-- Arms one game's deadline, ordered by game_version.
-- KEYS[1] the game's hash, KEYS[2] the shard's timers (sorted set).
-- ARGV: game_id, game_version, expected_ply, color, deadline_ms ('' = none),
--       human seats (color digits, e.g. '12'), now_ms, abandon_after_ms, ttl_ms
-- Returns 1 (armed) or 0 (this version was armed already); ABORTED when a
-- newer version is known.
local game, timers = KEYS[1], KEYS[2]
local id, version = ARGV[1], tonumber(ARGV[2])
local known = redis.call('HGET', game, 'v')
if known then
  known = tonumber(known)
  if known > version then
    return redis.error_reply('ABORTED game_version ' .. ARGV[2] .. ' is older than the armed ' ..
                             known .. ' for this game')
  end
  if known == version then return 0 end
end
local was_over = redis.call('HGET', game, 'over')
redis.call('HDEL', game, 'over')
redis.call('HSET', game, 'v', ARGV[2], 'ply', ARGV[3], 'color', ARGV[4], 'humans', ARGV[6])
local move = 'm:' .. id
if ARGV[5] ~= '' then
  redis.call('HSET', game, 'dl', ARGV[5])
  redis.call('ZADD', timers, ARGV[5], move)
else
  redis.call('HDEL', game, 'dl')
  redis.call('ZREM', timers, move)
end
local now = tonumber(ARGV[7])
if not redis.call('HGET', game, 'first') then
  -- Nobody has connected yet: every human seat is away from now on.
  redis.call('HSET', game, 'first', ARGV[7])
  for c in string.gmatch(ARGV[6], '%d') do redis.call('HSET', game, 'a' .. c, ARGV[7]) end
  if ARGV[6] ~= '' then
    redis.call('ZADD', timers, 'LT', now + tonumber(ARGV[8]), 'p:' .. id)
  end
elseif was_over and ARGV[6] ~= '' then
  redis.call('ZADD', timers, 'LT', now, 'p:' .. id)
end
redis.call('PEXPIRE', game, ARGV[9])
return 1
