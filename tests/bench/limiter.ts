/**
 * The rate limiter's cost on the credentials path: complete sign-ins (CSRF-checked POST to the
 * credentials callback, `authorize()` without password hashing, session issued) through the core's
 * server API, in one process, with the limiter on (budgets too large to refuse, so every attempt
 * pays for its checks) and off, in interleaved rounds; the ratio is the median of the rounds'.
 * Measured for the memory store (one process), for counters in the libSQL adapter's database
 * (a temporary file, database sessions) and in Redis (a redis-server of its own), each one
 * sign-in at a time and with `BENCH_CONNECTIONS` (default 10, as the HTTP phase) in flight at
 * once: the libSQL adapter commits the counter writes of one turn together (`commit-group.ts`),
 * so its cost per sign-in depends on the load. Beside the libSQL rows: what the counter
 * statements alone cost SQLite for the same attempts (`limiter-floor.ts`), the part of the
 * limiter's time no code around the store can save.
 *
 *     npx node tests/bench/limiter.ts     (or through `npm run bench`)
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAuthServer, type AuthConfig } from '../../src/lib/core/index.ts';
import { LibSQLAdapter, migrate } from '../../src/lib/adapters/libsql/index.ts';
import Credentials from '../../src/lib/providers/credentials.ts';
import { createClient, type RedisClientType } from 'redis';
import { RedisStore } from '../../src/lib/limit/redis.ts';
import { type RedisServer, startRedis } from '../support/redis.ts';
import { type LimiterCost, RESULT_PREFIX } from './limiter-result.ts';
import { counterStatementsAlone } from './limiter-floor.ts';
import { median } from './median.ts';

const ORIGIN = 'http://127.0.0.1:3000';
const SECRET = 'bench-secret-0123456789abcdef0123456789abcdef';
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 9));
// Thousands per round: a few hundred sign-ins take a fraction of a second, and a GC pause then swings a round.
const SIGN_INS = Number(process.env.BENCH_LIMITER_SIGN_INS ?? 3000);
/** Sign-ins in flight at once under load: the HTTP phase's connections. */
export const LOAD = Number(process.env.BENCH_CONNECTIONS ?? 10);

/** Budgets no bench reaches: every check is made and counted, none refuses. */
const NEVER_REFUSE = {
	rules: {
		credentials: {
			address: { limit: 1e9, window: 3600 },
			account: { freeAttempts: 1e9, delay: 0, maxDelay: 1, limit: 1e9, window: 3600 }
		}
	}
};

const provider = Credentials({
	credentials: { email: { label: 'Email', type: 'email' }, password: { label: 'Password', type: 'password' } },
	// A plain comparison: the bench weighs the limiter against everything else a sign-in does.
	authorize: ({ email, password }) => (password === 'bench' && typeof email === 'string' ? { id: `user-${email}`, email } : null)
});

/** Sign-in i's email and client address: 50 accounts, 200 addresses. */
const email = (i: number) => `bench${i % 50}@example.com`;
const address = (i: number) => `198.51.100.${i % 200}`;

/**
 * `count` sign-ins, `inFlight` at a time; this process's CPU time per sign-in in ms (as the HTTP
 * phase weighs a sign-in: time spent waiting for the disk, e.g. a session's fsync, is not cost).
 */
async function signIns(config: AuthConfig, count: number, inFlight: number): Promise<number> {
	const server = createAuthServer(config, { env: {} });
	const csrf = await server.handle(new Request(`${ORIGIN}/auth/csrf`));
	const cookie = csrf.headers.getSetCookie()[0]!.split(';')[0]!;
	const { csrfToken } = (await csrf.json()) as { csrfToken: string };
	const started = process.cpuUsage();
	let next = 0;
	const signIn = async (i: number) => {
		const response = await server.handle(
			new Request(`${ORIGIN}/auth/callback/credentials`, {
				method: 'POST',
				headers: { 'content-type': 'application/x-www-form-urlencoded', cookie, origin: ORIGIN },
				body: new URLSearchParams({ csrfToken, email: email(i), password: 'bench' })
			}),
			{ clientAddress: address(i) }
		);
		if (response.status !== 302 || response.headers.get('location') !== ORIGIN) throw new Error(`sign-in answered ${response.status}`);
	};
	await Promise.all(
		Array.from({ length: inFlight }, async () => {
			while (next < count) await signIn(next++);
		})
	);
	const { user, system } = process.cpuUsage(started);
	return (user + system) / 1000 / count;
}

