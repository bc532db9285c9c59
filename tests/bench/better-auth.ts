/**
 * better-auth 1.7 for tests/bench/authjs.ts's database session read: its own server
 * (`betterAuth(options).handler`, what its SvelteKit integration calls) on a libSQL file through
 * its drizzle adapter — the same driver and file format as kitauth's adapter in that row. Its
 * tables are its documented core schema (user, session, account, verification), written here as
 * drizzle tables and created with drizzle-kit as the Auth.js side's are. `count` users sign up
 * through its own endpoint (password hashing swapped for a cheap one: the bench weighs session
 * reads, and sign-up only makes the sessions), each leaving the signed session cookie read back.
 *
 * As configured for the comparison: no cookie cache (every read goes to the database, as
 * kitauth's and Auth.js's database reads do), no rate limit (kitauth's is off in that row), no
 * telemetry.
 */
import { betterAuth } from 'better-auth';
import { drizzleAdapter } from 'better-auth/adapters/drizzle';
import { createClient } from '@libsql/client';
import { generateSQLiteDrizzleJson, generateSQLiteMigration } from 'drizzle-kit/api';
import { drizzle } from 'drizzle-orm/libsql';
import { integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';

const date = (name: string) => integer(name, { mode: 'timestamp_ms' });

const user = sqliteTable('user', {
	id: text('id').primaryKey(),
	name: text('name').notNull(),
	email: text('email').notNull().unique(),
	emailVerified: integer('email_verified', { mode: 'boolean' }).notNull(),
	image: text('image'),
	createdAt: date('created_at').notNull(),
	updatedAt: date('updated_at').notNull()
});
const session = sqliteTable('session', {
	id: text('id').primaryKey(),
	expiresAt: date('expires_at').notNull(),
	token: text('token').notNull().unique(),
	createdAt: date('created_at').notNull(),
	updatedAt: date('updated_at').notNull(),
	ipAddress: text('ip_address'),
	userAgent: text('user_agent'),
	userId: text('user_id')
		.notNull()
		.references(() => user.id, { onDelete: 'cascade' })
});
const account = sqliteTable('account', {
	id: text('id').primaryKey(),
	accountId: text('account_id').notNull(),
	providerId: text('provider_id').notNull(),
	userId: text('user_id')
		.notNull()
		.references(() => user.id, { onDelete: 'cascade' }),
	accessToken: text('access_token'),
	refreshToken: text('refresh_token'),
	idToken: text('id_token'),
	accessTokenExpiresAt: date('access_token_expires_at'),
	refreshTokenExpiresAt: date('refresh_token_expires_at'),
	scope: text('scope'),
	password: text('password'),
	createdAt: date('created_at').notNull(),
	updatedAt: date('updated_at').notNull()
});
const verification = sqliteTable('verification', {
	id: text('id').primaryKey(),
	identifier: text('identifier').notNull(),
	value: text('value').notNull(),
	expiresAt: date('expires_at').notNull(),
	createdAt: date('created_at').notNull(),
	updatedAt: date('updated_at').notNull()
});
const schema = { user, session, account, verification };

export interface BetterAuthBench {
	handler: (request: Request) => Promise<Response>;
	/** One `Cookie` header value per signed-up user, each its own session. */
	cookies: string[];
}

/** better-auth on the libSQL file `url`, its API under `basePath` of `origin`, with `count` signed-in users. */
export async function betterAuthDatabase(url: string, origin: string, basePath: string, secret: string, count: number): Promise<BetterAuthBench> {
	const client = createClient({ url });
	for (const statement of await generateSQLiteMigration(await generateSQLiteDrizzleJson({}), await generateSQLiteDrizzleJson(schema))) {
		await client.execute(statement);
	}
	const auth = betterAuth({
		secret,
		baseURL: origin,
		basePath,
		database: drizzleAdapter(drizzle({ client }), { provider: 'sqlite', schema }),
		emailAndPassword: { enabled: true, password: { hash: async (password) => password, verify: async ({ hash, password }) => hash === password } },
		rateLimit: { enabled: false },
		telemetry: { enabled: false }
	});
	const cookies: string[] = [];
	for (let i = 0; i < count; i++) {
		const response = await auth.handler(
			new Request(`${origin}${basePath}/sign-up/email`, {
				method: 'POST',
				headers: { 'content-type': 'application/json', origin },
				body: JSON.stringify({ email: `bench${i}@example.com`, password: 'bench-password', name: `Bench User ${i}` })
			})
		);
		const cookie = response.headers
			.getSetCookie()
			.map((c) => c.split(';')[0]!)
			.find((c) => c.startsWith('better-auth.session_token='));
		if (!response.ok || !cookie) throw new Error(`better-auth sign-up answered ${response.status}: ${await response.text()}`);
		cookies.push(cookie);
	}
	return { handler: (request) => auth.handler(request), cookies };
}
