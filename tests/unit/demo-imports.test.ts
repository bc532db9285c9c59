/**
 * The demo (src/routes, src/demo, src/hooks.server.ts) uses kitauth as an app would: through the
 * package's public entries only. It imports them as `#lib…` (package.json "imports"), so each such
 * import must be one of the entries package.json "exports", and nothing reaches into src/lib by a
 * relative path.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const DEMO = ['src/routes', 'src/demo', 'src/hooks.server.ts'].map((path) => join(ROOT, path));

function files(path: string): string[] {
	if (!statSync(path).isDirectory()) return /\.(ts|js|svelte)$/.test(path) ? [path] : [];
	return readdirSync(path).flatMap((name) => files(join(path, name)));
}

/** `#lib…` specifiers of the public entries: `./dist/x.js` is `#lib/x.js` (`#lib` for the main one). */
function publicSpecifiers(): RegExp[] {
	const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { exports: Record<string, unknown> };
	const patterns = [/^#lib$/];
	for (const [subpath, target] of Object.entries(pkg.exports)) {
		if (subpath === './package.json') continue;
		const dist = typeof target === 'string' ? target : (target as Record<string, string>).default ?? (target as Record<string, string>).svelte!;
		const specifier = dist.replace(/^\.\/dist\//, '#lib/').replace(/[.]/g, '\\.').replace('*', '[\\w-]+');
		patterns.push(new RegExp(`^${specifier}$`));
	}
	return patterns;
}

it('the demo imports kitauth only through its public entries', () => {
	const allowed = publicSpecifiers();
	const found: string[] = [];
	for (const file of DEMO.flatMap(files)) {
		for (const [, specifier] of readFileSync(file, 'utf8').matchAll(/(?:from|import)\s*\(?\s*'([^']+)'/g)) {
			const internal = specifier!.startsWith('#lib') || specifier!.startsWith('$lib') || /(^|\/)lib\//.test(specifier!);
			if (internal && !allowed.some((pattern) => pattern.test(specifier!))) found.push(`${relative(ROOT, file)}: ${specifier}`);
		}
	}
	expect(found).toEqual([]);
});
