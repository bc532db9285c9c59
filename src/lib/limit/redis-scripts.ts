/**
 * The Lua scripts of `RedisStore` (`redis.ts`): one hit, an attempt's pair of hits, and a refund,
 * each run atomically by Redis. Not part of the public entry: tests run them against a real Redis.
 */

/** One hit on a counter (a hash: n = count, r = window end in ms), as a Lua function. */
const HIT_FUNCTION = `local function hit(key, now, window, finish)
  local r = redis.call('HGET', key, 'r')
  if r and tonumber(r) > tonumber(now) then
    return {redis.call('HINCRBY', key, 'n', 1), r}
  end
  redis.call('HSET', key, 'n', 1, 'r', finish)
  redis.call('PEXPIRE', key, window)
  return {1, finish}
end
`;

/**
 * KEYS[1]: the counter. ARGV: now (ms), the window (ms), the end of a window started now (ms).
 */
export const HIT_SCRIPT = `${HIT_FUNCTION}return hit(KEYS[1], ARGV[1], ARGV[2], ARGV[3])`;

/**
 * KEYS[1], KEYS[2]: the pair's counters. ARGV: now, then each one's window and end of a window
 * started now (ms), then the first's limit: the second is hit only while the first's count is
 * within it. Replies with the first's count and end, then the second's when it was hit.
 */
export const PAIR_SCRIPT = `${HIT_FUNCTION}local a = hit(KEYS[1], ARGV[1], ARGV[2], ARGV[3])
if tonumber(a[1]) > tonumber(ARGV[6]) then return a end
local b = hit(KEYS[2], ARGV[1], ARGV[4], ARGV[5])
return {a[1], a[2], b[1], b[2]}`;

/**
 * KEYS[1]: the counter. ARGV[1]: the end of the window the hit to take back was counted in (ms):
 * one is subtracted only while the counter's window ends then and its count is above 0.
 */
export const RELEASE_SCRIPT = `local r = redis.call('HGET', KEYS[1], 'r')
if r and tonumber(r) == tonumber(ARGV[1]) and (tonumber(redis.call('HGET', KEYS[1], 'n')) or 0) > 0 then
  return redis.call('HINCRBY', KEYS[1], 'n', -1)
end
return -1`;
