/**
 * The Core guide's samples (docs/content/core.md) run outside SvelteKit, as the guide has them:
 * each becomes a module — its imports as written (`kitauth/core` resolving to this repository's
 * src/lib, as in every samples app), its statements the body of a function of what the guide
 * leaves to the reader (`request`, `config`, `url`, `clientAddress`, `fields`) — called with a
 * real configuration: credentials and GitHub providers, database sessions on a libSQL file.
 * `Auth(request, config)` signs in through the REST API; the server API's sample answers a
 * request under the base path, and for a page reads the session, lists and revokes the other
 * sessions, lists linked accounts, asks for GitHub's token, signs in with the form's fields and
 * signs out — each checked by what it leaves behind (the events raised, the sessions that still
 * open). A sample changed so that it no longer runs fails here, naming the guide and its line.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { AuthConfig } from '../../src/lib/core/index.ts';
import { LibSQLAdapter, migrate } from '../../src/lib/adapters/libsql/index.ts';
import Credentials from '../../src/lib/providers/credentials.ts';
import GitHub from '../../src/lib/providers/github.ts';
import { extractSamples, isFragment, root, type Sample } from './samples.ts';

const GUIDE = 'docs/content/core.md';
const ORIGIN = 'http://127.0.0.1:4700';
const USER = { email: 'ada@example.com', password: 'correct horse battery staple' };
const LEFT_TO_THE_READER = ['request', 'config', 'url', 'clientAddress', 'fields'] as const;

type Reader = Partial<Record<(typeof LEFT_TO_THE_READER)[number], unknown>>;
type Run = (reader: Reader) => Promise<unknown>;

let dir: string;
const events: { name: string; email?: string | null }[] = [];
let config: AuthConfig;
interface Loaded {
	at: string;
	run: Run;
}
/** Auth()'s sample and the server API's. */
let samples: [Loaded, Loaded];

/** A sample as a module: its imports on top, the rest the body of `run({ request, config, … })`. */
async function load(sample: Sample, index: number): Promise<Run> {
	const lines = sample.code.split('\n');
	const imports = lines.filter((line) => line.startsWith('import '));
	const body = lines.filter((line) => !line.startsWith('import '));
	const core = pathToFileURL(join(root, 'src/lib/core/index.ts')).href;
	const file = join(dir, `sample-${index}.ts`);
	writeFileSync(
		file,
		[
			...imports.map((line) => line.replace(/(['"])kitauth\/core\1/, JSON.stringify(core))),
			`export default async function run({ ${LEFT_TO_THE_READER.join(', ')} }: Record<string, any>) {`,
			...body,
			// The first sample's result is its `response`; the second returns from its own `if`.
			/\bconst response\b/.test(sample.code) ? 'return response;' : '',
			'}'
		].join('\n')
	);
	return ((await import(pathToFileURL(file).href)) as { default: Run }).default;
}

beforeAll(async () => {
	dir = mkdtempSync(join(tmpdir(), 'kitauth-core-guide-'));
	const url = `file:${join(dir, 'core.db')}`;
	await migrate({ url });
	config = {
		secret: 'core-guide-secret-0123456789abcdef0123456789abcdef',
		trustHost: true,
		basePath: '/auth',
		rateLimit: false,
		adapter: LibSQLAdapter({ url }),
		session: { strategy: 'database' },
		providers: [
			Credentials({
				credentials: { email: {}, password: {} },
				authorize: ({ email, password }) => (email === USER.email && password === USER.password ? { id: 'ada', email: USER.email } : null)
			}),
			GitHub({ clientId: 'core-guide-id', clientSecret: 'core-guide-secret' })
		],
		events: {
			signIn: ({ user }) => void events.push({ name: 'signIn', email: user.email }),
			signOut: () => void events.push({ name: 'signOut' })
		}
	};
	const found = extractSamples(GUIDE);
	if (found.length !== 2) throw new Error(`${GUIDE}: expected its two samples (Auth(), the server API), found ${found.length}`);
	samples = (await Promise.all(found.map(async (sample, index) => ({ at: sample.at, run: await load(sample, index) })))) as [Loaded, Loaded];
	expect(isFragment(found[1]!)).toBe(true);
});

afterAll(() => {
	if (dir) rmSync(dir, { recursive: true, force: true });
});

/** What `step` gives; its failure names the sample first. */
async function inSample<T>(at: string, step: () => Promise<T>): Promise<T> {
	try {
		return await step();
	} catch (error) {
		throw new Error(`${at}: ${String(error)}`, { cause: error });
	}
}

const cookiesOf = (response: Response) => response.headers.getSetCookie().map((c) => c.split(';')[0]!);
const sessionCookie = (response: Response) => cookiesOf(response).find((c) => c.startsWith('authjs.session-token='));

/** A credentials sign-in through the first sample (`Auth(request, config)`): the session cookie. */
async function signInWithAuth(): Promise<string> {
	const [{ at, run }] = samples;
	const auth = (request: Request) => inSample(at, () => run({ request, config }) as Promise<Response>);
	const csrf = await auth(new Request(`${ORIGIN}/auth/csrf`));
	const { csrfToken } = (await csrf.json()) as { csrfToken: string };
	const signedIn = await auth(
		new Request(`${ORIGIN}/auth/callback/credentials`, {
			method: 'POST',
			headers: { cookie: cookiesOf(csrf).join('; '), origin: ORIGIN, 'content-type': 'application/x-www-form-urlencoded' },
			body: new URLSearchParams({ csrfToken, ...USER })
		})
	);
	expect(signedIn.status).toBe(302);
	const cookie = sessionCookie(signedIn);
	if (!cookie) throw new Error(`${at}: Auth() answered the sign-in without a session cookie`);
	return cookie;
}

async function sessionOf(cookie: string): Promise<{ user?: { email?: string } } | null> {
	const [{ run }] = samples;
	return ((await run({ request: new Request(`${ORIGIN}/auth/session`, { headers: { cookie } }), config })) as Response).json();
}

it('Auth(request, config) answers the REST API: a credentials sign-in, then its session', async () => {
	const cookie = await signInWithAuth();
	expect((await sessionOf(cookie))?.user?.email).toBe(USER.email);
	expect(events.at(-1)).toEqual({ name: 'signIn', email: USER.email });
});

it("the server API's sample: a request under the base path is handled; for a page, its calls run", async () => {
	const [, { at, run }] = samples;
	const other = await signInWithAuth();
	const mine = await signInWithAuth();
	const reader = (path: string, init: RequestInit = {}): Reader => {
		const url = new URL(path, ORIGIN);
		return { config, url, clientAddress: '127.0.0.1', request: new Request(url, init), fields: USER };
	};

	// Under /auth: `server.handle` answers, as Auth() does.
	const served = (await inSample(at, () => run(reader('/auth/session', { headers: { cookie: mine } })))) as Response;
	expect(served).toBeInstanceOf(Response);
	expect(((await served.json()) as { user?: { email?: string } }).user?.email).toBe(USER.email);

	// A page: the session read, the lists, the other sessions revoked, a token asked for, a sign-in
	// with the form's fields, and a sign-out of the request's session.
	events.length = 0;
	const page = await inSample(at, () => run(reader('/account', { method: 'POST', headers: { cookie: mine, origin: ORIGIN } })));
	expect(page).toBeUndefined();
	expect(events).toEqual([{ name: 'signIn', email: USER.email }, { name: 'signOut' }]);
	// revokeOtherSessions() ended the other browser's session, signOut() this one's.
	expect(await sessionOf(other)).toBeNull();
	expect(await sessionOf(mine)).toBeNull();
});
