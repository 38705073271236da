-- Sliding-window rate limit of one author, on Redis's clock so every
-- replica counts alike. KEYS[1] the author's recent posts (sorted set,
-- score = ms). ARGV[1] posts allowed per window, ARGV[2] window (ms),
-- ARGV[3] a member naming this post (unique).
-- Returns {1, 0} when counted, {0, ms to wait} when over the limit.
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local window = tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[1]) then
  local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
  return {0, tonumber(oldest[2]) + window - now}
end
redis.call('ZADD', KEYS[1], now, ARGV[3])
redis.call('PEXPIRE', KEYS[1], window)
return {1, 0}
