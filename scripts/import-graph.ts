/**
 * The import graph of `src/lib`, and the two rules DESIGN.md sets on it:
 * - no import cycles, type-only imports included (a type-only knot still ties files together: one
 *   cannot move or be read without the others);
 * - layers: `core/` imports nothing from the SvelteKit edge, remote functions or the browser
 *   client (nor `shared/app-base.ts`, which those two share and which reads `$app/paths`);
 *   `components/` and `client/` import nothing from `core/` (what they share lives in `shared/`);
 *   the session layer imports no flows.
 *
 *     npx node scripts/import-graph.ts          # prints what breaks a rule; exit 1 if anything does
 *
 * `tests/unit/import-graph.test.ts` runs the same check, so CI fails on a new cycle.
 *
 * Imports are read with TypeScript's own pre-processor (`ts.preProcessFile`), which sees `import`,
 * `import type`, `export … from` and dynamic `import()` without type-checking anything; `.svelte`
 * files contribute the imports of their `<script>` blocks.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const SOURCE = /\.(ts|svelte)$/;

/** Every source file under `root` (relative paths, `/`-separated) with the source files it imports. */
export type ImportGraph = Map<string, string[]>;

export function readImportGraph(root: string, aliases: Record<string, string> = {}): ImportGraph {
	const graph: ImportGraph = new Map();
	for (const file of sourceFiles(root)) {
		const text = readFileSync(join(root, file), 'utf8');
		const specifiers = importSpecifiers(file.endsWith('.svelte') ? scriptBlocks(text) : text);
		const targets = new Set<string>();
		for (const specifier of specifiers) {
			const target = resolveImport(root, file, specifier, aliases);
			if (target !== undefined && target !== file) targets.add(target);
		}
		graph.set(file, [...targets].sort());
	}
	return graph;
}

function sourceFiles(root: string, dir = ''): string[] {
	const files: string[] = [];
	for (const name of readdirSync(join(root, dir)).sort()) {
		const path = dir ? `${dir}/${name}` : name;
		if (statSync(join(root, path)).isDirectory()) files.push(...sourceFiles(root, path));
		else if (SOURCE.test(name) && !/\.(test|spec)\.ts$/.test(name) && !name.endsWith('.d.ts')) files.push(path);
	}
	return files;
}

function scriptBlocks(svelte: string): string {
	return [...svelte.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/g)].map((match) => match[1]).join('\n');
}

function importSpecifiers(code: string): string[] {
	const info = ts.preProcessFile(code, true, true);
	return info.importedFiles.map((file) => file.fileName);
}

/**
 * A relative or aliased specifier → the source file it names (`.js` written for `.ts`, as
 * svelte-package wants); `undefined` for packages and for anything outside `root`.
 */
function resolveImport(root: string, from: string, specifier: string, aliases: Record<string, string>): string | undefined {
	let absolute: string;
	if (specifier.startsWith('.')) absolute = resolve(root, dirname(from), specifier);
	else if (Object.hasOwn(aliases, specifier)) absolute = resolve(root, aliases[specifier]!);
	else return undefined;
	const candidates = [absolute, absolute.replace(/\.js$/, '.ts'), `${absolute}.ts`, join(absolute, 'index.ts')];
	const found = candidates.find((candidate) => SOURCE.test(candidate) && existsSync(candidate) && statSync(candidate).isFile());
	if (!found) return undefined;
	const path = relative(root, found).split(sep).join('/');
	return path.startsWith('..') ? undefined : path;
}

/**
 * The cycles of the graph: its strongly connected components of more than one file (Tarjan's
 * algorithm, iterative so a deep graph cannot overflow the stack), each sorted, largest first.
 */
export function findCycles(graph: ImportGraph): string[][] {
	const index = new Map<string, number>();
	const low = new Map<string, number>();
	const onStack = new Set<string>();
	const stack: string[] = [];
	const components: string[][] = [];
	let counter = 0;
	for (const start of graph.keys()) {
		if (index.has(start)) continue;
		const work: { node: string; next: number }[] = [{ node: start, next: 0 }];
		index.set(start, counter);
		low.set(start, counter++);
		stack.push(start);
		onStack.add(start);
		while (work.length) {
			const frame = work[work.length - 1]!;
			const edges = graph.get(frame.node) ?? [];
			if (frame.next < edges.length) {
				const target = edges[frame.next++]!;
				if (!index.has(target)) {
					index.set(target, counter);
					low.set(target, counter++);
					stack.push(target);
					onStack.add(target);
					work.push({ node: target, next: 0 });
				} else if (onStack.has(target)) {
					low.set(frame.node, Math.min(low.get(frame.node)!, index.get(target)!));
				}
				continue;
			}
			work.pop();
			const parent = work[work.length - 1];
			if (parent) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(frame.node)!));
			if (low.get(frame.node) === index.get(frame.node)) {
				const component: string[] = [];
				let member: string;
				do {
					member = stack.pop()!;
					onStack.delete(member);
					component.push(member);
				} while (member !== frame.node);
				if (component.length > 1) components.push(component.sort());
			}
		}
	}
	return components.sort((a, b) => b.length - a.length || a[0]!.localeCompare(b[0]!));
}

