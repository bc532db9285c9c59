/**
 * The limiter: one decision per attempt, from the rules of its kind (`defaults.ts` says why).
 *
 * A browser with a device cookie for the account (`device.ts`) is counted on its own budget under
 * the account rule, and nothing else. Any other attempt: the address scope first, then the
 * account's hard limit, then its delay gate: a second key whose window is the current delay, so
 * one attempt opens it and every other attempt inside it is refused with the time left. Refused
 * attempts never extend a window (fixed windows), so hammering cannot push a delay out. Every
 * attempt is counted before it is made, so concurrent attempts can never overrun a budget; when
 * it succeeds (`succeeded`), its hit is taken back (the address's, for the kinds whose address
 * budget counts failures only, `FAILURE_COUNTED`; a known browser's own), and, unless it came from
 * a known browser, the account's count and delay start over.
 *
 * Round trips: one for both scopes where the store counts a pair at once (`hitPair`, with the
 * account counted only if the address passed), else one per scope; plus one for the gate once an
 * account is past its free attempts. A success costs a refund and a reset, sent together (one
 * commit where the store groups writes). The identifier is hashed once. Store calls and their
 * failures: `calls.ts`. Nothing here throws to the caller.
 */
import type { LoggerInstance } from '../types/config.js';
import type {
	AccountRule,
	ClientAddressOptions,
	LimitAttempt,
	LimitCount,
	LimitDecision,
	LimitKind,
	LimitScope,
	LimitStore,
	Limiter,
	RateLimitedMessage
} from '../types/limit.js';
import { addressBucket } from './address.js';
import { attemptHits, refund, resetAll, type StoreCalls, storeFailed, withDeadline } from './calls.js';
import { clientAddress } from './client-address.js';
import { FAILURE_COUNTED } from './defaults.js';
import type { DeviceCookies } from './device.js';
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
	/** Device cookies under the configuration's secrets. */
	devices: DeviceCookies;
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
	deviceCookie: () => Promise.resolve(undefined),
	sweep: () => Promise.resolve(0)
});

/** What `check` learnt about an attempt it allowed, for `succeeded` and `deviceCookie`. */
interface Checked {
	kind: LimitKind;
	identifier?: string;
	/** The identifier's keyed hash. */
	account?: string;
	/** Whether the account's delay gate may be open (`undefined`: not known, so it is reset too). */
	gated?: boolean;
	/** The hit a success takes back: the address's (failure-counted kinds) or the device's. */
	refund?: { key: string; resetAt: number; memory: boolean };
	/** Counted on a known browser's budget: the account's count was not this browser's to clear. */
	viaDevice?: boolean;
	/** The device cookie's entries for other accounts, kept when it is renewed. */
	others: string[];
}

