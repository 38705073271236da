-- Claims due members of a schedule (a sorted set scored by due time in
-- ms): each one returned is pushed `lease` ms into the future, so any
-- number of replicas sweeping the same schedule never handle one member at
-- the same time; the claimer removes it once handled, and a claimer that
-- died leaves it to be claimed again after the lease.
--
-- KEYS[1] the schedule; ARGV[1] now (ms), ARGV[2] lease (ms), ARGV[3] most
-- members to claim. Returns the claimed members.
local due = redis.call("ZRANGEBYSCORE", KEYS[1], "-inf", ARGV[1], "LIMIT", 0, ARGV[3])
local later = tonumber(ARGV[1]) + tonumber(ARGV[2])
for _, member in ipairs(due) do
  redis.call("ZADD", KEYS[1], later, member)
end
return due
