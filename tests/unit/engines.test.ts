/**
 * `npm ci` on the pinned Node prints no engine warnings: npm warns (EBADENGINE) about each package
 * it installs whose `engines.node` leaves out the Node it runs on, and the project's Node is the
 * `node` devDependency (every `npm run …` and `npx …` runs on it). npm's own rule
 * (npm-install-checks), read from package-lock.json: optional packages are left out, as npm skips
 * one that does not fit without a word.
 */
import { readFileSync } from 'node:fs';
import semver from 'semver';
import { describe, expect, it } from 'vitest';

const root = new URL('../../', import.meta.url);
const manifest = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as { devDependencies: Record<string, string> };
const lock = JSON.parse(readFileSync(new URL('package-lock.json', root), 'utf8')) as {
	packages: Record<string, { version?: string; optional?: boolean; engines?: { node?: string } }>;
};

/** Installed packages (not optional) whose `engines.node` leaves out `node`. */
function leavingOut(node: string): string[] {
	return Object.entries(lock.packages)
		.filter(([path, entry]) => path !== '' && !entry.optional)
		.filter(([, entry]) => entry.engines?.node && !semver.satisfies(node, entry.engines.node, { includePrerelease: true }))
		.map(([path, entry]) => `${path}@${entry.version} (engines.node ${entry.engines?.node})`);
}

describe('engines', () => {
	const pinned = manifest.devDependencies.node!;

	it('the pinned Node is an exact version', () => {
		expect(semver.valid(pinned), pinned).toBe(pinned);
	});

	it('no package in the lockfile leaves out the pinned Node', () => {
		expect(leavingOut(pinned)).toEqual([]);
	});

	it('the check sees a package that leaves it out', () => {
		expect(leavingOut('16.0.0').length).toBeGreaterThan(0);
	});
});
