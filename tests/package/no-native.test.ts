/**
 * An app on JWT sessions installs no native code, and ships none: libSQL (`@libsql/client`, its
 * `@libsql/core` and the native `libsql` engine) and drizzle-orm are optional peers of kitauth,
 * needed only with the libSQL adapter. Checked on the published manifest, on what its runtime
 * dependencies install (package-lock.json), and on the server bundle of a JWT-only SvelteKit app
 * (tests/bench-app's `jwt` build, against kitauth as published).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, expect, test } from 'vitest';
import { BENCH_APP, buildBenchApp, buildDir } from '../bench/bench-app.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** The adapter's packages: the client, what comes with it, and the ORM. */
const ADAPTER_PEERS = ['@libsql/client', '@libsql/core', 'libsql', 'drizzle-orm'];
const ADAPTER_PACKAGE = /^(libsql|@libsql\/.*|drizzle-orm|@neon-rs\/.*)$/;

interface Manifest {
	dependencies?: Record<string, string>;
	optionalDependencies?: Record<string, string>;
	peerDependencies?: Record<string, string>;
	peerDependenciesMeta?: Record<string, { optional?: boolean }>;
}

interface LockedPackage extends Manifest {
	os?: string[];
	cpu?: string[];
	hasInstallScript?: boolean;
}

beforeAll(async () => {
	await buildBenchApp(['jwt']);
}, 120_000);

/** The manifest as published: `npm run package` copies package.json beside `dist/`. */
function published(): Manifest {
	return JSON.parse(readFileSync(join(BENCH_APP, 'node_modules/kitauth/package.json'), 'utf8')) as Manifest;
}

test('the published manifest has libSQL and drizzle-orm as optional peers only', () => {
	const manifest = published();
	const installed = Object.keys({ ...manifest.dependencies, ...manifest.optionalDependencies });
	expect(installed.filter((name) => ADAPTER_PACKAGE.test(name))).toEqual([]);
	for (const name of ADAPTER_PEERS) {
		expect(manifest.peerDependencies?.[name], name).toMatch(/^\^/);
		expect(manifest.peerDependenciesMeta?.[name]?.optional, name).toBe(true);
	}
});

/**
 * Everything `npm install kitauth` brings with kitauth's dependencies, as this repository's lock
 * file resolves them (node_modules lookup: the nearest `node_modules/<name>` up the tree).
 */
function installClosure(): Map<string, LockedPackage> {
	const locked = (JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, LockedPackage> }).packages;
	const found = new Map<string, LockedPackage>();
	const visit = (from: string, name: string) => {
		for (let base = from; ; base = base.replace(/\/?node_modules\/(@[^/]+\/)?[^/]+$/, '')) {
			const path = `${base ? `${base}/` : ''}node_modules/${name}`;
			const entry = locked[path];
			if (entry) {
				if (!found.has(path)) {
					found.set(path, entry);
					for (const dependency of Object.keys({ ...entry.dependencies, ...entry.optionalDependencies })) visit(path, dependency);
				}
				return;
			}
			if (!base) throw new Error(`${name} (needed by ${from || 'kitauth'}) is not in package-lock.json`);
		}
	};
	for (const name of Object.keys({ ...published().dependencies })) visit('', name);
	return found;
}

test("kitauth's runtime dependencies install no native code", () => {
	const closure = installClosure();
	expect(closure.size).toBeGreaterThan(0);
	const native = [...closure].filter(
		([path, entry]) => ADAPTER_PACKAGE.test(path.replace(/^.*node_modules\//, '')) || entry.os || entry.cpu || entry.hasInstallScript
	);
	expect(native.map(([path]) => path)).toEqual([]);
});

function serverFiles(dir: string): string[] {
	return readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.js') || file.endsWith('.node'));
}

test('the server bundle of a JWT-only app holds no libSQL, drizzle-orm or adapter code', () => {
	const dir = join(buildDir('jwt'), 'server');
	const files = serverFiles(dir);
	expect(files.filter((file) => file.endsWith('.node'))).toEqual([]);
	const code = files.map((file) => readFileSync(join(dir, file), 'utf8')).join('\n');
	// The bundler marks each module it inlines with its path (`// node_modules/kitauth/dist/…`):
	// kitauth's hook is in this bundle, and nothing of the adapter's.
	expect(code).toMatch(/^\/\/ node_modules\/kitauth\/dist\/sveltekit\/handle\.js$/m);
	expect(code.match(/^\/\/ .*node_modules\/(libsql|@libsql|drizzle-orm|@neon-rs)\/.*$/gm) ?? []).toEqual([]);
	expect(code.match(/^\/\/ .*kitauth\/dist\/adapters\/.*$/gm) ?? []).toEqual([]);
	// Nor does it load any of them at run time.
	expect(code.match(/(from|import\(|require\()\s*["'`](libsql|@libsql\/|drizzle-orm)[^"'`]*["'`]/g) ?? []).toEqual([]);
});
