/**
 * kitauth/remote as published: a SvelteKit 3.2 app with `experimental.remoteFunctions`
 * (tests/kit3-remote-app) imports the package's remote functions from its node_modules, as kit
 * allows a package that lists `@sveltejs/kit` among its peer dependencies, and guards its own with
 * `kitauth/remote/server`. Built and served (adapter-node), and under `vite dev`.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { TestClient } from '../support/client.js';
import { buildFixture, type Fixture, packageLibrary, type RunningApp, startDevServer, startFixture } from './kit-app-server.js';
import { appBrowser, HTML } from './kit-client.js';
import { remoteForm, remoteId, remoteQuery } from './kit-remote.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const DIR = join(ROOT, 'tests/kit3-remote-app');
const VITE = join(ROOT, 'node_modules/vite/bin/vite.js');
const SESSION_COOKIE = 'authjs.session-token';
const ALICE = { email: 'alice@example.com', password: 'correct horse battery staple' };

const FIXTURE: Fixture = {
	cwd: ROOT,
	build: [VITE, 'build', '--config', 'tests/kit3-remote-app/vite.config.js'],
	out: join(DIR, '.build'),
	probe: '/base/',
	prepare: () => packageLibrary(join(DIR, 'node_modules/kitauth'), { types: false })
};

/**
 * The id of a remote function the page does not render on the server: from the browser's code
 * kit built (its stub calls the function by id).
 */
function builtRemoteId(name: string): string {
	const dir = join(FIXTURE.out, 'client');
	for (const file of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
		if (!file.endsWith('.js')) continue;
		const match = new RegExp(`["'\`]([a-z0-9]+/${name})["'\`]`).exec(readFileSync(join(dir, file), 'utf8'));
		if (match) return match[1]!;
	}
	throw new Error(`no remote function ${name} in the built client`);
}

function browser(origin: string): TestClient {
	return appBrowser(origin, '/base/auth', 'published remote test');
}

describe('built and served', () => {
	let app: RunningApp;

	beforeAll(async () => {
		const { ms } = await buildFixture(FIXTURE);
		console.info(`tests/kit3-remote-app: packaged and built in ${ms} ms`);
		app = await startFixture(FIXTURE);
	}, 180_000);

	afterAll(async () => {
		await app?.stop();
	});

	/** Signs in with the package's sign-in form, posted without JavaScript; the form's remote id. */
	async function signInWithoutJavaScript(client: TestClient): Promise<{ res: Response; signIn: string }> {
		const html = await (await client.get('/base/', { headers: HTML })).text();
		const signIn = remoteId(html, 'signIn');
		const action = /action="(\?\/remote=[^"]*signIn[^"]*)"/.exec(html)![1]!.replaceAll('&amp;', '&');
		const fields = { providerId: 'credentials', ...ALICE, redirectTo: '/base/' };
		const form = Object.fromEntries(Object.entries(fields).map(([name, content]) => [`${name}/${signIn}`, content]));
		return { res: await client.post(`/base/${action}`, { form, headers: HTML }), signIn };
	}

	test('the package\'s sign-in form signs in without JavaScript, and its session query reads the session', async () => {
		const client = browser(app.origin);
		const { res, signIn } = await signInWithoutJavaScript(client);
		expect(res.status).toBe(303);
		expect(res.headers.get('location')).toBe(`${app.origin}/base/`);
		expect(client.cookie(SESSION_COOKIE)).toEqual(expect.any(String));
		const session = `${signIn.split('/')[0]}/session`;
		expect(await remoteQuery(client, '/base', session)).toMatchObject({ type: 'result', value: { user: { email: ALICE.email, name: 'Alice' } } });
		expect(await remoteQuery(browser(app.origin), '/base', session)).toMatchObject({ type: 'result', value: null });
	});

	test('the package\'s two-factor challenge, a remote module of its own: a code with no sign-in waiting is refused as its result, with JavaScript and without', async () => {
		const client = browser(app.origin);
		const html = await (await client.get('/base/', { headers: HTML })).text();
		const verify = remoteId(html, 'verifyTwoFactor');
		expect(verify.split('/')[0]).not.toBe(remoteId(html, 'signIn').split('/')[0]);
		const expired = 'Your sign-in expired before the second step. Sign in again.';
		expect(await remoteForm(client, '/base', verify, '/base/', { code: '123456' })).toMatchObject({
			type: 'result',
			value: { failed: true, fieldErrors: {}, formErrors: [expired], expired: true }
		});
		const action = /action="(\?\/remote=[^"]*verifyTwoFactor[^"]*)"/.exec(html)![1]!.replaceAll('&amp;', '&');
		const res = await client.post(`/base/${action}`, { form: { [`code/${verify}`]: '123456' }, headers: HTML });
		expect(res.status).toBe(200);
		expect(await res.text()).toContain(expired);
		expect(client.cookie(SESSION_COOKIE)).toBeUndefined();
	});

	test('the app\'s own query, guarded with kitauth/remote/server: 401 signed out, the user\'s greeting signed in', async () => {
		const greeting = builtRemoteId('greeting');
		expect(await remoteQuery(browser(app.origin), '/base', greeting)).toEqual({ type: 'error', status: 401, message: 'Sign in to continue.' });
		const client = browser(app.origin);
		expect((await signInWithoutJavaScript(client)).res.status).toBe(303);
		expect(await remoteQuery(client, '/base', greeting)).toMatchObject({ type: 'result', value: 'Hello, Alice' });
	});
});

describe('under vite dev', () => {
	let dev: Omit<RunningApp, 'databaseUrl'>;

	beforeAll(async () => {
		// The built suite above packaged kitauth into the app's node_modules.
		dev = await startDevServer(VITE, DIR, '/base/');
	}, 120_000);

	afterAll(async () => {
		await dev?.stop();
	});

	test('the page renders the package\'s remote forms, and kit answers the package\'s query', async () => {
		const client = browser(dev.origin);
		const page = await client.get('/base/', { headers: HTML });
		expect(page.status, dev.output()).toBe(200);
		const html = await page.text();
		const session = `${remoteId(html, 'signIn').split('/')[0]}/session`;
		expect(await remoteQuery(client, '/base', session)).toMatchObject({ type: 'result', value: null });
	});
});
