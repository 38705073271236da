-- Wrong password guesses: one counter per table id asked for (whether the
-- table exists or not, so the limit tells a guesser nothing) and one per
-- player, each counting over a fixed window from its first guess.
--
-- KEYS[1] counter; ARGV[1] "check" or "add", ARGV[2] limit, ARGV[3] window
-- seconds. Returns 1 when the counter is below the limit (check) or after
-- counting (add), 0 when the limit is reached.
if ARGV[1] == "check" then
  local n = tonumber(redis.call("GET", KEYS[1]) or "0")
  if n >= tonumber(ARGV[2]) then
    return 0
  end
  return 1
end
local n = redis.call("INCR", KEYS[1])
if n == 1 then
  redis.call("EXPIRE", KEYS[1], ARGV[3])
end
return 1
