/**
 * kitauth: the public types of the rate limiter (`AuthConfig.rateLimit`). Auth.js has no limiter;
 * everything here is kitauth's own.
 */

/** The attempts the limiter knows, each with its own budgets (keys are namespaced by kind). */
export type LimitKind =
	| 'credentials'
	| 'email-request'
	| 'email-code'
	| 'webauthn-options'
	| 'webauthn-callback'
	| 'oauth-start'
	| 'two-factor';

/**
 * What a refusal was about: the client's address, the account the attempt was for, or the known
 * browser (device cookie) it came from, which has its own budget for that account.
 */
export type LimitScope = 'address' | 'account' | 'device';

/** The limiter's answer to one attempt. `retryAfter` is in whole seconds (at least 1). */
export type LimitDecision =
	| {
			allowed: true;
	  }
	| {
			allowed: false;
			retryAfter: number;
			scope: LimitScope;
			/**
			 * The store failed and `failOpen` is false: the attempt was refused without being
			 * counted, because the limiter could not tell (answered 503, not 429).
			 */
			unavailable?: true;
	  };

/** A counter after a hit: how many hits its current window has seen, and when it ends (ms). */
export interface LimitCount {
	count: number;
	/** Milliseconds since the epoch, on the limiter's clock. */
	resetAt: number;
}

/** One hit of `hitPair`: the counter's key and window. */
export interface LimitHit {
	key: string;
	windowMs: number;
}

/**
 * Where counters live. Fixed windows: each key has a count and the time its window ends; a hit
 * after that time starts a new window of `windowMs` with a count of 1. `now` always comes from the
 * limiter's clock (so every store agrees, and tests can inject time).
 *
 * Fixed windows rather than a sliding log or GCRA, because (1) a hit is ONE atomic step on every
 * store (an upsert, a short Lua script, a Map write) returning exactly what the policy needs (a
 * count: progressive delays are a function of it); (2) storage is O(1) per key; (3) `reset` is a
 * delete, and `release` a conditional decrement. The cost, at most twice the limit across a window
 * boundary, is bounded and accounted for in the default policy (see `core/limit/defaults.ts`).
 *
 * `release` is required (it came with refunds; kitauth is 0.x): a store without it is refused at
 * start-up (`rateLimit.store`), and so is an adapter with `hitRateLimit` but no `releaseRateLimit`.
 */
export interface LimitStore {
	/**
	 * Counts one hit on `key`, atomically (concurrent hits from any process each get their own
	 * count). Keys are printable ASCII, under 200 characters: `<kind>:a:<address bucket>`,
	 * `<kind>:i:<identifier hash>`, `<kind>:g:<identifier hash>` (the account's delay gate),
	 * `<kind>:d:<device hash>`, `<kind>:dg:<device hash>` (a known browser's count and gate).
	 */
	hit(key: string, windowMs: number, now: number): Promise<LimitCount>;
	/**
	 * Takes back one hit on `key`, atomically: subtracts 1 only if the counter's window still ends
	 * at `resetAt` (the window the hit was counted in: a window that ended and started over keeps
	 * its count) and its count is above 0; otherwise does nothing (an unknown key is no error and
	 * is not created). The limiter takes back a successful attempt's own hit with it (its address's,
	 * or its known browser's).
	 */
	release(key: string, resetAt: number): Promise<void>;
	/**
	 * Optional: an attempt's two hits in one round trip, atomically as `hit` — `first` (the client
	 * address), then `second` (the account) only if `first`'s count is at most `firstLimit`
	 * (`undefined` when it was not counted). Without it the limiter makes two calls to `hit`.
	 */
	hitPair?(first: LimitHit, second: LimitHit, firstLimit: number, now: number): Promise<[LimitCount, LimitCount | undefined]>;
	/** Forgets `key` (its next hit starts a new window). */
	reset(key: string): Promise<void>;
	/** Deletes counters whose window ended at or before `now`; how many went (0 where the store expires them itself). */
	sweep(now: number): Promise<number>;
}

/**
 * At most `limit` attempts per `window` seconds from one client address (IPv4, or IPv6 prefix).
 * For credentials, email-code and webauthn-callback only failures count (an attempt is counted
 * before it is made, and refunded when it succeeds); for the other kinds every request does.
 */
export interface AddressRule {
	limit: number;
	/** Seconds. */
	window: number;
}

/**
 * Per account identifier (normalized, stored hashed). The first `freeAttempts` attempts since the
 * last success go through at once; after that each attempt must wait `delay` seconds after the
 * previous one, doubling each time up to `maxDelay`; and never more than `limit` attempts per
 * `window` seconds. A successful sign-in (`Limiter.succeeded`) starts over. A browser with a
 * device cookie for the account (it signed in to it before) is held to the same rule on a budget
 * of its own instead, so others' failures never hold it up (and its success leaves the account's
 * count as it is).
 */
export interface AccountRule {
	freeAttempts: number;
	/** Seconds; 0 turns the delays off (the hard limit stays). */
	delay: number;
	/** Seconds. */
	maxDelay: number;
	limit: number;
	/** Seconds. */
	window: number;
}

