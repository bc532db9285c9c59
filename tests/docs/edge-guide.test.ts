/**
 * The Edge guide's samples run (issue 32), in workerd: docs/content/edge.md's `src/auth.ts`,
 * wrangler.jsonc entry and `src/hooks.server.ts` make a Cloudflare Worker (tests/docs/edge-guide.ts
 * says what fills in the rest), built with adapter-cloudflare against kitauth as packaged, its D1
 * tables made by the guide's own command (`wrangler d1 migrations apply DB --local`, the real CLI,
 * with the guide's `migrations_dir`), served by `wrangler dev` (tests/edge/workerd.ts). Over HTTP,
 * what the guide promises: the secret and GitHub's id and secret come from the Worker variables,
 * which the config does not name; database sessions live in D1 through the guide's adapter (a
 * user and session written into the local D1 with `wrangler d1 execute`, then read back by
 * `/auth/session` and by `locals.auth()` in `load`); the bookmark hook keeps the D1 session's
 * bookmark in a cookie and ignores a malformed one. A sample changed so that it no longer works
 * fails here, naming the guide and its samples' lines.
 *
 * Not run here:
 * - A sign-in through GitHub itself: GitHub cannot be reached, so the test goes as far as the
 *   redirect to its authorize endpoint, as tests/docs/guides.test.ts does.
 * - auth.ts's adapter on the binding itself (`D1Adapter(event.platform!.env.DB)`): the app is the
 *   guide's last step, where the hooks sample's comment gives the config `D1Adapter(event.locals.d1)`.
 * - `migrate(env.DB)`, the guide's other way to make the tables (tests/adapter/d1.test.ts: it
 *   agrees with wrangler), and read replicas (a local D1 has one copy: a request carrying the
 *   bookmark reads the session, which any copy would).
 */
import { createHash, randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setCookies } from '../support/client.ts';
import { type RunningWorker, runWrangler, startWorker } from '../edge/workerd.ts';
import { packageLibraryOnce } from '../sveltekit/kit-app-server.ts';
import { appBrowser, HTML, pageState } from '../sveltekit/kit-client.ts';
import { buildEdgeGuide, type EdgeGuideApp, inGuide, PACKAGED, VARS, writeEdgeGuide } from './edge-guide.ts';

const SESSION_COOKIE = 'authjs.session-token';
const ADA = { id: 'user-ada', name: 'Ada', email: 'ada@example.com' };
/** Ada's session cookie: D1 holds its SHA-256, as kitauth stores database sessions. */
const TOKEN = randomBytes(32).toString('hex');

let app: EdgeGuideApp;
let worker: RunningWorker;
let guide: string;

beforeAll(async () => {
	const started = performance.now();
	await packageLibraryOnce(PACKAGED, { types: false });
	app = writeEdgeGuide();
	guide = app.named;
	const hashed = createHash('sha256').update(TOKEN).digest('hex');
	const expires = Date.now() + 30 * 24 * 3600_000;
	const seed = `INSERT INTO "user" ("id", "name", "email") VALUES ('${ADA.id}', '${ADA.name}', '${ADA.email}');
INSERT INTO "session" ("sessionToken", "userId", "expires", "createdAt") VALUES ('${hashed}', '${ADA.id}', ${expires}, ${Date.now()});`;
	// The build and the database do not wait for each other.
	const database = async () => {
		await runWrangler(app.migrate, app.dir, app.state);
		await runWrangler(['d1', 'execute', app.binding, '--local', '--command', seed], app.dir, app.state);
	};
	await inGuide(app, Promise.all([buildEdgeGuide(app), database()]));
	const ready = performance.now();
	worker = await inGuide(app, startWorker({ config: app.config, persistTo: app.state }));
	console.info(`edge guide: built and migrated in ${Math.round(ready - started)} ms, workerd up in ${Math.round(performance.now() - ready)} ms`);
}, 240_000);

afterAll(async () => {
	await worker?.stop();
	if (app) rmSync(app.dir, { recursive: true, force: true });
});

