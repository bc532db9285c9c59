/**
 * Every ```ts, ```js and ```svelte sample of the docs (docs/content) and the README compiles:
 * they are laid out as one SvelteKit 3 app (tests/docs/samples.ts says how) where `kitauth`
 * resolves to this repository's src/lib, and svelte-check type-checks it. A sample that is a
 * fragment on purpose says so in its fence (```ts fragment) and is listed in FRAGMENTS with why.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { extractSamples, isFragment, root, sampleSources, writeSampleApp, type Sample } from './samples.ts';

/** The fragments, by their guide and first line (lines move as guides are edited), and why each does not compile alone. */
const FRAGMENTS: Record<string, string> = {
	'docs/content/components.md <!-- a page for pages.error, and one for pages.verifyRequest -->': 'the markup of two pages, their scripts elided',
	"docs/content/core.md import { createAuthServer, lazyAuthServer } from 'kitauth/core';": "the server API's calls in order, inside some framework's request handler (its `return`)",
	'docs/content/oauth.md // SvelteKit 3: vite.config.ts': "SvelteKit 3's plugin option and SvelteKit 2's svelte.config.js, side by side",
	"docs/content/remote-functions.md // src/routes/notes/data.remote.ts: the app's own remote functions": 'validates with valibot, which this repository does not install'
};

/** A sample's name in FRAGMENTS: its guide and its first line. */
const fragmentKey = (sample: Sample) => `${sample.at.slice(0, sample.at.lastIndexOf(':'))} ${sample.code.split('\n')[0]}`;

const samples: Sample[] = sampleSources().flatMap(extractSamples);
const dir = mkdtempSync(join(tmpdir(), 'kitauth-samples-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the docs samples', () => {
	it('are found in every guide and the README, and the fragments are the listed ones', () => {
		expect(samples.length).toBeGreaterThan(40);
		expect(samples.filter(isFragment).map(fragmentKey).sort()).toEqual(Object.keys(FRAGMENTS).sort());
	});

	it('type-check as files of a SvelteKit app', () => {
		const byFile = writeSampleApp(dir, samples.filter((s) => !isFragment(s)));
		const bin = (name: string) => join(root, 'node_modules', name);
		const sync = spawnSync(process.execPath, [bin('@sveltejs/kit/svelte-kit.js'), 'sync'], { cwd: dir, encoding: 'utf8' });
		expect(sync.status, sync.stderr).toBe(0);
		const check = spawnSync(process.execPath, [bin('svelte-check/bin/svelte-check'), '--tsconfig', './tsconfig.json', '--output', 'machine', '--fail-on-warnings'], {
			cwd: dir,
			encoding: 'utf8',
			maxBuffer: 64 * 1024 * 1024
		});
		// "1234 ERROR "src/routes/s7/auth.ts" 3:5 "message"": name the sample, not the scratch file.
		// Only the samples' own files: kitauth's sources have their own check (npm run check), and an
		// augmentation a sample shows (a required `Session.role`) is not for them.
		const problems = check.stdout
			.split('\n')
			.filter((line) => / (ERROR|WARNING) "(?!\.\.\/)/.test(line))
			.map((line) => {
				const match = /^\d+ (?:ERROR|WARNING) "([^"]+)" (\d+):\d+ (.*)$/.exec(line);
				const sample = match ? byFile.get(match[1] ?? '') : undefined;
				return sample && match ? `${sample.at} (+${Number(match[2]) - 1} lines): ${match[3]}` : line;
			});
		expect(check.stdout, check.stderr).toMatch(/COMPLETED \d+ FILES/);
		expect(problems).toEqual([]);
	}, 240_000);
});
