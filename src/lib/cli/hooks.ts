/**
 * Puts kitauth's `handle` into an app's `src/hooks.server.ts`, merged with the app's own through
 * SvelteKit's `sequence` (kitauth's first, so the app's hooks can read `locals.auth()`). The file
 * is parsed (Svelte's parser, which every SvelteKit app has, reads TypeScript) rather than matched
 * with patterns; whatever it cannot merge safely it leaves alone, saying what to add.
 */
import { parse } from 'svelte/compiler';

export type HooksEdit =
	| { kind: 'create'; text: string }
	| { kind: 'merged'; text: string; how: string }
	| { kind: 'present' }
	| { kind: 'manual'; reason: string };

interface Node {
	type: string;
	start: number;
	end: number;
	[key: string]: unknown;
}

const SEQUENCE_MODULE = '@sveltejs/kit/hooks';
const AUTH_NAME = 'authHandle';
const APP_NAME = 'appHandle';

/** What to add by hand, when the CLI leaves the file alone. */
export function hooksInstructions(authModule: string): string {
	return [
		`import { sequence } from '${SEQUENCE_MODULE}';`,
		`import { handle as ${AUTH_NAME} } from '${authModule}';`,
		`export const handle = sequence(${AUTH_NAME} /*, your other hooks */);`
	].join('\n');
}