const browser = () => appBrowser(worker.origin, '/auth', 'edge guide test');

/** The page's `load` data (tests/edge-app's layout: `locals.auth()` and the runtime). */
async function page(cookie: string) {
	const res = await fetch(`${worker.origin}/`, { headers: { ...HTML, cookie } });
	expect(res.status, `${guide}\n${worker.output()}`).toBe(200);
	return { res, data: pageState(await res.text()).data };
}

describe('the Edge guide, its samples as a Worker on workerd', () => {
	it('reads the secret and GitHub id and secret from the Worker variables: GitHub is listed, and a sign-in starts at GitHub', async () => {
		const client = browser();
		const providers = await client.get('providers');
		expect(providers.status, guide).toBe(200);
		expect(await providers.json(), guide).toMatchObject({ github: { id: 'github', type: 'oauth' } });
		// The CSRF cookie is the token and its SHA-256 under AUTH_SECRET.
		const token = await client.csrfToken();
		expect(client.cookie('authjs.csrf-token'), guide).toBe(`${token}|${createHash('sha256').update(token + VARS.AUTH_SECRET).digest('hex')}`);
		const start = await client.postForm('signin/github', {});
		expect(start.status, `${guide}\n${worker.output()}`).toBe(302);
		const authorize = new URL(start.headers.get('location') ?? '');
		expect(`${authorize.origin}${authorize.pathname}`, guide).toBe('https://github.com/login/oauth/authorize');
		expect(authorize.searchParams.get('client_id'), guide).toBe(VARS.AUTH_GITHUB_ID);
		expect(authorize.searchParams.get('redirect_uri'), guide).toBe(`${worker.origin}/auth/callback/github`);
		expect(authorize.searchParams.get('code_challenge_method'), guide).toBe('S256');
		const checks = setCookies(start).map((cookie) => cookie.name);
		expect(checks, guide).toEqual(expect.arrayContaining(['authjs.pkce.code_verifier', 'authjs.state']));
	});

	it('keeps database sessions in D1: the session in the table is read by /auth/session and by locals.auth(); a cookie naming no row reads none', async () => {
		const client = browser();
		client.setCookie(SESSION_COOKIE, TOKEN);
		expect(await client.session(), `${guide}\n${worker.output()}`).toMatchObject({ user: { name: ADA.name, email: ADA.email } });
		const { data } = await page(`${SESSION_COOKIE}=${TOKEN}`);
		expect(data, guide).toMatchObject({ session: { user: { email: ADA.email } }, runtime: 'Cloudflare-Workers' });
		for (const bogus of ['a'.repeat(64), 'not-a-token', 'x'.repeat(3000)]) {
			client.setCookie(SESSION_COOKIE, bogus);
			expect(await client.session(), guide).toBeNull();
			expect((await page(`${SESSION_COOKIE}=${bogus}`)).data.session, guide).toBeNull();
		}
	});

	it('keeps the D1 bookmark in a cookie; the next request starts at it, and a malformed one starts anywhere', async () => {
		const { res } = await page(`${SESSION_COOKIE}=${TOKEN}`);
		const bookmark = setCookies(res).find((cookie) => cookie.name === 'd1-bookmark');
		expect(bookmark?.value ?? '', `${guide}: no d1-bookmark cookie`).toMatch(/^[0-9a-f]+(-[0-9a-f]+)+$/);
		expect(res.headers.get('set-cookie'), guide).toMatch(/d1-bookmark=[^;]+; Path=\/; HttpOnly; Secure; SameSite=Lax/);
		for (const carried of [bookmark?.value ?? '', "' OR 1=1 --", 'first-primary', 'f'.repeat(600)]) {
			const { data } = await page(`${SESSION_COOKIE}=${TOKEN}; d1-bookmark=${encodeURIComponent(carried)}`);
			expect(data.session, `${guide}: with the bookmark ${carried.slice(0, 40)}`).toMatchObject({ user: { email: ADA.email } });
		}
	});
});
