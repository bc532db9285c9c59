import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { kitauth, recorder, scratchApp, type ScratchApp } from './scratch-app.js';
import { migrations } from '#lib/adapters/sqlite/migrations.generated.js';

const apps: ScratchApp[] = [];
afterEach(() => apps.splice(0).forEach((app) => app.remove()));
function app(kit: 2 | 3 = 3): ScratchApp {
	const made = scratchApp(kit);
	apps.push(made);
	return made;
}
const read = (a: ScratchApp, path: string) => readFileSync(join(a.dir, path), 'utf8');
/** Every file of the app, with its text. */
function snapshot(a: ScratchApp): Record<string, string> {
	return Object.fromEntries(
		readdirSync(a.dir, { recursive: true, encoding: 'utf8' })
			.filter((path) => /\.(ts|svelte|json)$|^\.env$/.test(path))
			.map((path) => [path, read(a, path)])
	);
}

describe('kitauth init', () => {
	test('sets kitauth up: config, hook, pages, secret, migrated database; a second run changes nothing and says so', async () => {
		const a = app(2);
		const first = await kitauth(a, ['init', '--yes', '--providers', 'credentials,github']);
		expect(first.code, first.terminal.text()).toBe(0);
		expect(first.terminal.text()).toContain('Adding kitauth to');
		expect(first.terminal.text()).toContain('(SvelteKit 2)');
		const auth = read(a, 'src/auth.ts');
		expect(auth).toContain("import GitHub from 'kitauth/providers/github';");
		expect(auth).toContain('adapter: LibSQLAdapter(database)');
		expect(read(a, 'src/hooks.server.ts')).toContain('export const handle = sequence(authHandle);');
		expect(read(a, 'src/routes/signin/+page.svelte')).toContain("import { SignIn } from 'kitauth/components';");
		expect(read(a, 'src/routes/signin/+page.server.ts')).toContain('export const actions = { signIn };');
		expect(read(a, 'src/lib/server/passwords.ts')).toContain('export async function checkPassword');
		expect(read(a, '.env')).toMatch(/^AUTH_SECRET=[\w-]{43}\n$/);
		expect(first.terminal.text()).toContain('0004_kitauth_session_cutoffs');
		expect(first.terminal.text()).toContain('Set AUTH_GITHUB_ID and AUTH_GITHUB_SECRET');
		expect(first.terminal.text()).toContain('Keep the database out of git: add auth.db* to .gitignore.');
		// Nothing secret on stdout.
		expect(first.terminal.text()).not.toContain(read(a, '.env').slice('AUTH_SECRET='.length, -1));

		const before = snapshot(a);
		const second = await kitauth(a, ['init', '--yes', '--providers', 'credentials,github']);
		expect(second.code).toBe(0);
		expect(second.terminal.out).toEqual([`Adding kitauth to ${a.dir} (SvelteKit 2).`, 'Nothing to change: kitauth is already set up here.']);
		expect(snapshot(a)).toEqual(before);
	});

	test('never replaces a file of the app without asking: --yes and no TTY leave it, a “no” leaves it, a “yes” replaces it', async () => {
		const a = app();
		const mine = "// my own auth.ts\nexport const mine = true;\n";
		a.write('src/auth.ts', mine);
		const yes = await kitauth(a, ['init', '--yes']);
		expect(yes.code).toBe(0);
		expect(read(a, 'src/auth.ts')).toBe(mine);
		expect(yes.terminal.text()).toContain('left alone: src/auth.ts');

		const no = await kitauth(a, ['init', '--providers', 'credentials', '--database', 'libsql'], recorder(['n', 'y']));
		expect(no.terminal.asked[0]).toBe('src/auth.ts exists and differs from what kitauth would write. Replace it? [y/N]');
		expect(read(a, 'src/auth.ts')).toBe(mine);

		const replace = await kitauth(a, ['init', '--providers', 'credentials', '--database', 'libsql'], recorder(['y']));
		expect(replace.terminal.text()).toContain('replaced: src/auth.ts');
		expect(read(a, 'src/auth.ts')).toContain('SvelteKitAuth(authConfig)');
	});

	test('merges into an existing handle, asking first when someone is there', async () => {
		const a = app();
		const mine = 'export async function handle({ event, resolve }) {\n\treturn resolve(event);\n}\n';
		a.write('src/hooks.server.ts', mine);
		const declined = await kitauth(a, ['init', '--providers', 'credentials', '--database', 'none'], recorder(['n']));
		expect(declined.terminal.asked).toEqual(["Add kitauth's hook to your src/hooks.server.ts? [Y/n]"]);
		expect(read(a, 'src/hooks.server.ts')).toBe(mine);
		expect(declined.terminal.text()).toContain("import { handle as authHandle } from './auth';");

		await kitauth(a, ['init', '--yes', '--database', 'none']);
		expect(read(a, 'src/hooks.server.ts')).toContain('export const handle = sequence(authHandle, appHandle);');
	});

	test('a hooks file it cannot merge is left alone, with what to add', async () => {
		const a = app();
		const mine = "export { handle } from './my-hooks';\n";
		a.write('src/hooks.server.ts', mine);
		const { code, terminal } = await kitauth(a, ['init', '--yes', '--database', 'none']);
		expect(code).toBe(0);
		expect(read(a, 'src/hooks.server.ts')).toBe(mine);
		expect(terminal.errors.join('\n')).toContain('left alone: src/hooks.server.ts, since it exports `handle` from an export list');
		expect(terminal.errors.join('\n')).toContain('export const handle = sequence(authHandle /*, your other hooks */);');
	});

	test('asks for the providers and the database when someone is there; a passkey needs a database', async () => {
		const a = app();
		const { terminal } = await kitauth(a, ['init'], recorder(['github', 'none']));
		expect(terminal.asked[0]).toMatch(/^Sign-in methods, comma-separated \(apple, .*github.*\) \[credentials\]:$/);
		expect(terminal.asked[1]).toBe('Database (libsql, none) [libsql]:');
		expect(read(a, 'src/auth.ts')).not.toContain('adapter');
		const passkey = await kitauth(app(), ['init', '--providers', 'passkey', '--database', 'none']);
		expect(passkey).toMatchObject({ code: 2 });
		expect(passkey.terminal.errors).toEqual(['kitauth init: passkey needs a database: choose --database libsql.']);
	});

	test('mistakes are messages with exit code 2, no stack: unknown option, provider, database, not a SvelteKit app', async () => {
		const a = app();
		const option = await kitauth(a, ['init', '--bogus']);
		expect(option.code).toBe(2);
		expect(option.terminal.errors[0]).toMatch(/^kitauth init: Unknown option '--bogus'.*\n\nUsage: kitauth init /s);
		const provider = await kitauth(a, ['init', '--providers', 'gitbub']);
		expect(provider.terminal.errors[0]).toMatch(/^kitauth init: Unknown provider gitbub\. kitauth has: apple, .*github/);
		const database = await kitauth(a, ['init', '--yes', '--database', 'mongo']);
		expect(database.terminal.errors[0]).toBe('kitauth init: Unknown database "mongo": kitauth\'s CLI knows libsql (or none).');
		a.write('package.json', '{"name":"not-kit"}');
		const notKit = await kitauth(a, ['init', '--yes']);
		expect(notKit.code).toBe(2);
		expect(notKit.terminal.errors[0]).toContain('is not a SvelteKit app');
		for (const run of [option, provider, database, notKit]) expect(run.terminal.text()).not.toMatch(/\n\s+at /);
	});
});

