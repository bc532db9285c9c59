import { mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { entryPoints } from '../../docs/site/build-time/reference.ts';

/** One code fence of the docs or the README. */
export interface Sample {
	/** Where it is: `docs/content/sessions.md:20` (the fence's line). */
	at: string;
	/** `ts`, `js` or `svelte` (the compiled samples); a configuration's (`jsonc`) from `extractFences`. */
	lang: string;
	/** The fence's info after the language: `fragment` marks a sample that is not meant to compile. */
	info: string;
	code: string;
	/** The file the sample names on its first line (`// src/auth.ts`, `<!-- src/routes/x/+page.svelte -->`). */
	path: string | null;
}

export const root = join(import.meta.dirname, '../..');

/** The Markdown files whose samples are compiled: every guide and the README. */
export function sampleSources(): string[] {
	const guides = readdirSync(join(root, 'docs/content'))
		.filter((name) => name.endsWith('.md'))
		.sort()
		.map((name) => `docs/content/${name}`);
	return [...guides, 'README.md'];
}

// A fence may be indented (inside a list item): its closing fence has the same indent, which its
// lines lose.
const fence = (languages: readonly string[]) => new RegExp(`^([ \\t]*)\`\`\`(${languages.join('|')})(?:[ \\t]+([^\\n]*))?\\n([\\s\\S]*?)^\\1\`\`\`[ \\t]*$`, 'gm');
const NAMED = /^(?:\/\/|<!--)\s*((?:src\/|vite\.config\.)[\w./+\-[\]]+)/;

/** The samples that are compiled: the ```ts, ```js and ```svelte fences. */
export function extractSamples(file: string): Sample[] {
	return extractFences(file, ['ts', 'js', 'svelte']);
}

/** A Markdown file's fences in `languages` (`['jsonc']`: a guide's wrangler.jsonc), as samples. */
export function extractFences(file: string, languages: readonly string[]): Sample[] {
	const text = readFileSync(join(root, file), 'utf8');
	return [...text.matchAll(fence(languages))].map((match) => {
		const indent = match[1] ?? '';
		const code = (match[4] ?? '')
			.split('\n')
			.map((line) => (line.startsWith(indent) ? line.slice(indent.length) : line))
			.join('\n');
		const line = text.slice(0, match.index).split('\n').length;
		return {
			at: `${file}:${line}`,
			lang: match[2] ?? '',
			info: (match[3] ?? '').trim(),
			code,
			path: NAMED.exec(code)?.[1]?.replace(/[.,:]$/, '') ?? null
		};
	});
}

export const isFragment = (sample: Sample) => /\bfragment\b/.test(sample.info);

/**
 * Lays the samples out as one SvelteKit 3 app, each in its own folder `src/routes/s<n>/` at the
 * path it names (relative to src/: `routes/signin/+page.server.ts`, so `./$types`, `../../auth`
 * and SvelteKit's typing of `load` and `actions` work as in an app), else as `sample.<lang>`.
 * Each folder has an `auth.ts` (tests/docs/fixture/auth.ts: the `authConfig` and everything
 * `SvelteKitAuth` returns, which samples import from `./auth`) and a `lib/server/passwords.ts`
 * (the password check), unless a sample of the folder is that file; the app has `#lib/server/db`.
 * `kitauth` and its subpaths resolve to this repository's src/lib. Returns the samples by file.
 */
export function writeSampleApp(dir: string, samples: Sample[]): Map<string, Sample> {
	const byFile = new Map<string, Sample>();
	const fixture = join(root, 'tests/docs/fixture');
	const write = (path: string, text: string) => {
		mkdirSync(dirname(path), { recursive: true });
		writeFileSync(path, text);
	};
	// The files one guide names go into one folder, as in one app (the sign-in page's
	// +page.server.ts beside its +page.svelte); a name taken twice starts another folder.
	const folders: { name: string; guide: string; taken: Set<string> }[] = [];
	samples.forEach((sample, n) => {
		const guide = sample.at.slice(0, sample.at.lastIndexOf(':'));
		const name = sample.path?.startsWith('src/') ? sample.path.slice(4) : (sample.path ?? `sample${n}.${sample.lang}`);
		let folder = sample.path ? folders.find((f) => f.guide === guide && !f.taken.has(name)) : undefined;
		if (!folder) {
			folder = { name: `src/routes/s${folders.length}`, guide, taken: new Set() };
			folders.push(folder);
		}
		folder.taken.add(name);
		byFile.set(`${folder.name}/${name}`, sample);
		write(join(dir, folder.name, name), sample.code);
	});
	// What the samples import from beside them, where no sample of the folder is that file.
	for (const folder of folders) {
		for (const [name, fixtureFile] of [['auth.ts', 'auth.ts'], ['lib/server/passwords.ts', 'passwords.ts']] as const) {
			if (folder.taken.has(name)) continue;
			const from = relative(dirname(join(dir, folder.name, name)), join(dir, 'src/lib/fixture', fixtureFile)).replace(/\.ts$/, '');
			write(join(dir, folder.name, name), `export * from '${from}';\n`);
		}
	}
	for (const name of ['auth.ts', 'passwords.ts']) write(join(dir, 'src/lib/fixture', name), readFileSync(join(fixture, name), 'utf8'));
	write(join(dir, 'src/lib/server/db.ts'), readFileSync(join(fixture, 'db.ts'), 'utf8'));
	write(join(dir, 'src/samples.d.ts'), readFileSync(join(fixture, 'samples.d.ts'), 'utf8'));
	write(join(dir, 'src/app.html'), '<!doctype html><html lang="en"><head>%sveltekit.head%</head><body>%sveltekit.body%</body></html>\n');
	write(
		join(dir, 'package.json'),
		JSON.stringify({ name: 'kitauth-samples', private: true, type: 'module', imports: { '#lib/*': './src/lib/*.ts' } }, null, '\t')
	);
	write(
		join(dir, 'vite.config.ts'),
		`import { sveltekit } from '@sveltejs/kit/vite';\nexport default { plugins: [sveltekit({ compilerOptions: { runes: true }, experimental: { remoteFunctions: true } })] };\n`
	);
	// kitauth's entry points as package.json's exports name them, to the sources.
	const paths: Record<string, string[]> = {};
	for (const entry of entryPoints(root)) paths[entry.specifier] = [join(root, entry.source)];
	write(
		join(dir, 'tsconfig.json'),
		JSON.stringify(
			{ extends: '$app/tsconfig', compilerOptions: { strict: true, noUncheckedIndexedAccess: true, paths, types: ['$app/types', 'node'] }, include: ['src'] },
			null,
			'\t'
		)
	);
	linkPackages(dir);
	return byFile;
}

/** The repository's packages in an app's node_modules, one link each: SvelteKit writes its own node_modules/$app there. */
export function linkPackages(dir: string): void {
	mkdirSync(join(dir, 'node_modules'), { recursive: true });
	for (const name of readdirSync(join(root, 'node_modules'))) {
		if (name === '$app' || name.startsWith('.vite')) continue;
		symlinkSync(join(root, 'node_modules', name), join(dir, 'node_modules', name));
	}
}

/**
 * The files a guide names (`// src/auth.ts` on a sample's first line), at those paths: the last
 * sample of each. The Getting started guide's make an app (tests/package/cli.test.ts builds it)
 * and give the other guides' apps the pages they leave out (tests/docs/guide-app.ts).
 */
export function guideFiles(file: string): { path: string; code: string }[] {
	const files = new Map<string, string>();
	for (const sample of extractSamples(file)) if (sample.path?.startsWith('src/') && !isFragment(sample)) files.set(sample.path, sample.code);
	return [...files].map(([path, code]) => ({ path, code }));
}
