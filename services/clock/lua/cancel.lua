-- The game is over: drops its timers and connections and leaves a
-- tombstone, so an older arming delivered late changes nothing.
-- KEYS[1] the game's hash, KEYS[2] its connections, KEYS[3] the timers.
-- ARGV: game_id, game_version ('' = unknown), tombstone ttl_ms
-- Returns 1, or 0 when a newer version is armed (nothing changed).
local game, conns, timers = KEYS[1], KEYS[2], KEYS[3]
local id = ARGV[1]
local known = redis.call('HGET', game, 'v')
if ARGV[2] ~= '' and known and tonumber(known) > tonumber(ARGV[2]) then return 0 end
local version = ARGV[2]
if version == '' then version = known or '0' end
redis.call('ZREM', timers, 'm:' .. id, 'p:' .. id)
redis.call('DEL', conns, game)
redis.call('HSET', game, 'over', '1', 'v', version)
redis.call('PEXPIRE', game, ARGV[3])
return 1
