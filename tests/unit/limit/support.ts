/**
 * Helpers for the limiter's tests: an injected clock, a logger that records, and a limiter built
 * through the real configuration path (`resolveLimiter`, as `resolveOptions` calls it).
 */
import { createLimiterShared, type LimiterShared } from '../../../src/lib/core/limit/limiter.js';
import { MemoryStore } from '../../../src/lib/core/limit/memory.js';
import { resolveLimiter } from '../../../src/lib/core/limit/resolve.js';
import type { LoggerInstance, WarningCode } from '../../../src/lib/core/types/config.js';
import type {
	LimitAttempt,
	LimitCount,
	LimitDecision,
	LimitKind,
	LimitStore,
	Limiter,
	RateLimitConfig,
	RateLimitedMessage
} from '../../../src/lib/core/types/limit.js';

export const SECRET = 'limiter-test-secret-0123456789abcdef';
export const SECOND = 1000;
export const MINUTE = 60 * SECOND;

/** Time that only moves when the test says so. */
export class Clock {
	constructor(public time = Date.UTC(2026, 0, 1)) {}
	readonly now = () => this.time;
	advance(ms: number): void {
		this.time += ms;
	}
}

export interface Recorded {
	errors: Error[];
	warnings: WarningCode[];
	debug: { message: string; metadata: unknown }[];
	events: RateLimitedMessage[];
}

export function recordingLogger(): { logger: LoggerInstance; recorded: Recorded } {
	const recorded: Recorded = { errors: [], warnings: [], debug: [], events: [] };
	const logger: LoggerInstance = {
		error: (error) => recorded.errors.push(error),
		warn: (code) => recorded.warnings.push(code),
		debug: (message, metadata) => recorded.debug.push({ message, metadata })
	};
	return { logger, recorded };
}

export interface TestLimiter {
	limiter: Limiter;
	clock: Clock;
	recorded: Recorded;
	shared: LimiterShared;
	/** `check` with a connection address and optional identifier / headers / device cookie. */
	attempt(kind: LimitKind, address: string | undefined, identifier?: string, headers?: HeadersInit, device?: string): Promise<LimitDecision>;
}

export function testLimiter(settings: Omit<RateLimitConfig, 'now'> = {}, clock = new Clock(), secrets: readonly string[] = [SECRET]): TestLimiter {
	const { logger, recorded } = recordingLogger();
	const shared = createLimiterShared();
	const limiter = resolveLimiter({
		config: { ...settings, now: clock.now },
		env: {},
		adapter: undefined,
		secrets,
		logger,
		events: { rateLimited: (message) => void recorded.events.push(message) },
		shared
	});
	return {
		limiter,
		clock,
		recorded,
		shared,
		attempt: (kind, address, identifier, headers, device) => {
			const attempt: LimitAttempt = { address, headers: new Headers(headers), identifier, device };
			return limiter.check(kind, attempt);
		}
	};
}

/** A real memory store that also records what the limiter asked of it. */
export class RecordingStore implements LimitStore {
	readonly inner = new MemoryStore();
	readonly hits: { key: string; windowMs: number; now: number }[] = [];
	readonly resets: string[] = [];
	readonly releases: { key: string; resetAt: number }[] = [];
	sweeps = 0;

	hit(key: string, windowMs: number, now: number): Promise<LimitCount> {
		this.hits.push({ key, windowMs, now });
		return this.inner.hit(key, windowMs, now);
	}
	release(key: string, resetAt: number): Promise<void> {
		this.releases.push({ key, resetAt });
		return this.inner.release(key, resetAt);
	}
	reset(key: string): Promise<void> {
		this.resets.push(key);
		return this.inner.reset(key);
	}
	sweep(now: number): Promise<number> {
		this.sweeps++;
		return this.inner.sweep(now);
	}
}

/** Runs `attempt` until it is allowed; how long that took (ms) and the refusals on the way. */
export async function waitUntilAllowed(
	clock: Clock,
	attempt: () => Promise<LimitDecision>
): Promise<{ waited: number; refusals: LimitDecision[] }> {
	const start = clock.time;
	const refusals: LimitDecision[] = [];
	for (let i = 0; i < 100; i++) {
		const decision = await attempt();
		if (decision.allowed) return { waited: clock.time - start, refusals };
		refusals.push(decision);
		clock.advance(decision.retryAfter * SECOND);
	}
	throw new Error(`still refused after 100 tries: ${JSON.stringify(refusals.slice(-3))}`);
}
