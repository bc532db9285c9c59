/**
 * The rows of issue 33's table as requests to the bench app's builds (tests/bench-app), each with
 * its counterpart in the app without kitauth: what hotpath.ts times and weighs and profile.ts
 * profiles. Each row's `probe` is checked once before use, so a row that stopped doing its work
 * (a session not read, a sign-in refused) fails the bench instead of measuring an error page.
 */
import { databaseTokens, jwtTokens, SESSION_COOKIE } from './sessions.ts';

export const ORIGIN = 'http://127.0.0.1:4380';
const SESSIONS = 500;

/** SvelteKit's server as a build exports it (adapter-node's output or vite's). */
export interface KitServer {
	init(options: { env: Record<string, string | undefined>; read?: (file: string) => ReadableStream }): Promise<void>;
	respond(request: Request, options: { getClientAddress: () => string }): Promise<Response>;
}

export type Op = (i: number) => Promise<unknown>;

export interface Row {
	scenario: string;
	kitauth: Op;
	/** The same request to the app without kitauth, where there is one. */
	baseline?: Op;
}

const address = { getClientAddress: () => '127.0.0.1' };

/** One request through a build, its body read (as adapter-node would stream it). */
export async function send(server: KitServer, path: string, init: RequestInit = {}): Promise<{ response: Response; body: string }> {
	const response = await server.respond(new Request(`${ORIGIN}${path}`, init), address);
	return { response, body: await response.text() };
}

const get = (server: KitServer, path: string, cookies?: string[]): Op => (i) =>
	send(server, path, cookies ? { headers: { cookie: cookies[i % cookies.length]! } } : {});

/**
 * The rows over the three builds (`none` without kitauth, `jwt`, `libsql` on the migrated
 * database at `databaseUrl`), their sessions made and each row's answer checked.
 */
export async function hotpathRows(servers: { none: KitServer; jwt: KitServer; libsql: KitServer }, databaseUrl: string): Promise<{ rows: Row[]; jwtTokens: string[]; dbTokens: string[] }> {
	const { none, jwt, libsql } = servers;
	const jwtValues = await jwtTokens(SESSIONS);
	const jwtCookies = jwtValues.map((t) => `${SESSION_COOKIE}=${t}`);
	const dbTokens = await databaseTokens(databaseUrl, SESSIONS);
	const dbCookies = dbTokens.map((t) => `${SESSION_COOKIE}=${t}`);
	const csrf = await send(libsql, '/auth/csrf');
	const csrfCookie = csrf.response.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
	const { csrfToken } = JSON.parse(csrf.body) as { csrfToken: string };
	const signIn = (i: number) =>
		send(libsql, '/auth/callback/credentials', {
			method: 'POST',
			headers: { cookie: csrfCookie, origin: ORIGIN, 'content-type': 'application/x-www-form-urlencoded' },
			body: new URLSearchParams({ csrfToken, email: `bench${i % 50}@example.com`, password: 'bench' })
		});
	const hasUser = (_: Response, body: string) => body.includes('bench0@example.com');
	const checked: (Row & { probe: () => Promise<{ response: Response; body: string }>; expect: (r: Response, body: string) => boolean })[] = [
		{ scenario: 'JWT session read (GET /auth/session) vs GET /api', kitauth: get(jwt, '/auth/session', jwtCookies), baseline: get(none, '/api', jwtCookies), probe: () => send(jwt, '/auth/session', { headers: { cookie: jwtCookies[0]! } }), expect: hasUser },
		{ scenario: 'database session read, libSQL (GET /auth/session) vs GET /api', kitauth: get(libsql, '/auth/session', dbCookies), baseline: get(none, '/api', dbCookies), probe: () => send(libsql, '/auth/session', { headers: { cookie: dbCookies[0]! } }), expect: hasUser },
		{ scenario: 'protected page, JWT session vs the same page without auth', kitauth: get(jwt, '/protected', jwtCookies), baseline: get(none, '/protected', jwtCookies), probe: () => send(jwt, '/protected', { headers: { cookie: jwtCookies[0]! } }), expect: hasUser },
		{ scenario: 'protected page, database session vs the same page without auth', kitauth: get(libsql, '/protected', dbCookies), baseline: get(none, '/protected', dbCookies), probe: () => send(libsql, '/protected', { headers: { cookie: dbCookies[0]! } }), expect: hasUser },
		{ scenario: 'GET /auth/session without a cookie vs GET /api', kitauth: get(jwt, '/auth/session'), baseline: get(none, '/api'), probe: () => send(jwt, '/auth/session'), expect: (r, body) => r.ok && body === 'null' },
		{ scenario: 'credentials sign-in, database sessions (no counterpart without auth)', kitauth: signIn, probe: () => signIn(0), expect: (r) => r.status === 302 && r.headers.getSetCookie().some((c) => c.startsWith(SESSION_COOKIE)) }
	];
	for (const row of checked) {
		const { response, body } = await row.probe();
		if (!row.expect(response, body)) throw new Error(`${row.scenario}: unexpected answer ${response.status} ${body.slice(0, 200)}`);
	}
	return { rows: checked.map(({ scenario, kitauth, baseline }) => ({ scenario, kitauth, baseline })), jwtTokens: jwtValues, dbTokens };
}
