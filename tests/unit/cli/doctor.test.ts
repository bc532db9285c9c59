/**
 * `kitauth doctor` finds each misconfiguration it names, one test each, on a scratch app that
 * `init` set up (a real libSQL database), with the production environment given explicitly.
 */
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { kitauth, scratchApp, type ScratchApp } from './scratch-app.js';
import { migrations } from '#lib/adapters/sqlite/migrations.generated.js';

/** A production environment with nothing missing. */
const GOOD = { AUTH_URL: 'https://app.example', AUTH_GITHUB_ID: 'id', AUTH_GITHUB_SECRET: 'secret' };

let app: ScratchApp;
beforeEach(async () => {
	app = scratchApp(3);
	const { code, terminal } = await kitauth(app, ['init', '--yes', '--providers', 'credentials,github']);
	if (code !== 0) throw new Error(terminal.text());
});
afterEach(() => app.remove());

async function doctor(env: Record<string, string> = GOOD) {
	const { code, terminal } = await kitauth(app, ['doctor'], undefined, env);
	return { code, problems: terminal.out.filter((line) => line.startsWith('  FIX')).map((line) => line.split('\n')[0]!.trim()), text: terminal.text() };
}

describe('kitauth doctor', () => {
	test('a good set-up: every check ok, exit 0', async () => {
		const { code, problems, text } = await doctor();
		expect(problems, text).toEqual([]);
		expect(code).toBe(0);
		expect(text).toContain("ok    src/hooks.server.ts runs kitauth's handle");
		expect(text).toContain('ok    AUTH_SECRET set, at least 32 characters');
		expect(text).toContain('ok    github: AUTH_GITHUB_ID and AUTH_GITHUB_SECRET set');
		expect(text).toContain(`ok    file:${join(app.dir, 'auth.db')} has every migration of this kitauth`);
		expect(text).toContain('No problems found.');
	});

	test('no secret', async () => {
		app.write('.env', '');
		const { code, problems, text } = await doctor();
		expect(code).toBe(1);
		expect(problems).toEqual(['FIX   No AUTH_SECRET in the environment or .env: in production kitauth refuses to start (MissingSecretError)']);
		expect(text).toContain('→ npx kitauth secret');
	});

	test('a secret shorter than 32 characters', async () => {
		const { code, problems } = await doctor({ ...GOOD, AUTH_SECRET: 'short-secret' });
		expect(code).toBe(1);
		expect(problems).toEqual(['FIX   AUTH_SECRET shorter than 32 characters']);
	});

	test('no trusted host (AUTH_URL, AUTH_TRUST_HOST); AUTH_TRUST_HOST=true puts it right, =false does not', async () => {
		const { AUTH_URL: _, ...withoutUrl } = GOOD;
		expect((await doctor(withoutUrl)).problems).toEqual([
			'FIX   Neither AUTH_URL nor AUTH_TRUST_HOST is set: in production kitauth answers every request with UntrustedHost'
		]);
		expect((await doctor({ ...withoutUrl, AUTH_TRUST_HOST: 'false' })).code).toBe(1);
		expect((await doctor({ ...withoutUrl, AUTH_TRUST_HOST: 'true' })).code).toBe(0);
	});

	test('adapter-node on SvelteKit 2 without ORIGIN', async () => {
		app.write('package.json', JSON.stringify({ devDependencies: { '@sveltejs/kit': '^2.63.0', '@sveltejs/adapter-node': '^5.5.0' } }));
		const { problems } = await doctor();
		expect(problems).toEqual([
			'FIX   adapter-node without ORIGIN: it takes the origin from the request as http://<Host>, so behind an https proxy sign-in forms get 403 and URLs are wrong'
		]);
		expect((await doctor({ ...GOOD, ORIGIN: 'https://app.example' })).code).toBe(0);
	});

	test('adapter-node on SvelteKit 3 with ORIGIN, which it ignores', async () => {
		app.write('package.json', JSON.stringify({ devDependencies: { '@sveltejs/kit': '^3.2.0', '@sveltejs/adapter-node': '^6.0.1' } }));
		const { problems } = await doctor({ ...GOOD, ORIGIN: 'https://app.example' });
		expect(problems).toEqual([
			'FIX   ORIGIN is set, but adapter-node 6 (SvelteKit 3) ignores it: the origin comes from the request, https unless PROTOCOL_HEADER says otherwise'
		]);
		app.write('vite.config.ts', "sveltekit({ paths: { origin: 'https://app.example' } })");
		expect((await doctor({ ...GOOD, ORIGIN: 'https://app.example' })).code).toBe(0);
	});

	test("Apple (form_post) without its origin in SvelteKit 3's csrf.trustedOrigins", async () => {
		app.write('src/auth.ts', app.read('src/auth.ts').replace("import GitHub from 'kitauth/providers/github';", "import GitHub from 'kitauth/providers/github';\nimport Apple from 'kitauth/providers/apple';"));
		const env = { ...GOOD, AUTH_APPLE_ID: 'id', AUTH_APPLE_SECRET: 'secret' };
		const { problems, text } = await doctor(env);
		expect(problems).toEqual([
			'FIX   apple answers with a cross-site form POST (response_mode form_post), which SvelteKit refuses (403) unless https://appleid.apple.com is in csrf.trustedOrigins'
		]);
		expect(text).toContain("→ add 'https://appleid.apple.com' to sveltekit({ csrf: { trustedOrigins: [...] } }) in vite.config.ts");
		app.write('vite.config.ts', "sveltekit({ csrf: { trustedOrigins: ['https://appleid.apple.com'] } })");
		expect((await doctor(env)).code).toBe(0);
	});

	test('an OIDC provider with response_mode form_post and no csrf.trustedOrigins (SvelteKit 2: svelte.config.js)', async () => {
		app.write('package.json', JSON.stringify({ devDependencies: { '@sveltejs/kit': '^2.63.0' } }));
		app.write('svelte.config.js', 'export default { kit: {} };');
		app.write('src/auth.ts', app.read('src/auth.ts').replace('GitHub\n', "GitHub,\n\t\t{ id: 'corp', type: 'oidc', issuer: 'https://idp.example', authorization: { params: { response_mode: 'form_post' } } }\n"));
		const { problems, text } = await doctor();
		expect(problems).toEqual(['FIX   A provider uses response_mode form_post, but csrf.trustedOrigins is empty: SvelteKit refuses its cross-site POST (403)']);
		expect(text).toContain("→ add your IdP's origin to kit.csrf.trustedOrigins in svelte.config.js");
	});

	test("an OAuth provider's credentials missing", async () => {
		const { AUTH_GITHUB_SECRET: _, ...env } = GOOD;
		const { problems, text } = await doctor(env);
		expect(problems).toEqual(['FIX   github: AUTH_GITHUB_SECRET not set, so sign-in with github fails']);
		expect(text).toContain('callback URL https://your.site/auth/callback/github');
	});

	test('migrations not applied: the database missing, then behind', async () => {
		const kitauthTags = migrations.slice(1).map((migration) => migration.tag);
		app.write('.env.production', 'DATABASE_URL=file:elsewhere.db\n');
		expect((await doctor()).problems).toEqual([`FIX   The database file:${join(app.dir, 'elsewhere.db')} does not exist yet`]);
		const { createClient } = await import('@libsql/client');
		const client = createClient({ url: `file:${join(app.dir, 'elsewhere.db')}` });
		await client.execute('CREATE TABLE "__kitauth_migrations" (id SERIAL PRIMARY KEY, hash text NOT NULL, created_at numeric)');
		await client.execute({ sql: 'INSERT INTO "__kitauth_migrations" (hash, created_at) VALUES (?, ?)', args: ['x', 1795317818593] });
		client.close();
		const { problems, text } = await doctor();
		expect(problems).toEqual([
			// Every migration but the first (Auth.js's base, which the hash 'x' stands in for).
			`FIX   file:${join(app.dir, 'elsewhere.db')} lacks ${kitauthTags.length} of kitauth's migrations: ${kitauthTags.join(', ')}`
		]);
		expect(text).toContain('→ npx kitauth migrate');
	});

	test("kitauth's handle missing from src/hooks.server.ts", async () => {
		app.write('src/hooks.server.ts', 'export const handle = async ({ event, resolve }) => resolve(event);\n');
		const { problems, text } = await doctor();
		expect(problems).toEqual(["FIX   src/hooks.server.ts does not run kitauth's handle: no /auth endpoints, no locals.auth()"]);
		expect(text).toContain("import { handle as authHandle } from './auth';");
	});

	test('no kitauth configuration at all', async () => {
		app.write('src/auth.ts', 'export {};\n');
		const { code, problems } = await doctor();
		expect(code).toBe(1);
		expect(problems).toEqual(['FIX   No kitauth configuration (SvelteKitAuth in src/auth.ts or src/hooks.server.ts)']);
	});
});
