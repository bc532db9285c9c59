/**
 * The limiter: one decision per attempt, from the rules of its kind.
 *
 * Order matters (see `defaults.ts`): the address scope first, and the account counter only for
 * attempts the address scope let through, so one address cannot push an account to its hard limit.
 * Then the account's hard limit, then its delay gate: a second key whose window is the current
 * delay, so one attempt opens it and every other attempt inside it is refused with the time left.
 * Refused attempts never extend a window (fixed windows), so hammering cannot push a delay out.
 *
 * Round trips: one for both scopes where the store counts a pair at once (`hitPair`, with the
 * account counted only if the address passed), else one per scope; plus one for the gate once an
 * account is past its free attempts. The identifier is hashed once. Every store call has a
 * deadline; a failure or a timeout is logged and answered from this process's memory (`failOpen`,
 * default) or refused, and the rest of that check skips the store. Nothing here throws to the
 * caller.
 */
import { RateLimitStoreError } from '../errors.js';
import type { LoggerInstance } from '../types/config.js';
import type {
	ClientAddressOptions,
	LimitAttempt,
	LimitCount,
	LimitDecision,
	LimitHit,
	LimitKind,
	LimitScope,
	LimitStore,
	Limiter,
	RateLimitedMessage
} from '../types/limit.js';
import { addressBucket } from './address.js';
import { clientAddress } from './client-address.js';
import type { Hasher } from './hash.js';
import { normalizeIdentifier } from './identifier.js';
import { MemoryStore } from './memory.js';
import { delayAfter, type Rules } from './policy.js';

/**
 * What outlives one resolved configuration: it lives in the long-lived instance's `Runtime`
 * (`config.ts`), since lazy configurations are resolved per request.
 */
export interface LimiterShared {
	/** The memory store: the default store, and the fallback when the configured store fails. */
	readonly memory: MemoryStore;
	/** When the next background sweep of expired counters is due (ms on the limiter's clock). */
	nextSweepAt: number;
	/** Whether "memory store in production" was already said. */
	memoryWarned: boolean;
}

export function createLimiterShared(): LimiterShared {
	return { memory: new MemoryStore(), nextSweepAt: -Infinity, memoryWarned: false };
}

export interface LimiterOptions {
	store: LimitStore;
	rules: Rules;
	failOpen: boolean;
	clientAddress?: Readonly<Required<ClientAddressOptions>>;
	ipv6Prefix: number;
	/** Milliseconds per store call. */
	timeout: number;
	now: () => number;
	hash: Hasher;
	logger: LoggerInstance;
	/** Called once per refused attempt (the `rateLimited` event); must not throw. */
	onLimited?: (message: RateLimitedMessage) => void;
	shared: LimiterShared;
	/** Milliseconds between background sweeps (default 10 minutes). */
	sweepInterval?: number;
}

const ALLOWED: LimitDecision = Object.freeze({ allowed: true });

/** How long a refusal for a failed store (`failOpen: false`) asks the client to wait. */
export const STORE_DOWN_RETRY_AFTER = 10;

/** A limiter that allows everything and touches nothing (`rateLimit: false`, or off by default). */
export const disabledLimiter: Limiter = Object.freeze({
	enabled: false,
	check: () => Promise.resolve(ALLOWED),
	succeeded: () => Promise.resolve(),
	sweep: () => Promise.resolve(0)
});