/** The new text of the hooks file (`undefined`: there is none yet) with kitauth's handle in it. */
export function mergeHooks(source: string | undefined, authModule: string): HooksEdit {
	const authImport = `import { handle as ${AUTH_NAME} } from '${authModule}';`;
	if (source === undefined || source.trim() === '') {
		return { kind: 'create', text: `import { sequence } from '${SEQUENCE_MODULE}';\n${authImport}\n\nexport const handle = sequence(${AUTH_NAME});\n` };
	}
	let program: { body: Node[] };
	try {
		program = parseModule(source);
	} catch (error) {
		return { kind: 'manual', reason: `it could not be parsed (${(error as Error).message.split('\n')[0]})` };
	}
	const body = program.body;
	const imports = body.filter((node) => node.type === 'ImportDeclaration');
	const fromAuth = imports.filter((node) => isAuthModule(sourceOf(node), authModule));
	if (fromAuth.some((node) => specifiers(node).some((s) => importedName(s) === 'handle')) || /\bSvelteKitAuth\s*\(/.test(source)) {
		return { kind: 'present' };
	}
	if (body.some((node) => node.type === 'ExportAllDeclaration')) return { kind: 'manual', reason: 'it re-exports another module (export *), which may export a handle' };

	const declared = topLevelNames(body);
	if (declared.has(AUTH_NAME)) return { kind: 'manual', reason: `it already declares ${AUTH_NAME}` };
	const sequenceImport = imports.flatMap((node) => (sourceOf(node) === SEQUENCE_MODULE && node['importKind'] !== 'type' ? specifiers(node) : [])).find((s) => importedName(s) === 'sequence');
	const sequenceName = sequenceImport ? localName(sequenceImport) : 'sequence';
	if (!sequenceImport && declared.has('sequence')) return { kind: 'manual', reason: 'it declares a `sequence` of its own' };

	const handles = body.filter((node) => node.type === 'ExportNamedDeclaration' && exportsHandle(node));
	if (handles.length > 1) return { kind: 'manual', reason: 'it exports `handle` more than once' };
	const handle = handles[0];
	const added = [sequenceImport ? undefined : `import { sequence } from '${SEQUENCE_MODULE}';`, authImport].filter(Boolean).join('\n');
	const withImports = (edits: Edit[]) => applyEdits(source, [{ at: importsEnd(imports), text: imports.length ? `\n${added}` : `${added}\n\n` }, ...edits]);

	if (!handle) {
		const text = withImports([{ at: source.length, text: `${source.endsWith('\n') ? '' : '\n'}\nexport const handle = ${sequenceName}(${AUTH_NAME});\n` }]);
		return { kind: 'merged', text, how: 'added `handle`, with kitauth’s hook' };
	}
	const declaration = handle['declaration'] as Node | null;
	if (!declaration) return { kind: 'manual', reason: 'it exports `handle` from an export list' };

	if (declaration.type === 'VariableDeclaration') {
		const declarators = declaration['declarations'] as Node[];
		if (declarators.length !== 1 || declaration['kind'] !== 'const') return { kind: 'manual', reason: '`handle` is not declared alone with const' };
		const init = declarators[0]!['init'] as Node | null;
		const callee = init?.type === 'CallExpression' ? (init['callee'] as Node) : undefined;
		if (init && callee?.type === 'Identifier' && callee['name'] === sequenceName && sequenceImport) {
			const args = init['arguments'] as Node[];
			const at = args[0]?.start ?? init.end - 1;
			return { kind: 'merged', text: withImports([{ at, text: args.length ? `${AUTH_NAME}, ` : AUTH_NAME }]), how: 'kitauth’s hook runs first in your `sequence`' };
		}
	} else if (declaration.type !== 'FunctionDeclaration') {
		return { kind: 'manual', reason: '`handle` is not a const or a function' };
	}
	// Any other handle: renamed (no longer exported) and sequenced after kitauth's.
	if (declared.has(APP_NAME)) return { kind: 'manual', reason: `it already declares ${APP_NAME}` };
	const id = declaration.type === 'FunctionDeclaration' ? (declaration['id'] as Node) : ((declaration['declarations'] as Node[])[0]!['id'] as Node);
	if (id.type !== 'Identifier') return { kind: 'manual', reason: '`handle` is declared by destructuring' };
	if (otherReferences(program, id.start, 'handle')) return { kind: 'manual', reason: 'it refers to `handle` elsewhere' };
	const text = withImports([
		{ at: handle.start, text: '', remove: declaration.start - handle.start },
		{ at: id.start, text: APP_NAME, remove: 'handle'.length },
		{ at: source.length, text: `${source.endsWith('\n') ? '' : '\n'}\nexport const handle = ${sequenceName}(${AUTH_NAME}, ${APP_NAME});\n` }
	]);
	return { kind: 'merged', text, how: `your handle is now \`${APP_NAME}\`, run after kitauth’s by \`sequence\`` };
}

/** The module's statements, positions relative to `source`. */
function parseModule(source: string): { body: Node[] } {
	if (/<\/script/i.test(source)) throw new Error('it contains </script>');
	const open = '<script lang="ts">';
	const root = parse(`${open}${source}</script>`, { modern: true }) as unknown as { instance: { content: { body: Node[] } } | null };
	const body = root.instance?.content.body ?? [];
	shift(body, -open.length);
	return { body };
}

/** Moves every node's positions by `by` (the wrapper's length), once. */
function shift(value: unknown, by: number, seen = new Set<object>()): void {
	if (!value || typeof value !== 'object' || seen.has(value)) return;
	seen.add(value);
	if (Array.isArray(value)) return value.forEach((item) => shift(item, by, seen));
	const node = value as Partial<Node>;
	if (typeof node.start === 'number' && typeof node.end === 'number' && typeof node.type === 'string') {
		node.start += by;
		node.end += by;
	}
	for (const [key, child] of Object.entries(node)) if (key !== 'loc' && key !== 'leadingComments' && key !== 'trailingComments') shift(child, by, seen);
}

function sourceOf(node: Node): string {
	return String((node['source'] as { value?: unknown } | undefined)?.value ?? '');
}

function specifiers(node: Node): Node[] {
	return (node['specifiers'] as Node[] | undefined) ?? [];
}

function importedName(specifier: Node): string | undefined {
	const imported = specifier['imported'] as { name?: string; value?: string } | undefined;
	return imported?.name ?? imported?.value;
}

function localName(specifier: Node): string {
	return String((specifier['local'] as { name: string }).name);
}

/** `./auth`, `./auth.js`, `./auth.ts`: the module init writes, however the app spells it. */
function isAuthModule(path: string, authModule: string): boolean {
	return path.replace(/\.(js|ts)$/, '') === authModule;
}

function exportsHandle(node: Node): boolean {
	const declaration = node['declaration'] as Node | null;
	if (declaration?.type === 'VariableDeclaration') return (declaration['declarations'] as Node[]).some((d) => (d['id'] as { name?: string }).name === 'handle');
	if (declaration) return (declaration['id'] as { name?: string } | null)?.name === 'handle';
	return specifiers(node).some((s) => {
		const exported = s['exported'] as { name?: string; value?: string };
		return (exported.name ?? exported.value) === 'handle';
	});
}

/** Names the module declares at its top level (imports, variables, functions, classes). */
function topLevelNames(body: Node[]): Set<string> {
	const names = new Set<string>();
	for (const statement of body) {
		const node = statement.type === 'ExportNamedDeclaration' && statement['declaration'] ? (statement['declaration'] as Node) : statement;
		if (node.type === 'ImportDeclaration') for (const s of specifiers(node)) names.add(localName(s));
		if (node.type === 'VariableDeclaration') for (const d of node['declarations'] as Node[]) collectBindings(d['id'] as Node, names);
		const id = node['id'] as { name?: string } | null | undefined;
		if (/Declaration$/.test(node.type) && id?.name) names.add(id.name);
	}
	return names;
}

function collectBindings(pattern: Node, names: Set<string>): void {
	const parts: (Node | null)[] =
		pattern.type === 'Identifier'
			? []
			: pattern.type === 'ObjectPattern'
				? (pattern['properties'] as Node[]).map((p) => (p['value'] ?? p['argument']) as Node)
				: pattern.type === 'ArrayPattern'
					? (pattern['elements'] as (Node | null)[])
					: [(pattern['argument'] ?? pattern['left'] ?? null) as Node | null];
	if (pattern.type === 'Identifier') names.add(String(pattern['name']));
	for (const part of parts) if (part) collectBindings(part, names);
}

/** Keys under which an identifier is a name, not a reference (`a.handle`, `{ handle: 1 }`). */
function isNameOnly(parent: Node, key: string): boolean {
	if (parent['computed']) return false;
	if (parent.type === 'MemberExpression' && key === 'property') return true;
	if (/^(Property|MethodDefinition|PropertyDefinition|TSPropertySignature|TSMethodSignature)$/.test(parent.type) && key === 'key') return !parent['shorthand'];
	return false;
}

/** Whether the module mentions `name` anywhere but at `declaredAt`. */
function otherReferences(program: { body: Node[] }, declaredAt: number, name: string): boolean {
	let found = false;
	const visit = (value: unknown, parent: Node | undefined, key: string) => {
		if (found || !value || typeof value !== 'object') return;
		if (Array.isArray(value)) return value.forEach((item) => visit(item, parent, key));
		const node = value as Node;
		if (node.type === 'Identifier' && node['name'] === name && node.start !== declaredAt && !(parent && isNameOnly(parent, key))) found = true;
		for (const [childKey, child] of Object.entries(node)) if (childKey !== 'loc' && typeof child === 'object') visit(child, node, childKey);
	};
	visit(program.body, undefined, 'body');
	return found;
}

/** Where new imports go: after the last import, else at the top. */
function importsEnd(imports: Node[]): number {
	return imports.length ? Math.max(...imports.map((node) => node.end)) : 0;
}

interface Edit {
	at: number;
	text: string;
	remove?: number;
}

/** Applies edits given in positions of the original text. */
function applyEdits(source: string, edits: Edit[]): string {
	let text = source;
	// From the end, so earlier positions still hold; at one position, what is removed goes first.
	for (const edit of [...edits].sort((a, b) => b.at - a.at || (b.remove ?? 0) - (a.remove ?? 0))) text = text.slice(0, edit.at) + edit.text + text.slice(edit.at + (edit.remove ?? 0));
	return text;
}
