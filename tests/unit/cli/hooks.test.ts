import { describe, expect, test } from 'vitest';
import { mergeHooks } from '../../../src/lib/cli/hooks.js';

const merged = (source: string) => {
	const edit = mergeHooks(source, './auth');
	if (edit.kind !== 'merged') throw new Error(`expected a merge, got ${JSON.stringify(edit)}`);
	return edit.text;
};
const reason = (source: string) => {
	const edit = mergeHooks(source, './auth');
	if (edit.kind !== 'manual') throw new Error(`expected to be left alone, got ${JSON.stringify(edit)}`);
	return edit.reason;
};

describe("kitauth's handle merged into src/hooks.server.ts", () => {
	test('no file: a new one, with kitauth’s handle in a sequence', () => {
		expect(mergeHooks(undefined, './auth')).toEqual({
			kind: 'create',
			text: "import { sequence } from '@sveltejs/kit/hooks';\nimport { handle as authHandle } from './auth';\n\nexport const handle = sequence(authHandle);\n"
		});
	});

	test('export const handle = …: renamed appHandle and run after kitauth’s, its type kept', () => {
		const source = "import type { Handle } from '@sveltejs/kit';\n\nexport const handle: Handle = async ({ event, resolve }) => {\n\treturn resolve(event);\n};\n";
		expect(merged(source)).toBe(
			"import type { Handle } from '@sveltejs/kit';\nimport { sequence } from '@sveltejs/kit/hooks';\nimport { handle as authHandle } from './auth';\n\n" +
				'const appHandle: Handle = async ({ event, resolve }) => {\n\treturn resolve(event);\n};\n\nexport const handle = sequence(authHandle, appHandle);\n'
		);
	});

	test('export async function handle: renamed, its comment kept; no imports before it', () => {
		const source = "/** @type {import('@sveltejs/kit').Handle} */\nexport async function handle({ event, resolve }) {\n\treturn resolve(event);\n}\n";
		expect(merged(source)).toBe(
			"import { sequence } from '@sveltejs/kit/hooks';\nimport { handle as authHandle } from './auth';\n\n" +
				"/** @type {import('@sveltejs/kit').Handle} */\nasync function appHandle({ event, resolve }) {\n\treturn resolve(event);\n}\n\nexport const handle = sequence(authHandle, appHandle);\n"
		);
	});

	test('an existing sequence(...): kitauth’s handle first, the sequence import reused (even renamed)', () => {
		const source = "import { sequence as seq } from '@sveltejs/kit/hooks';\nimport { a, b } from './hooks';\n\nexport const handle = seq(a, b);\n";
		expect(merged(source)).toBe(
			"import { sequence as seq } from '@sveltejs/kit/hooks';\nimport { a, b } from './hooks';\nimport { handle as authHandle } from './auth';\n\nexport const handle = seq(authHandle, a, b);\n"
		);
		expect(merged("import { sequence } from '@sveltejs/kit/hooks';\nexport const handle = sequence();\n")).toContain('export const handle = sequence(authHandle);');
	});

	test('no handle yet (other hooks only): one added, the rest untouched', () => {
		const source = "export const handleError = ({ error }) => ({ message: 'Oops' });";
		expect(merged(source)).toBe(
			"import { sequence } from '@sveltejs/kit/hooks';\nimport { handle as authHandle } from './auth';\n\nexport const handleError = ({ error }) => ({ message: 'Oops' });\n\nexport const handle = sequence(authHandle);\n"
		);
	});

	test('names that only look like handle (a property, a member) do not stop the merge', () => {
		expect(merged('const o = { handle: 1 };\no.handle;\nexport function handle({ event, resolve }) {\n\treturn resolve(event);\n}\n')).toContain('function appHandle(');
	});

	test('already there (imported from ./auth, or SvelteKitAuth in the file): nothing to do', () => {
		expect(mergeHooks("import { sequence } from '@sveltejs/kit/hooks';\nimport { handle as authHandle } from './auth.js';\nexport const handle = sequence(authHandle);\n", './auth')).toEqual({ kind: 'present' });
		expect(mergeHooks("import { SvelteKitAuth } from 'kitauth';\nexport const { handle } = SvelteKitAuth({ providers: [] });\n", './auth')).toEqual({ kind: 'present' });
	});

	test('left alone, with the reason, where a merge would not be safe', () => {
		expect(reason('export const handle = async ({ event, resolve }) => { console.log(handle); return resolve(event); };')).toBe('it refers to `handle` elsewhere');
		expect(reason('const h = async ({ event, resolve }) => resolve(event);\nexport { h as handle };')).toBe('it exports `handle` from an export list');
		expect(reason("export * from './other';")).toContain('export *');
		expect(reason('export let handle = async ({ event, resolve }) => resolve(event);')).toBe('`handle` is not declared alone with const');
		expect(reason('const appHandle = 1;\nexport function handle({ event, resolve }) { return resolve(event); }')).toBe('it already declares appHandle');
		expect(reason('const sequence = 1;\nexport function handle({ event, resolve }) { return resolve(event); }')).toBe('it declares a `sequence` of its own');
		expect(reason('export const handle = (;')).toMatch(/^it could not be parsed/);
		expect(reason("const s = '</script>';\nexport function handle({ event, resolve }) { return resolve(event); }")).toMatch(/^it could not be parsed/);
	});

	test('a merged file merges to itself: the second run finds kitauth there', () => {
		const once = merged('export const handle = async ({ event, resolve }) => resolve(event);\n');
		expect(mergeHooks(once, './auth')).toEqual({ kind: 'present' });
	});
});