/** `config` with the limiter on and the bench's budgets (a base may name its store: Redis). */
function limited(config: AuthConfig): AuthConfig {
	return { ...config, rateLimit: { ...(typeof config.rateLimit === 'object' ? config.rateLimit : {}), ...NEVER_REFUSE } };
}

async function compare(name: string, inFlight: number, base: () => Promise<AuthConfig>): Promise<Record<string, string | number>> {
	const off: number[] = [];
	const on: number[] = [];
	const ratios: number[] = [];
	// Warm-up: the first sign-ins run in V8's unoptimized tiers.
	await signIns({ ...(await base()), rateLimit: false }, SIGN_INS / 4, inFlight);
	await signIns(limited(await base()), SIGN_INS / 4, inFlight);
	for (let round = 1; round <= ROUNDS; round++) {
		const order = round % 2 ? ['off', 'on'] : ['on', 'off'];
		const times: Record<string, number> = {};
		for (const variant of order) {
			const config = await base();
			times[variant] = await signIns(variant === 'on' ? limited(config) : { ...config, rateLimit: false }, SIGN_INS, inFlight);
		}
		off.push(times.off!);
		on.push(times.on!);
		ratios.push(times.on! / times.off!);
	}
	const cost = median(ratios) - 1;
	return {
		'credentials sign-in': name,
		'in flight': inFlight,
		'CPU µs, limiter off': Math.round(median(off) * 1000),
		'CPU µs, limiter on': Math.round(median(on) * 1000),
		'limiter cost': `${(cost * 100).toFixed(1)} %`,
		cost,
		rounds: ratios.map((r) => r.toFixed(2)).join(' ')
	};
}

/** Prints the table; returns each store's times (the HTTP phase weighs them against a sign-in there). */
export async function benchLimiter(): Promise<LimiterCost[]> {
	const dir = mkdtempSync(join(tmpdir(), 'kitauth-bench-limiter-'));
	let databases = 0;
	const stores: {
		store: LimiterCost['store'];
		name: string;
		base: () => Promise<AuthConfig>;
		/** µs per attempt that no code around the store can save (its own statements), at `inFlight`. */
		floor?: (inFlight: number) => Promise<number>;
	}[] = [
		{ store: 'memory', name: 'JWT sessions, memory store', base: async () => ({ secret: SECRET, trustHost: true, providers: [provider] }) },
		{
			store: 'libsql',
			name: 'database sessions, counters in libSQL',
			base: async () => {
				const url = `file:${join(dir, `db${databases++}.db`)}`;
				await migrate({ url });
				return { secret: SECRET, trustHost: true, providers: [provider], adapter: LibSQLAdapter({ url }) };
			},
			floor: async (inFlight) => {
				const runs: number[] = [];
				for (let round = 0; round < ROUNDS; round++) runs.push(await counterStatementsAlone(dir, SIGN_INS, inFlight, address, email));
				return median(runs);
			}
		},
		{
			// A store shared across instances beside a JWT sign-in: redis-server from the OS package.
			store: 'redis',
			name: 'JWT sessions, Redis store',
			base: async () => ({ secret: SECRET, trustHost: true, providers: [provider], rateLimit: { store: RedisStore(await redis()) } })
		}
	];
	let server: RedisServer | undefined;
	let client: RedisClientType | undefined;
	const redis = async () => {
		server ??= await startRedis();
		client ??= (await createClient({ url: server.url }).connect()) as RedisClientType;
		return client;
	};
	const results: (LimiterCost & { row: Record<string, string | number> })[] = [];
	try {
		for (const { store, name, base, floor } of stores) {
			for (const inFlight of [1, LOAD]) {
				const row = await compare(name, inFlight, base);
				const floorMicros = floor && Math.round(await floor(inFlight));
				row['store statements alone, µs'] = floorMicros ?? '';
				results.push({ store, inFlight, offMicros: Number(row['CPU µs, limiter off']), cost: Number(row['cost']), floorMicros, row });
			}
		}
	} finally {
		await client?.quit();
		await server?.close();
	}
	console.log(`\nRate limiter on the credentials path (in process, ${SIGN_INS} sign-ins per variant and round, medians of ${ROUNDS} rounds):`);
	console.table(results.map(({ row: { cost: _, ...shown } }) => shown));
	return results.map(({ row: _, ...cost }) => cost);
}

if (import.meta.url === `file://${process.argv[1]}`) {
	const costs = await benchLimiter();
	if (process.env.BENCH_LIMITER_RESULT === 'line') console.log(`${RESULT_PREFIX}${JSON.stringify(costs)}`);
}
