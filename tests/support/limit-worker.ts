/**
 * A child process of the limiter's multi-process test: builds a configuration's limiter on a shared
 * store (the libSQL adapter on a file, Redis, or PostgreSQL), says `ready`, waits for `go` on stdin,
 * then makes its attempts in several concurrent lanes and prints what it was told, as one JSON line.
 *
 *     node --experimental-transform-types --import ./tests/support/ts-import-hook.ts <this> <json job>
 */
import { createInterface } from 'node:readline';
import pg from 'pg';
import { createClient } from 'redis';
import { LibSQLAdapter } from '../../src/lib/adapters/libsql/index.js';
import { resolveOptions } from '../../src/lib/core/config.js';
import type { AuthConfig } from '../../src/lib/core/types/config.js';
import type { LimitKind } from '../../src/lib/core/types/limit.js';
import { PostgresStore } from '../../src/lib/limit/postgres.js';
import { RedisStore } from '../../src/lib/limit/redis.js';

interface Phase {
	kind: LimitKind;
	attempts: number;
	/** The same address for every attempt, or (when absent) a different one each time. */
	address?: string;
	identifier?: string;
}

interface Job {
	store: 'libsql' | 'redis' | 'postgres';
	url: string;
	secret: string;
	rules: NonNullable<Exclude<AuthConfig['rateLimit'], boolean | undefined>['rules']>;
	phases: Phase[];
	lanes: number;
	worker: number;
}

const job = JSON.parse(process.argv[2] ?? '{}') as Job;
const closers: (() => unknown)[] = [];
const errors: string[] = [];
const logger = { error: (error: Error) => errors.push(`${error.message}: ${String(error.cause)}`), warn: () => {}, debug: () => {} };

let config: AuthConfig;
if (job.store === 'libsql') {
	config = { providers: [], adapter: LibSQLAdapter({ url: job.url }), session: { strategy: 'jwt' }, rateLimit: { rules: job.rules } };
} else if (job.store === 'redis') {
	const client = createClient({ url: job.url });
	client.on('error', (error: Error) => errors.push(error.message));
	await client.connect();
	closers.push(() => client.destroy());
	config = { providers: [], rateLimit: { store: RedisStore(client), rules: job.rules } };
} else {
	const pool = new pg.Pool({ connectionString: job.url, max: job.lanes });
	closers.push(() => pool.end());
	config = { providers: [], rateLimit: { store: PostgresStore(pool), rules: job.rules } };
}
const { limiter } = resolveOptions({ ...config, logger }, { env: { AUTH_SECRET: job.secret } });

process.stdout.write('ready\n');
const input = createInterface({ input: process.stdin });
await new Promise<void>((resolve) => input.once('line', () => resolve()));
input.close();

const results: { allowed: number; refused: number }[] = [];
for (const [index, phase] of job.phases.entries()) {
	const result = { allowed: 0, refused: 0 };
	let next = 0;
	const lane = async () => {
		for (let i = next++; i < phase.attempts; i = next++) {
			const address = phase.address ?? `10.${job.worker}.${index}.${i}`;
			const decision = await limiter.check(phase.kind, { address, headers: new Headers(), identifier: phase.identifier });
			if (decision.allowed) result.allowed++;
			else result.refused++;
		}
	};
	await Promise.all(Array.from({ length: job.lanes }, lane));
	results.push(result);
}

for (const close of closers) await close();
process.stdout.write(`${JSON.stringify({ results, errors })}\n`);
process.exit(0);