export function createLimiter(options: LimiterOptions): Limiter {
	const { store, rules, failOpen, ipv6Prefix, timeout, now: clock, hash, logger, shared } = options;
	const sweepInterval = options.sweepInterval ?? 10 * 60_000;

	const failed = (what: string, kind: LimitKind | undefined, error: unknown, answer = '') => {
		const cause = error instanceof Error ? error : new Error(String(error));
		const where = kind ? ` (${kind})` : '';
		try {
			logger.error(new RateLimitStoreError(`Rate limiting failed to ${what}${where}${answer}`, { cause }));
		} catch {
			// The decision still stands when the log sink is down too.
		}
	};
	const answer = failOpen ? "; answered from this process's memory" : '; the attempt was refused';
	/** What `check` learnt about an allowed attempt's account, for `succeeded`. */
	const checkedAccounts = new WeakMap<LimitDecision, { identifier: string; account: string; gated: boolean }>();

	/**
	 * An attempt's store hits, each with a deadline; `undefined` means refuse (store failed, failing
	 * closed). After one failure the rest of the attempt skips the store.
	 */
	const hitter = (kind: LimitKind, now: number) => {
		let down = false;
		const storeFailed = (error: unknown) => {
			down = true;
			failed('count an attempt', kind, error, answer);
		};
		const one = async (key: string, windowMs: number): Promise<LimitCount | undefined> => {
			if (!down && store !== shared.memory) {
				try {
					return checked(await withDeadline(() => store.hit(key, windowMs, now), timeout));
				} catch (error) {
					storeFailed(error);
				}
			}
			return down && !failOpen ? undefined : shared.memory.hitNow(key, windowMs, now);
		};
		/** `first`, then `second` only if `first` counts at most `firstLimit`: one round trip where the store can. */
		const pair = async (first: LimitHit, second: LimitHit, firstLimit: number): Promise<[LimitCount | undefined, LimitCount | undefined]> => {
			if (!down && store !== shared.memory && store.hitPair) {
				try {
					const [a, b] = await withDeadline(() => store.hitPair!(first, second, firstLimit, now), timeout);
					const counted = checked(a);
					if (counted.count > firstLimit) return [counted, undefined];
					return [counted, checked(b as LimitCount)];
				} catch (error) {
					storeFailed(error);
				}
			}
			const counted = await one(first.key, first.windowMs);
			if (!counted || counted.count > firstLimit) return [counted, undefined];
			return [counted, await one(second.key, second.windowMs)];
		};
		return { one, pair };
	};

	const refuse = (kind: LimitKind, scope: LimitScope, waitMs: number, tag: () => string): LimitDecision => {
		const retryAfter = Math.max(1, Math.ceil(waitMs / 1000));
		try {
			const message: RateLimitedMessage = { kind, scope, retryAfter, tag: tag().slice(0, 12) };
			logger.warn('rate-limited');
			logger.debug('rate-limited', message);
			options.onLimited?.(message);
		} catch {
			// A throwing logger or audit hook must not turn a refusal into a failure (or a pass).
		}
		return { allowed: false, retryAfter, scope };
	};

	const closed = (scope: LimitScope): LimitDecision => ({ allowed: false, retryAfter: STORE_DOWN_RETRY_AFTER, scope, unavailable: true });

	const sweep = async (now: number): Promise<number> => {
		let removed = await shared.memory.sweep(now);
		if (store === shared.memory) return removed;
		try {
			removed += await withDeadline(() => store.sweep(now), timeout);
		} catch (error) {
			failed('delete expired counters', undefined, error);
		}
		return removed;
	};

	const check = async (kind: LimitKind, attempt: LimitAttempt): Promise<LimitDecision> => {
		const rule = Object.hasOwn(rules, kind) ? rules[kind] : false;
		if (!rule) return ALLOWED;
		const now = clock();
		if (now >= shared.nextSweepAt) {
			// The first check only schedules; later ones sweep in the background, never waited for.
			if (shared.nextSweepAt !== -Infinity) void sweep(now);
			shared.nextSweepAt = now + sweepInterval;
		}
		const hit = hitter(kind, now);

		// Present but not an address (a proxy's `unknown`): one shared bucket, never a free pass.
		const text = rule.address ? clientAddress(attempt?.address, attempt?.headers, options.clientAddress) : undefined;
		const bucket = text === undefined ? undefined : (addressBucket(text, ipv6Prefix) ?? 'invalid');
		const identifier = rule.account ? normalizeIdentifier(attempt?.identifier) : undefined;
		const account = identifier === undefined ? undefined : await hash(identifier);
		const accountHit = rule.account && account !== undefined ? { key: `${kind}:i:${account}`, windowMs: rule.account.window * 1000 } : undefined;

		let accountCount: LimitCount | undefined;
		if (rule.address && bucket !== undefined) {
			const addressHit = { key: `${kind}:a:${bucket}`, windowMs: rule.address.window * 1000 };
			const [counter, second] = accountHit
				? await hit.pair(addressHit, accountHit, rule.address.limit)
				: [await hit.one(addressHit.key, addressHit.windowMs), undefined];
			if (!counter) return closed('address');
			if (counter.count > rule.address.limit) {
				const tag = await hash(`address ${bucket}`);
				return refuse(kind, 'address', counter.resetAt - now, () => tag);
			}
			if (accountHit && !second) return closed('account');
			accountCount = second;
		} else if (accountHit) {
			accountCount = await hit.one(accountHit.key, accountHit.windowMs);
			if (!accountCount) return closed('account');
		}

		if (!rule.account || account === undefined || !accountCount) return ALLOWED;
		const tag = () => account;
		if (accountCount.count > rule.account.limit) return refuse(kind, 'account', accountCount.resetAt - now, tag);
		const wait = delayAfter(rule.account, accountCount.count);
		if (wait > 0) {
			const gate = await hit.one(`${kind}:g:${account}`, wait * 1000);
			if (!gate) return closed('account');
			if (gate.count > 1) return refuse(kind, 'account', gate.resetAt - now, tag);
		}
		const allowed = { allowed: true as const, firstForAccount: accountCount.count === 1 && wait === 0 };
		// A gate exists only once a count in this window passed the free attempts (counts only grow
		// within a window; a gate left from an earlier window expires on its own, within maxDelay).
		checkedAccounts.set(allowed, { identifier: identifier!, account, gated: wait > 0 });
		return allowed;
	};

	return Object.freeze({
		enabled: true,
		async check(kind: LimitKind, attempt: LimitAttempt): Promise<LimitDecision> {
			try {
				return await check(kind, attempt);
			} catch (error) {
				// Not the store (its failures are handled above): a bug or hostile input. Still a decision.
				failed('decide', kind, error, failOpen ? '; the attempt was allowed' : '; the attempt was refused');
				return failOpen ? ALLOWED : closed('address');
			}
		},
		async succeeded(kind: LimitKind, identifier: string, decision?: LimitDecision): Promise<void> {
			const rule = Object.hasOwn(rules, kind) ? rules[kind] : false;
			const normalized = rule && rule.account ? normalizeIdentifier(identifier) : undefined;
			if (normalized === undefined) return;
			// The count and the delay gate both start over: a success earns no wait on the next attempt.
			// What `check` learnt spares a hash, and the gate's reset when none was opened.
			const checkedFor = decision && checkedAccounts.get(decision);
			const known = checkedFor?.identifier === normalized ? checkedFor : undefined;
			const account = known ? known.account : await hash(normalized);
			const gated = known ? known.gated : true;
			const keys = gated ? [`${kind}:i:${account}`, `${kind}:g:${account}`] : [`${kind}:i:${account}`];
			for (const key of keys) await shared.memory.reset(key);
			if (store === shared.memory) return;
			try {
				for (const key of keys) await withDeadline(() => store.reset(key), timeout);
			} catch (error) {
				failed('reset a counter', kind, error);
			}
		},
		sweep: () => sweep(clock())
	});
}

/** A store's answer, checked: a broken store must not make every attempt pass (NaN > limit is false). */
function checked(counter: LimitCount): LimitCount {
	const count = Number(counter?.count);
	const resetAt = Number(counter?.resetAt);
	if (!Number.isFinite(count) || !Number.isFinite(resetAt) || count < 1) {
		throw new TypeError('the store answered a hit without a positive count and a reset time');
	}
	return { count, resetAt };
}

/** Runs `call` (which may throw synchronously) and rejects when it takes longer than `ms`. */
export function withDeadline<T>(call: () => Promise<T>, ms: number): Promise<T> {
	let timer: ReturnType<typeof setTimeout> | undefined;
	const deadline = new Promise<never>((_, reject) => {
		timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
	});
	const pending = new Promise<T>((resolve) => resolve(call()));
	pending.catch(() => {}); // a late failure after the deadline is not an unhandled rejection
	return Promise.race([pending, deadline]).finally(() => clearTimeout(timer));
}