/** One kind's budgets, resolved. `false`: that scope is not limited for this kind. */
export interface LimitRule {
	address: AddressRule | false;
	account: AccountRule | false;
}

/** One kind's budgets as configured: fields left out keep their defaults. */
export interface LimitRuleInput {
	address?: Partial<AddressRule> | false;
	account?: Partial<AccountRule> | false;
}

/**
 * Where the client's address comes from behind reverse proxies you run (mirrors adapter-node's
 * `ADDRESS_HEADER` and `XFF_DEPTH`). Without it only the connection's address is used
 * (SvelteKit's `getClientAddress()`), and forwarded headers, which any client can send, are ignored.
 * If adapter-node's `ADDRESS_HEADER` is already set, `getClientAddress()` is already the client's
 * address: leave this unset.
 */
export interface ClientAddressOptions {
	/**
	 * The header your proxy sets: `x-forwarded-for`, `forwarded` (RFC 7239, its `for=`), or a
	 * single-address header such as `x-real-ip`, `cf-connecting-ip`, `fly-client-ip`.
	 */
	header: string;
	/**
	 * How many of your proxies append to the header: the client's address is the `depth`-th entry
	 * from the right (entries further left were written by the client and are not trusted).
	 * Default 1.
	 */
	depth?: number;
}

/** `AuthConfig.rateLimit`: see the field's documentation. */
export interface RateLimitConfig {
	/**
	 * Default: on (an object turns the limiter on; omit `rateLimit` altogether for "on in
	 * production only"). `AUTH_RATE_LIMIT=off` wins over this.
	 */
	enabled?: boolean;
	/**
	 * Where counters live. Default: the adapter, when it implements `hitRateLimit`,
	 * `releaseRateLimit` and `resetRateLimit` (kitauth's libSQL adapter does), else memory (one
	 * process only: with several instances use a shared store such as `kitauth/limit/redis` or
	 * `kitauth/limit/postgres`).
	 */
	store?: LimitStore;
	/**
	 * When the store fails or does not answer within `timeout`: `true` (default) answers from this
	 * process's own memory counters, so sign-in keeps working and a lone instance still limits;
	 * `false` refuses the attempt. Either way the failure is logged and the caller gets a decision.
	 */
	failOpen?: boolean;
	/** Behind your own reverse proxies: which header holds the client's address. */
	clientAddress?: ClientAddressOptions;
	/** IPv6 addresses are grouped by this prefix length (default 64: one customer's network). */
	ipv6Prefix?: number;
	/** Per kind: budgets to change, or `false` to not limit that kind. */
	rules?: { [K in LimitKind]?: LimitRuleInput | false };
	/** How long one store call may take, in milliseconds, before it counts as failed (default 1000). */
	timeout?: number;
	/** The clock, in milliseconds since the epoch (default `Date.now`); for tests. */
	now?: () => number;
}

/** What the integration knows about an attempt. */
export interface LimitAttempt {
	/**
	 * The connection's address as the framework sees it (SvelteKit: `event.getClientAddress()`),
	 * or `undefined` when it has none (then no address limit applies).
	 */
	address: string | undefined;
	/** The request's headers: forwarded headers are read only as `clientAddress` declares. */
	headers: Headers;
	/** The account the attempt is for (email, username) as submitted, for kinds with an account budget. */
	identifier?: string;
	/**
	 * The device cookie the browser sent (`authjs.device`, as it came), if any. When it holds a
	 * valid entry for `identifier`, the attempt is counted on that browser's own budget instead of
	 * the account's and the address's; anything else in it is ignored.
	 */
	device?: string;
}

/** The resolved limiter (`AuthOptions.limiter`). Its methods never throw. */
export interface Limiter {
	readonly enabled: boolean;
	/** Counts an attempt of `kind` and says whether it may go ahead. Call it before the attempt. */
	check(kind: LimitKind, attempt: LimitAttempt): Promise<LimitDecision>;
	/**
	 * After a successful attempt: refunds its address hit (for kinds whose address budget counts
	 * failures: credentials, email-code, webauthn-callback) and clears the identifier's count and
	 * delay for `kind`; an attempt a known browser made on its own budget refunds that instead,
	 * and leaves the account's count alone. `decision`: what `check` answered for this attempt;
	 * without it there is nothing to refund (the hit's window is not known), and the identifier
	 * is hashed again.
	 */
	succeeded(kind: LimitKind, identifier: string | undefined, decision?: LimitDecision): Promise<void>;
	/**
	 * After a successful sign-in for `identifier` (kinds with an account budget): the device
	 * cookie's new value, an entry for this account first, then the other accounts' entries the
	 * browser sent with this attempt (`decision`). `undefined` when `kind` has no account budget.
	 */
	deviceCookie(kind: LimitKind, identifier: string, decision?: LimitDecision): Promise<string | undefined>;
	/** Deletes expired counters now (the limiter also does so by itself every few minutes). */
	sweep(): Promise<number>;
}

/** The `rateLimited` event's message: no address or identifier, only a short keyed hash of it. */
export interface RateLimitedMessage {
	kind: LimitKind;
	scope: LimitScope;
	retryAfter: number;
	/** 12 characters of a keyed hash of the address bucket or account identifier. */
	tag: string;
}
