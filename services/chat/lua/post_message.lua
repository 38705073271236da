-- Appends a chat message to its room unless its author already posted
-- under the same idempotency key; returns the key's record either way.
-- KEYS[1] the room's stream, KEYS[2] the author's record for this key
-- (both under the room's hash tag).
-- ARGV[1] the request's fingerprint (fixed length), ARGV[2] the message
-- (serialized ChatMessage without id), ARGV[3] messages kept (exact
-- MAXLEN), ARGV[4] room lifetime after its last message (ms), ARGV[5] how
-- long the key is remembered (ms), ARGV[6] the channel on which the room's
-- key is published after a new message (the chat feeds listen there; ""
-- publishes nothing).
-- Returns {1, record} for a new message, {0, record} for a repeat; a record
-- is fingerprint .. message id .. "\n" .. message.
local previous = redis.call('GET', KEYS[2])
if previous then
  return {0, previous}
end
local id = redis.call('XADD', KEYS[1], 'MAXLEN', ARGV[3], '*', 'data', ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[4])
if ARGV[6] ~= '' then
  redis.call('PUBLISH', ARGV[6], KEYS[1])
end
local record = ARGV[1] .. id .. '\n' .. ARGV[2]
redis.call('SET', KEYS[2], record, 'PX', ARGV[5])
return {1, record}