describe('kitauth secret', () => {
	test('writes AUTH_SECRET to .env, keeping the other lines; keeps an existing one unless told (--yes, or a “y”)', async () => {
		const a = app();
		a.write('.env', 'DATABASE_URL=file:x.db');
		const { code, terminal } = await kitauth(a, ['secret']);
		expect(code).toBe(0);
		expect(terminal.out).toEqual(['Wrote a new AUTH_SECRET to .env.']);
		const first = read(a, '.env');
		expect(first).toMatch(/^DATABASE_URL=file:x\.db\nAUTH_SECRET=[\w-]{43}\n$/);

		expect((await kitauth(a, ['secret'])).terminal.out).toEqual(['Kept the AUTH_SECRET in .env (--yes replaces it).']);
		expect((await kitauth(a, ['secret'], recorder(['n']))).terminal.asked).toEqual(['.env already has an AUTH_SECRET. Replace it (this signs everyone out)? [y/N]']);
		expect(read(a, '.env')).toBe(first);
		await kitauth(a, ['secret', '--yes']);
		const second = read(a, '.env');
		expect(second).toMatch(/^DATABASE_URL=file:x\.db\nAUTH_SECRET=[\w-]{43}\n$/);
		expect(second).not.toBe(first);
	});

	test('--raw prints a fresh secret and writes nothing', async () => {
		const a = app();
		const { terminal } = await kitauth(a, ['secret', '--raw']);
		expect(terminal.out).toHaveLength(1);
		expect(terminal.out[0]).toMatch(/^[\w-]{43}$/);
		expect(() => read(a, '.env')).toThrow();
	});
});

