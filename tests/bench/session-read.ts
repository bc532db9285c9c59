/**
 * A micro-benchmark of the JWT session read (`locals.auth()`'s work: the core's server API reads
 * the cookie, opens the JWE, runs the callbacks), in process, without HTTP. Prints µs per read,
 * the median of several batches, for 1,000 rotating cookies Auth.js sealed. Also the JWE open
 * alone on each crypto backend. Beside the time, the bytes each read allocates (allocation.ts). With several repository roots (another checkout's source, say
 * main's), their batches are interleaved, so a busy machine's drift hits all alike. Speed lives
 * here, never in tests.
 *
 *     npx node --experimental-transform-types --import ./tests/support/ts-svelte-import-hook.ts \
 *       tests/bench/session-read.ts [repository root …, default this one]
 */
import { encode } from '@auth/core/jwt';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bytesPerCall } from './allocation.ts';

const roots = (process.argv.length > 2 ? process.argv.slice(2) : [fileURLToPath(new URL('../..', import.meta.url))]).map((root) => resolve(root));
const SECRET = 'bench-secret-0123456789abcdef0123456789abcdef';
const SALT = 'authjs.session-token';
const BATCHES = 15;
const PER_BATCH = 4000;

const tokens: string[] = [];
for (let i = 0; i < 1000; i++) {
	tokens.push(await encode({ token: { sub: `user-${i}`, name: `User ${i}`, email: `user${i}@example.com` }, secret: SECRET, salt: SALT }));
}
const requests = tokens.map((token) => {
	const url = new URL('http://localhost:3000/account');
	return { url, request: new Request(url, { headers: { cookie: `${SALT}=${token}` } }) };
});

type Op = (i: number) => Promise<unknown>;

/** Median and minimum µs per op of each named op, their batches interleaved. */
async function measure(ops: [name: string, op: Op][]): Promise<void> {
	const perOp = new Map<string, number[]>(ops.map(([name]) => [name, []]));
	for (const [, op] of ops) for (let i = 0; i < PER_BATCH; i++) await op(i);
	for (let b = 0; b < BATCHES; b++) {
		for (const [name, op] of ops) {
			const started = performance.now();
			for (let i = 0; i < PER_BATCH; i++) await op(i);
			perOp.get(name)!.push(((performance.now() - started) * 1000) / PER_BATCH);
		}
	}
	for (const [name, times] of perOp) {
		times.sort((a, b) => a - b);
		const median = times[Math.floor(times.length / 2)]!;
		const { bytes } = await bytesPerCall(ops.find(([n]) => n === name)![1], PER_BATCH);
		console.log(
			`${name}: ${median.toFixed(1)} µs per read (median of ${BATCHES} batches of ${PER_BATCH}; min ${times[0]!.toFixed(1)}), ${Math.round(bytes)} bytes allocated per read`
		);
	}
}

console.log(`Node ${process.version}`);
const reads: [string, Op][] = [];
for (const root of roots) {
	const { createAuthServer } = (await import(`${root}/src/lib/core/server.ts`)) as typeof import('../../src/lib/core/server.js');
	const server = createAuthServer({ secret: SECRET, trustHost: true, providers: [] }, { env: { NODE_ENV: 'development' } });
	const first = await server.session(requests[0]!);
	if (first.session?.user?.email !== 'user0@example.com') throw new Error(`the bench session does not read back: ${JSON.stringify(first.session)}`);
	reads.push([`server.session() (JWT), ${root}`, (i) => server.session(requests[i % requests.length]!)]);
}
await measure(reads);

const cryptoDir = `${roots.at(-1)}/src/lib/core/crypto`;
if (existsSync(cryptoDir)) {
	const opens: [string, Op][] = [];
	for (const name of ['node', 'web'] as const) {
		const { backend } = (await import(`${cryptoDir}/${name}/index.ts`)) as typeof import('../../src/lib/core/crypto/node/index.js');
		const keyring = backend.createKeyring(SECRET);
		if (!(await backend.openJwe(keyring, SALT, tokens[0]!))) throw new Error(`the ${name} backend does not open the bench tokens`);
		opens.push([`openJwe alone, ${name} backend`, async (i) => backend.openJwe(keyring, SALT, tokens[i % tokens.length]!)]);
	}
	await measure(opens);
}