export function createLimiter(options: LimiterOptions): Limiter {
	const { store, rules, failOpen, ipv6Prefix, timeout, now: clock, hash, devices, logger, shared } = options;
	const sweepInterval = options.sweepInterval ?? 10 * 60_000;
	const calls: StoreCalls = { store, memory: shared.memory, failOpen, timeout, logger };
	const checkedAttempts = new WeakMap<LimitDecision, Checked>();
	const ruleOf = (kind: LimitKind) => (Object.hasOwn(rules, kind) ? rules[kind] : false);

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

	const allow = (seen: Checked): LimitDecision => {
		const decision = { allowed: true as const };
		checkedAttempts.set(decision, seen);
		return decision;
	};

	const sweep = async (now: number): Promise<number> => {
		let removed = await shared.memory.sweep(now);
		if (store === shared.memory) return removed;
		try {
			removed += await withDeadline(() => store.sweep(now), timeout);
		} catch (error) {
			storeFailed(logger, 'delete expired counters', undefined, error);
		}
		return removed;
	};

	/** The account rule on one counter (the account's, or a known browser's): hard limit, then delay gate. */
	const judge = async (
		kind: LimitKind,
		rule: AccountRule,
		counter: LimitCount,
		gateKey: string,
		scope: LimitScope,
		seen: Checked,
		hit: ReturnType<typeof attemptHits>,
		now: number
	): Promise<LimitDecision> => {
		const tag = () => seen.account!;
		if (counter.count > rule.limit) return refuse(kind, scope, counter.resetAt - now, tag);
		const wait = delayAfter(rule, counter.count);
		if (wait > 0) {
			const gate = await hit.one(gateKey, wait * 1000);
			if (!gate) return closed(scope);
			if (gate.count > 1) return refuse(kind, scope, gate.resetAt - now, tag);
		}
		// A gate exists only once a count in this window passed the free attempts (counts only grow
		// within a window; a gate left from an earlier window expires on its own, within maxDelay).
		if (scope === 'account') seen.gated = wait > 0;
		return allow(seen);
	};

	const check = async (kind: LimitKind, attempt: LimitAttempt): Promise<LimitDecision> => {
		const rule = ruleOf(kind);
		if (!rule) return ALLOWED;
		const now = clock();
		if (now >= shared.nextSweepAt) {
			// The first check only schedules; later ones sweep in the background, never waited for.
			if (shared.nextSweepAt !== -Infinity) void sweep(now);
			shared.nextSweepAt = now + sweepInterval;
		}
		const hit = attemptHits(calls, kind, now);
		const identifier = rule.account ? normalizeIdentifier(attempt?.identifier) : undefined;
		const account = identifier === undefined ? undefined : await hash(identifier);
		const seen: Checked = { kind, identifier, account, others: [] };

		if (rule.account && account !== undefined && attempt?.device !== undefined) {
			const { match, others } = await devices.read(attempt.device, identifier!, account, now);
			seen.others = others;
			if (match) {
				// A browser that signed in to this account before: its own budget, instead of the
				// account's and the address's (defaults.ts, 3.).
				const device = await hash(`device\u0000${match.nonce}`);
				const counter = await hit.one(`${kind}:d:${device}`, rule.account.window * 1000);
				if (!counter) return closed('device');
				seen.viaDevice = true;
				seen.refund = { key: `${kind}:d:${device}`, resetAt: counter.resetAt, memory: counter.memory };
				return judge(kind, rule.account, counter, `${kind}:dg:${device}`, 'device', seen, hit, now);
			}
		}

		// Present but not an address (a proxy's `unknown`): one shared bucket, never a free pass.
		const text = rule.address ? clientAddress(attempt?.address, attempt?.headers, options.clientAddress) : undefined;
		const bucket = text === undefined ? undefined : (addressBucket(text, ipv6Prefix) ?? 'invalid');
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
			if (FAILURE_COUNTED.has(kind)) seen.refund = { key: addressHit.key, resetAt: counter.resetAt, memory: counter.memory };
			if (accountHit && !second) return closed('account');
			accountCount = second;
		} else if (accountHit) {
			accountCount = await hit.one(accountHit.key, accountHit.windowMs);
			if (!accountCount) return closed('account');
		}

		if (!rule.account || !accountCount) return seen.refund ? allow(seen) : ALLOWED;
		return judge(kind, rule.account, accountCount, `${kind}:g:${account}`, 'account', seen, hit, now);
	};

	/** What `check` learnt about this attempt, when `decision` is its answer for `kind`. */
	const checkedFor = (kind: LimitKind, decision: LimitDecision | undefined) => {
		const seen = decision && checkedAttempts.get(decision);
		return seen?.kind === kind ? seen : undefined;
	};

	return Object.freeze({
		enabled: true,
		async check(kind: LimitKind, attempt: LimitAttempt): Promise<LimitDecision> {
			try {
				return await check(kind, attempt);
			} catch (error) {
				// Not the store (its failures are handled in calls.ts): a bug or hostile input. Still a decision.
				storeFailed(logger, 'decide', kind, error, failOpen ? '; the attempt was allowed' : '; the attempt was refused');
				return failOpen ? ALLOWED : closed('address');
			}
		},
		async succeeded(kind: LimitKind, identifier: string | undefined, decision?: LimitDecision): Promise<void> {
			const rule = ruleOf(kind);
			if (!rule) return;
			const seen = checkedFor(kind, decision);
			const writes: Promise<void>[] = [];
			// The attempt's own hit back, once (a second call with the same decision refunds nothing).
			const hit = seen?.refund;
			if (seen) seen.refund = undefined;
			if (hit) writes.push(refund(calls, kind, hit));
			const normalized = rule.account ? normalizeIdentifier(identifier) : undefined;
			const known = normalized !== undefined && seen?.identifier === normalized ? seen : undefined;
			// A known browser's success leaves the account's count alone: those failures were not its
			// own, and clearing them would hand an attacker a fresh run every time the owner signs in.
			if (normalized !== undefined && !known?.viaDevice) {
				// The count and the delay gate both start over: a success earns no wait on the next attempt.
				// What `check` learnt spares a hash, and the gate's reset when none was opened.
				const account = known?.account ?? (await hash(normalized));
				const keys = known?.gated === false ? [`${kind}:i:${account}`] : [`${kind}:i:${account}`, `${kind}:g:${account}`];
				writes.push(resetAll(calls, kind, keys));
			}
			await Promise.all(writes);
		},
		async deviceCookie(kind: LimitKind, identifier: string, decision?: LimitDecision): Promise<string | undefined> {
			const rule = ruleOf(kind);
			const normalized = rule && rule.account ? normalizeIdentifier(identifier) : undefined;
			if (normalized === undefined) return undefined;
			const seen = checkedFor(kind, decision);
			const known = seen?.identifier === normalized ? seen : undefined;
			try {
				return await devices.issue(known?.account ?? (await hash(normalized)), known?.others ?? [], clock());
			} catch (error) {
				storeFailed(logger, 'issue a device cookie', kind, error);
				return undefined;
			}
		},
		sweep: () => sweep(clock())
	});
}
