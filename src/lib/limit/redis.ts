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
 * (A cluster client routes by key: pass `sendCommand` that sends to the node of `args[3]`, the key,
 * and `pairs: false`, so that each command touches one key only.)
 *
 * A hit is one `EVALSHA` of a short Lua script (run atomically by Redis): start a window, or add
 * one to it, and return the count and the window's end. An attempt's address and account are
 * counted by one script too (`hitPair`), unless `pairs: false`, and a refund (`release`) is one
 * script that subtracts only within the window it is given. The window is judged by the limiter's
 * clock, passed in, as every kitauth store does (so all of them agree, and tests can move time);
 * app servers' clocks must agree to within a small part of a window, as they already must for
 * JWT expiry. Redis's own clock only sets the key's TTL (PEXPIRE, when the window starts), so
 * expired counters disappear by themselves and `sweep` has nothing to do. The script needs no
 * Redis 7 feature (PEXPIRE NX and the like): it sets the TTL exactly when it starts a window.
 */
import { windowMillis } from '../core/limit/window.js';
import type { LimitCount, LimitStore } from '../core/types/limit.js';
import { HIT_SCRIPT, PAIR_SCRIPT, RELEASE_SCRIPT } from './redis-scripts.js';

/** The one thing the store needs from a client. */
export interface RedisCommandSender {
	sendCommand(args: string[]): Promise<unknown>;
}

export interface RedisStoreOptions {
	/** Prepended to every key (default `kitauth:rl:`). */
	prefix?: string;
	/**
	 * Count an attempt's address and account in one script (`hitPair`: one round trip instead of
	 * two). The script names both keys, which Redis Cluster refuses when they hash to different
	 * slots (CROSSSLOT): with a cluster client, set `false`. Default `true`.
	 */
	pairs?: boolean;
}

export function RedisStore(client: RedisCommandSender, options: RedisStoreOptions = {}): LimitStore {
	const prefix = options.prefix ?? 'kitauth:rl:';
	const digests = new Map<string, Promise<string>>();

	const send = (args: string[]): Promise<unknown> => client.sendCommand(args);

	const evaluate = async (script: string, args: string[]): Promise<unknown> => {
		let digest = digests.get(script);
		if (!digest) {
			digest = sha1(script).catch(() => ''); // no Web Crypto: plain EVAL every time
			digests.set(script, digest);
		}
		const sha = await digest;
		if (sha === '') return send(['EVAL', script, ...args]);
		try {
			return await send(['EVALSHA', sha, ...args]);
		} catch (error) {
			// A server that has not seen the script (restarted, failed over, flushed) says NOSCRIPT.
			if (!/NOSCRIPT/.test(messageOf(error))) throw error;
			return send(['EVAL', script, ...args]);
		}
	};

	const counter = (reply: unknown[], at: number): LimitCount => ({ count: Number(reply[at]), resetAt: Number(reply[at + 1]) });

	const store: LimitStore = {
		async hit(key: string, windowMs: number, now: number): Promise<LimitCount> {
			const window = windowMillis(windowMs);
			const reply = await evaluate(HIT_SCRIPT, ['1', prefix + key, String(now), String(window), String(now + window)]);
			if (!Array.isArray(reply) || reply.length !== 2) throw new Error('RedisStore: unexpected reply to the hit script');
			return counter(reply, 0);
		},
		async release(key: string, resetAt: number): Promise<void> {
			await evaluate(RELEASE_SCRIPT, ['1', prefix + key, String(resetAt)]);
		},
		async reset(key: string): Promise<void> {
			await send(['DEL', prefix + key]);
		},
		// Keys expire by their TTL.
		sweep: () => Promise.resolve(0)
	};
	if (options.pairs === false) return store;
	return {
		...store,
		async hitPair(first, second, firstLimit, now) {
			const [one, two] = [windowMillis(first.windowMs), windowMillis(second.windowMs)];
			const args = [String(now), String(one), String(now + one), String(two), String(now + two), String(firstLimit)];
			const reply = await evaluate(PAIR_SCRIPT, ['2', prefix + first.key, prefix + second.key, ...args]);
			if (!Array.isArray(reply) || (reply.length !== 2 && reply.length !== 4)) throw new Error('RedisStore: unexpected reply to the pair script');
			return [counter(reply, 0), reply.length === 4 ? counter(reply, 2) : undefined];
		}
	};
}

async function sha1(text: string): Promise<string> {
	const digest = await crypto.subtle.digest('SHA-1', new TextEncoder().encode(text));
	return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

function messageOf(error: unknown): string {
	return error instanceof Error ? error.message : String(error);
}