/**
 * A layer rule: files under `from` (but not under `exceptFrom`) import nothing under any of `not`
 * (unless under `except`).
 */
export interface LayerRule {
	from: string;
	exceptFrom?: string[];
	not: string[];
	except?: string[];
	why: string;
}

export const LAYER_RULES: readonly LayerRule[] = [
	{
		from: 'core/',
		not: ['sveltekit/', 'remote/', 'client/', 'shared/app-base.ts'],
		why: 'the core is framework-free (shared/app-base.ts reads SvelteKit\'s $app/paths); the integrations are thin adapters over it'
	},
	{
		from: 'core/',
		exceptFrom: ['core/pages/'],
		not: ['components/'],
		why: 'only the built-in pages render the component kit (with svelte/server)'
	},
	{ from: 'components/', not: ['core/', 'sveltekit/'], why: 'what components share with the core lives in shared/' },
	{ from: 'client/', not: ['core/', 'sveltekit/', 'components/'], why: 'the browser client ships to browsers; what it shares lives in shared/' },
	{ from: 'shared/', not: ['core/', 'sveltekit/', 'client/', 'components/', 'remote/'], why: 'shared/ is imported by all of them' },
	{
		from: 'i18n/',
		not: ['core/', 'sveltekit/', 'client/', 'components/', 'remote/', 'shared/', 'adapters/', 'providers/', 'limit/', 'cli/'],
		why: 'the catalogues are used by the core, the components and the browser alike: they import nothing of theirs'
	},
	{ from: 'core/session/', not: ['core/flows/'], why: 'the session layer is below the sign-in flows' },
	{
		from: '',
		exceptFrom: ['remote/'],
		not: ['remote/'],
		why: 'kitauth/remote needs a SvelteKit flag: nothing else may load it, or apps without the flag break'
	},
	{
		from: 'remote/',
		not: ['core/', 'client/', 'components/'],
		except: ['core/index.ts'],
		why: 'remote functions are a thin adapter over the server API (core/index.ts)'
	},
	{ from: 'adapters/', not: ['core/', 'sveltekit/'], except: ['core/types/', 'core/crypto/'], why: 'adapters depend only on the Adapter types' },
	{ from: '', exceptFrom: ['cli/'], not: ['cli/'], why: 'the CLI (npx kitauth) is a tool on top of the library: nothing in it imports the CLI' }
];

/** `importer → imported (why)` for every import that breaks a layer rule. */
export function layerViolations(graph: ImportGraph, rules: readonly LayerRule[] = LAYER_RULES): string[] {
	const found: string[] = [];
	for (const [file, targets] of graph) {
		for (const rule of rules) {
			if (!file.startsWith(rule.from) || rule.exceptFrom?.some((prefix) => file.startsWith(prefix))) continue;
			for (const target of targets) {
				const banned = rule.not.some((prefix) => target.startsWith(prefix));
				const excepted = rule.except?.some((prefix) => target.startsWith(prefix)) ?? false;
				if (banned && !excepted) found.push(`${file} → ${target} (${rule.why})`);
			}
		}
	}
	return found;
}

/** The package's own `#…` imports that point into `src/lib` (package.json "imports"). */
export const LIB_ALIASES: Readonly<Record<string, string>> = { '#kitauth/crypto': 'core/crypto/auto.ts' };

export const LIB_ROOT = fileURLToPath(new URL('../src/lib', import.meta.url));

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
	const graph = readImportGraph(LIB_ROOT, { ...LIB_ALIASES });
	const cycles = findCycles(graph);
	const violations = layerViolations(graph);
	for (const cycle of cycles) console.log(`cycle (${cycle.length} files): ${cycle.join(', ')}`);
	for (const violation of violations) console.log(`layer: ${violation}`);
	console.log(`${graph.size} files, ${cycles.length} cycles, ${violations.length} layer violations`);
	process.exitCode = cycles.length || violations.length ? 1 : 0;
}
