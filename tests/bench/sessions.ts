/**
 * The bench's sessions, made the way a real one comes to be: JWTs sealed by `@auth/core` (so each
 * read is also an Auth.js-compatibility check) and database sessions written straight into the
 * app's libSQL database with hashed tokens, as kitauth stores them. One user per session.
 */
import { encode } from '@auth/core/jwt';
import { createClient } from '@libsql/client';
import { createHash, randomBytes } from 'node:crypto';

export const BENCH_SECRET = 'bench-secret-0123456789abcdef0123456789abcdef';
export const SESSION_COOKIE = 'authjs.session-token';

/** `count` JWT session tokens for `bench<i>@example.com` (cookie values, without the name). */
export async function jwtTokens(count: number, secret = BENCH_SECRET): Promise<string[]> {
	const tokens: string[] = [];
	for (let i = 0; i < count; i++) {
		tokens.push(await encode({ token: { name: `Bench User ${i}`, email: `bench${i}@example.com`, sub: `bench-${i}` }, secret, salt: SESSION_COOKIE }));
	}
	return tokens;
}

/**
 * `count` users with one database session each in the migrated database at `url`; the tokens
 * (cookie values: the secret half, stored SHA-256-hashed).
 */
export async function databaseTokens(url: string, count: number): Promise<string[]> {
	const client = createClient({ url, timeout: 5000 });
	const expires = Date.now() + 30 * 24 * 3600 * 1000;
	const tokens: string[] = [];
	const statements: { sql: string; args: string[] }[] = [];
	for (let i = 0; i < count; i++) {
		const token = randomBytes(32).toString('hex');
		const stored = createHash('sha256').update(token).digest('hex');
		statements.push(
			{ sql: 'INSERT INTO user (id, name, email) VALUES (?, ?, ?)', args: [`bench-${i}`, `Bench User ${i}`, `bench${i}@example.com`] },
			{
				sql: 'INSERT INTO session (sessionToken, userId, expires, createdAt) VALUES (?, ?, ?, ?)',
				args: [stored, `bench-${i}`, String(expires), String(Date.now())]
			}
		);
		tokens.push(token);
	}
	await client.batch(statements, 'write');
	client.close();
	return tokens;
}
