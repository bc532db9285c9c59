/**
 * The rate limiter's cost on the credentials path: complete sign-ins (CSRF-checked POST to the
 * credentials callback, `authorize()` without password hashing, session issued) through the core's
 * server API, in one process, with the limiter on (budgets too large to refuse, so every attempt
 * pays for its checks) and off, in interleaved rounds; the ratio is the median of the rounds'.
 * Measured for the memory store (one process) and for counters in the libSQL adapter's database
 * (a temporary file, database sessions).
 *
 *     npx node tests/bench/limiter.ts     (or through `npm run bench`)
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAuthServer, type AuthConfig } from '../../src/lib/core/index.ts';
import { LibSQLAdapter, migrate } from '../../src/lib/adapters/libsql/index.ts';
import Credentials from '../../src/lib/providers/credentials.ts';
import { type LimiterCost, RESULT_PREFIX } from './limiter-result.ts';
import { median } from './median.ts';

const ORIGIN = 'http://127.0.0.1:3000';
const SECRET = 'bench-secret-0123456789abcdef0123456789abcdef';
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 9));
// Thousands per round: a few hundred sign-ins take a fraction of a second, and a GC pause then swings a round.
const SIGN_INS = Number(process.env.BENCH_LIMITER_SIGN_INS ?? 3000);

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

async function signIns(config: AuthConfig, count: number): Promise<number> {
	const server = createAuthServer(config, { env: {} });
	const csrf = await server.handle(new Request(`${ORIGIN}/auth/csrf`));
	const cookie = csrf.headers.getSetCookie()[0]!.split(';')[0]!;
	const { csrfToken } = (await csrf.json()) as { csrfToken: string };
	const started = performance.now();
	for (let i = 0; i < count; i++) {
		const response = await server.handle(
			new Request(`${ORIGIN}/auth/callback/credentials`, {
				method: 'POST',
				headers: { 'content-type': 'application/x-www-form-urlencoded', cookie, origin: ORIGIN },
				body: new URLSearchParams({ csrfToken, email: `bench${i % 50}@example.com`, password: 'bench' })
			}),
			{ clientAddress: `198.51.100.${i % 200}` }
		);
		if (response.status !== 302 || response.headers.get('location') !== ORIGIN) throw new Error(`sign-in answered ${response.status}`);
	}
	return (performance.now() - started) / count;
}

async function compare(name: string, base: () => Promise<AuthConfig>): Promise<Record<string, string | number>> {
	const off: number[] = [];
	const on: number[] = [];
	const ratios: number[] = [];
	// Warm-up: the first sign-ins run in V8's unoptimized tiers.
	await signIns({ ...(await base()), rateLimit: false }, SIGN_INS / 4);
	await signIns({ ...(await base()), rateLimit: NEVER_REFUSE }, SIGN_INS / 4);
	for (let round = 1; round <= ROUNDS; round++) {
		const order = round % 2 ? ['off', 'on'] : ['on', 'off'];
		const times: Record<string, number> = {};
		for (const variant of order) {
			const config = { ...(await base()), rateLimit: variant === 'on' ? NEVER_REFUSE : false };
			times[variant] = await signIns(config, SIGN_INS);
		}
		off.push(times.off!);
		on.push(times.on!);
		ratios.push(times.on! / times.off!);
	}
	const cost = median(ratios) - 1;
	return {
		'credentials sign-in': name,
		'µs, limiter off': Math.round(median(off) * 1000),
		'µs, limiter on': Math.round(median(on) * 1000),
		'limiter cost': `${(cost * 100).toFixed(1)} %`,
		cost,
		rounds: ratios.map((r) => r.toFixed(2)).join(' ')
	};
}

/** Prints the table; returns each store's times (the HTTP phase weighs them against a sign-in there). */
export async function benchLimiter(): Promise<LimiterCost[]> {
	const dir = mkdtempSync(join(tmpdir(), 'kitauth-bench-limiter-'));
	let databases = 0;
	const rows = [
		await compare('JWT sessions, memory store', async () => ({ secret: SECRET, trustHost: true, providers: [provider] })),
		await compare('database sessions, counters in libSQL', async () => {
			const url = `file:${join(dir, `db${databases++}.db`)}`;
			await migrate({ url });
			return { secret: SECRET, trustHost: true, providers: [provider], adapter: LibSQLAdapter({ url }) };
		})
	];
	console.log(`\nRate limiter on the credentials path (in process, ${SIGN_INS} sign-ins per variant and round, medians of ${ROUNDS} rounds):`);
	console.table(rows.map(({ cost: _, ...shown }) => shown));
	return rows.map((row, i) => ({ store: i === 0 ? 'memory' : 'libsql', offMicros: Number(row['µs, limiter off']), cost: Number(row['cost']) }));
}

if (import.meta.url === `file://${process.argv[1]}`) {
	const costs = await benchLimiter();
	if (process.env.BENCH_LIMITER_RESULT === 'line') console.log(`${RESULT_PREFIX}${JSON.stringify(costs)}`);
}
