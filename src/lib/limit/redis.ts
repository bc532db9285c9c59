/**
 * `kitauth/limit/redis`: rate-limit counters in Redis (or Valkey), shared by every instance.
 *
 * kitauth depends on no Redis client: hand in anything that sends one command as an array of
 * strings and resolves to the reply.
 *
 * ```ts
 * import { RedisStore } from 'kitauth/limit/redis';
 * // node-redis (`redis` v4 and later): its client fits as it is
 * const store = RedisStore(client);
 * // ioredis
 * const store = RedisStore({ sendCommand: ([name, ...args]) => redis.call(name!, ...args) });
 * ```
 * (A cluster client routes by key: pass `sendCommand` that sends to the node of `args[3]`, the key;
 * each command touches one key only.)
 *
 * A hit is one `EVALSHA` of a short Lua script (run atomically by Redis): start a window, or add
 * one to it, and return the count and the window's end. The window is judged by the limiter's
 * clock, passed in, as every kitauth store does (so all of them agree, and tests can move time);
 * app servers' clocks must agree to within a small part of a window, as they already must for
 * JWT expiry. Redis's own clock only sets the key's TTL (PEXPIRE, when the window starts), so
 * expired counters disappear by themselves and `sweep` has nothing to do. The script needs no
 * Redis 7 feature (PEXPIRE NX and the like): it sets the TTL exactly when it starts a window.
 */
import type { LimitCount, LimitStore } from '../core/types/limit.js';

/** The one thing the store needs from a client. */
export interface RedisCommandSender {
	sendCommand(args: string[]): Promise<unknown>;
}

export interface RedisStoreOptions {
	/** Prepended to every key (default `kitauth:rl:`). */
	prefix?: string;
}

/**
 * KEYS[1]: the counter (a hash: n = count, r = window end in ms).
 * ARGV: now (ms), the window (ms), the end of a window started now (ms).
 */
export const HIT_SCRIPT = `local r = redis.call('HGET', KEYS[1], 'r')
if r and tonumber(r) > tonumber(ARGV[1]) then
  return {redis.call('HINCRBY', KEYS[1], 'n', 1), r}
end
redis.call('HSET', KEYS[1], 'n', 1, 'r', ARGV[3])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return {1, ARGV[3]}`;

export function RedisStore(client: RedisCommandSender, options: RedisStoreOptions = {}): LimitStore {
	const prefix = options.prefix ?? 'kitauth:rl:';
	let sha: Promise<string> | undefined;

	const send = (args: string[]): Promise<unknown> => client.sendCommand(args);

	const evaluate = async (args: string[]): Promise<unknown> => {
		sha ??= sha1(HIT_SCRIPT).catch(() => ''); // no Web Crypto: plain EVAL every time
		const digest = await sha;
		if (digest === '') return send(['EVAL', HIT_SCRIPT, ...args]);
		try {
			return await send(['EVALSHA', digest, ...args]);
		} catch (error) {
			// A server that has not seen the script (restarted, failed over, flushed) says NOSCRIPT.
			if (!/NOSCRIPT/.test(messageOf(error))) throw error;
			return send(['EVAL', HIT_SCRIPT, ...args]);
		}
	};

	return {
		async hit(key: string, windowMs: number, now: number): Promise<LimitCount> {
			const window = Math.max(1, Math.ceil(windowMs));
			const reply = await evaluate(['1', prefix + key, String(now), String(window), String(now + window)]);
			if (!Array.isArray(reply) || reply.length !== 2) throw new Error('RedisStore: unexpected reply to the hit script');
			return { count: Number(reply[0]), resetAt: Number(reply[1]) };
		},
		async reset(key: string): Promise<void> {
			await send(['DEL', prefix + key]);
		},
		// Keys expire by their TTL.
		sweep: () => Promise.resolve(0)
	};
}

async function sha1(text: string): Promise<string> {
	const digest = await crypto.subtle.digest('SHA-1', new TextEncoder().encode(text));
	return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

function messageOf(error: unknown): string {
	return error instanceof Error ? error.message : String(error);
}