describe('kitauth migrate', () => {
	test('applies the migrations of the engine src/auth.ts uses, to DATABASE_URL from .env; again: up to date', async () => {
		const a = app();
		await kitauth(a, ['init', '--yes', '--database', 'none']);
		a.write('src/auth.ts', "import { SvelteKitAuth } from 'kitauth';\nimport { LibSQLAdapter } from 'kitauth/adapters/libsql';\nexport const { handle } = SvelteKitAuth({ adapter: LibSQLAdapter(db), providers: [] });\n");
		a.write('.env.production', 'DATABASE_URL=file:other.db\n');
		const { code, terminal } = await kitauth(a, ['migrate']);
		expect(code, terminal.text()).toBe(0);
		expect(terminal.out).toEqual([`Applied to file:${join(a.dir, 'other.db')}: ${migrations.map((migration) => migration.tag).join(', ')}.`]);
		expect((await kitauth(a, ['migrate'])).terminal.out).toEqual([`file:${join(a.dir, 'other.db')} is up to date.`]);
	});

	test('an adapter the CLI does not know yet, or none, is a clear message', async () => {
		const a = app();
		a.write('src/auth.ts', "import { SvelteKitAuth } from 'kitauth';\nimport { PostgresAdapter } from 'kitauth/adapters/postgres';\nexport const { handle } = SvelteKitAuth({});\n");
		const other = await kitauth(a, ['migrate']);
		expect(other).toMatchObject({ code: 2 });
		expect(other.terminal.errors).toEqual(['kitauth migrate: src/auth.ts uses kitauth/adapters/postgres, whose migrations this CLI does not apply yet (it knows libsql).']);
		a.write('src/auth.ts', "import { SvelteKitAuth } from 'kitauth';\nexport const { handle } = SvelteKitAuth({});\n");
		expect((await kitauth(a, ['migrate'])).terminal.errors).toEqual(['kitauth migrate: src/auth.ts uses no kitauth adapter, so there is nothing to migrate.']);
	});
});

test('a database migrate cannot bring up to date is a message, not a stack trace', async () => {
	const a = scratchApp();
	apps.push(a);
	await kitauth(a, ['init', '--yes', '--database', 'none']);
	a.write('src/auth.ts', "import { SvelteKitAuth } from 'kitauth';\nimport { LibSQLAdapter } from 'kitauth/adapters/libsql';\nexport const { handle } = SvelteKitAuth({});\n");
	const { createClient } = await import('@libsql/client');
	const client = createClient({ url: `file:${join(a.dir, 'auth.db')}` });
	await client.execute('CREATE TABLE "user" (id integer)'); // not Auth.js's user table
	client.close();
	const { code, terminal } = await kitauth(a, ['migrate']);
	expect(code).toBe(2);
	expect(terminal.errors[0]).toMatch(/^kitauth migrate: migrating file:.*auth\.db failed: .*the existing table "user" is not Auth\.js's/);
	expect(terminal.text()).not.toMatch(/\n\s+at /);
});

describe('kitauth --help', () => {
	test('each command has its help (exit 0); no command or an unknown one shows the overview (exit 2)', async () => {
		const { main } = await import('../../../src/lib/cli/main.js');
		for (const name of ['init', 'secret', 'migrate', 'doctor']) {
			const terminal = recorder();
			expect(await main([name, '--help'], terminal, {})).toBe(0);
			expect(terminal.out[0]).toMatch(new RegExp(`^Usage: kitauth ${name}\\b`));
			expect(terminal.out[0]).toContain('--cwd <folder>');
		}
		const overview = recorder();
		expect(await main(['--help'], overview, {})).toBe(0);
		expect(overview.out[0]).toMatch(/^Usage: npx kitauth <command> \[options\]\n\nCommands:\n {2}init {5}add kitauth/);
		const none = recorder();
		expect(await main([], none, {})).toBe(2);
		const unknown = recorder();
		expect(await main(['deploy'], unknown, {})).toBe(2);
		expect(unknown.errors[0]).toMatch(/^Unknown command "deploy"\.\n\nUsage: npx kitauth/);
	});
});
