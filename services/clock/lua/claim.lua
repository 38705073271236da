-- Claims the timers due now: each is pushed to the end of its lease, so
-- no other replica sees it due until then (and sees it again if the
-- claimer dies before finishing it).
-- KEYS[1] the shard's timers. ARGV: now_ms, lease_until_ms, limit
-- Returns [member, due_ms, ...].
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'WITHSCORES', 'LIMIT', 0,
                       tonumber(ARGV[3]))
for i = 1, #due, 2 do redis.call('ZADD', KEYS[1], ARGV[2], due[i]) end
return due
