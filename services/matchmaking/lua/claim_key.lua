-- Remembers the first request made with an idempotency key: its
-- fingerprint and the table it made or acts on. A repeat with the same
-- fingerprint learns the table and whether the first call finished; one
-- with another fingerprint is refused.
--
-- KEYS[1] mm:idem:<method>:<player>:<key> (hash)
-- ARGV[1] fingerprint, ARGV[2] table id proposed for a first call,
-- ARGV[3] seconds to remember the key.
-- Returns {"new", table}, {"repeat", table, done ("1" or "")} or
-- {"conflict"}.
local seen = redis.call("HMGET", KEYS[1], "fp", "table", "done")
if seen[1] then
  if seen[1] ~= ARGV[1] then
    return {"conflict"}
  end
  return {"repeat", seen[2] or "", seen[3] or ""}
end
redis.call("HSET", KEYS[1], "fp", ARGV[1], "table", ARGV[2])
redis.call("EXPIRE", KEYS[1], ARGV[3])
return {"new", ARGV[2]}
