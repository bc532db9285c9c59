/**
 * The package's public entries hold what app authors (and integration authors) use; test seams and
 * the SvelteKit edge's helpers stay internal (tests import those by path).
 */
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as core from '../../src/lib/core/index.js';
import * as redis from '../../src/lib/limit/redis.js';

const LIB = new URL('../../src/lib/', import.meta.url);
const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
	exports: Record<string, string | Record<string, string>>;
};

/** The source file a `dist/…` path is built from (`.ts`, or a directory's `index.ts`). */
function sourceOf(dist: string): string | undefined {
	const path = dist.replace(/^\.\/dist\//, '').replace(/\.(d\.ts|js)$/, '');
	return [`${path}.ts`, `${path}/index.ts`].find((file) => existsSync(new URL(file, LIB)));
}

describe('public entries', () => {
	it("kitauth/core: no edge helpers (the server API's refusalOf stands for them)", () => {
		for (const name of ['signInMessage', 'safeCode', 'retryAfterOf', 'isUrlSafeError', 'urlErrorFor']) {
			expect(Object.keys(core), name).not.toContain(name);
		}
		expect(typeof core.refusalOf).toBe('function');
	});

	it('kitauth/limit/redis: the store, not its scripts', () => {
		expect(Object.keys(redis)).toEqual(['RedisStore']);
	});

	it('every export names an entry file, and only the listed limit stores are exported (no wildcard)', () => {
		for (const [subpath, target] of Object.entries(pkg.exports)) {
			if (subpath === './package.json' || subpath.includes('*')) continue;
			const dist = typeof target === 'string' ? target : (target.default ?? target.svelte)!;
			expect(sourceOf(dist), subpath).toBeDefined();
		}
		expect(Object.keys(pkg.exports).filter((subpath) => subpath.startsWith('./limit/'))).toEqual([
			'./limit/memory',
			'./limit/redis',
			'./limit/postgres'
		]);
	});
});
