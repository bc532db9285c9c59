import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { findCycles, layerViolations, LIB_ALIASES, LIB_ROOT, readImportGraph } from '../../scripts/import-graph.ts';

const roots: string[] = [];
afterEach(() => {
	for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

function tree(files: Record<string, string>): string {
	const root = mkdtempSync(join(tmpdir(), 'kitauth-graph-'));
	roots.push(root);
	for (const [path, text] of Object.entries(files)) {
		mkdirSync(dirname(join(root, path)), { recursive: true });
		writeFileSync(join(root, path), text);
	}
	return root;
}

describe('the import graph', () => {
	it('sees value, type-only, re-export and dynamic imports, .js written for .ts, and Svelte scripts', () => {
		const root = tree({
			'a.ts': "import { b } from './b.js';\nimport type { C } from './c.js';\nexport * from './d.js';\nconst e = () => import('./e.js');",
			'b.ts': 'export const b = 1;',
			'c.ts': 'export type C = 1;',
			'd.ts': 'export const d = 1;',
			'e.ts': 'export const e = 1;',
			'f.svelte': "<script lang=\"ts\">\n\timport { b } from './b.js';\n\timport type { C } from './c.js';\n</script>\n<p>{b}</p>",
			'g/index.ts': "import pkg from 'some-package';\nimport { b } from '../b.js';",
			'h.ts': "import { g } from './g';"
		});
		const graph = readImportGraph(root);
		expect(graph.get('a.ts')).toEqual(['b.ts', 'c.ts', 'd.ts', 'e.ts']);
		expect(graph.get('f.svelte')).toEqual(['b.ts', 'c.ts']);
		expect(graph.get('g/index.ts')).toEqual(['b.ts']);
		expect(graph.get('h.ts')).toEqual(['g/index.ts']);
	});

	it('finds every cycle, type-only ones included, and nothing in a tree without one', () => {
		const cyclic = tree({
			'a.ts': "import type { B } from './b.js'; export type A = B;",
			'b.ts': "import type { A } from './a.js'; export type B = 1;",
			'c.ts': "import './d.js';",
			'd.ts': "import './e.js';",
			'e.ts': "import './c.js';",
			'f.ts': "import './a.js';"
		});
		expect(findCycles(readImportGraph(cyclic))).toEqual([
			['c.ts', 'd.ts', 'e.ts'],
			['a.ts', 'b.ts']
		]);
		const acyclic = tree({ 'a.ts': "import './b.js';", 'b.ts': "import './c.js';", 'c.ts': '' });
		expect(findCycles(readImportGraph(acyclic))).toEqual([]);
	});

	it('walks a long chain without overflowing the stack', () => {
		const graph = new Map<string, string[]>();
		for (let i = 0; i < 50_000; i++) graph.set(`m${i}.ts`, [`m${i + 1}.ts`]);
		graph.set('m50000.ts', ['m0.ts']);
		expect(findCycles(graph)[0]).toHaveLength(50_001);
	});

	it('names each import that crosses a layer, with the rule that forbids it', () => {
		const root = tree({
			'core/a.ts': "import '../sveltekit/b.js';",
			'core/pages/p.ts': "import '../../components/C.svelte';",
			'core/x.ts': "import '../components/C.svelte';",
			'core/y.ts': "import '../shared/app-base.js'; import '../shared/theme.js';",
			'shared/app-base.ts': '',
			'shared/theme.ts': '',
			'sveltekit/b.ts': '',
			'components/C.svelte': "<script>import '../core/types/t.js';</script>",
			'core/types/t.ts': '',
			'adapters/q.ts': "import '../core/types/t.js'; import '../core/a.js';"
		});
		const found = layerViolations(readImportGraph(root));
		expect(found.map((line) => line.split(' (')[0])).toEqual([
			'adapters/q.ts → core/a.ts',
			'components/C.svelte → core/types/t.ts',
			'core/a.ts → sveltekit/b.ts',
			'core/x.ts → components/C.svelte',
			'core/y.ts → shared/app-base.ts'
		]);
	});
});

describe('src/lib', () => {
	// The check in CI: a new import cycle (type-only included) or layer crossing fails `npm test`.
	// `npx node scripts/import-graph.ts` prints the same findings.
	const graph = readImportGraph(LIB_ROOT, LIB_ALIASES);

	it('has no import cycles', () => {
		expect(findCycles(graph)).toEqual([]);
	});

	it('crosses no layer', () => {
		expect(layerViolations(graph)).toEqual([]);
	});
});
