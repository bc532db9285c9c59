/**
 * `kitauth/errors` and `kitauth/types` export every name `@auth/core/errors` and `@auth/core/types`
 * do, so moving from Auth.js is a search-and-replace of the import; the absences are deliberate and
 * listed here. (Read with the TypeScript compiler: most of these names are types.)
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const file = (path: string) => fileURLToPath(new URL(`../../${path}`, import.meta.url));

const ENTRIES = {
	errors: { authjs: file('node_modules/@auth/core/errors.d.ts'), kitauth: file('src/lib/errors.ts'), absent: [] },
	// A version-string type of Auth.js's internals, of no use to an app.
	types: { authjs: file('node_modules/@auth/core/types.d.ts'), kitauth: file('src/lib/types.ts'), absent: ['SemverString'] }
} as const;

const program = ts.createProgram(
	Object.values(ENTRIES).flatMap((entry) => [entry.authjs, entry.kitauth]),
	{ module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, strict: true, skipLibCheck: true, noEmit: true }
);
const checker = program.getTypeChecker();

function exportsOf(path: string): string[] {
	const module = checker.getSymbolAtLocation(program.getSourceFile(path)!)!;
	return checker.getExportsOfModule(module).map((symbol) => symbol.name).sort();
}

describe.each(Object.entries(ENTRIES))('kitauth/%s', (name, entry) => {
	it(`has every name of @auth/core/${name} but the deliberate absences`, () => {
		const ours = new Set(exportsOf(entry.kitauth));
		const theirs = exportsOf(entry.authjs);
		expect(theirs.length).toBeGreaterThan(15);
		expect(theirs.filter((n) => !ours.has(n))).toEqual([...entry.absent]);
	});

	it('is a published entry of the package', () => {
		const pkg = JSON.parse(readFileSync(file('package.json'), 'utf8')) as { exports: Record<string, Record<string, string>> };
		expect(pkg.exports[`./${name}`]).toEqual({ types: `./dist/${name}.d.ts`, default: `./dist/${name}.js` });
	});
});

it('kitauth/types compiles, its names type-check as Auth.js code uses them', () => {
	const diagnostics = ts.getPreEmitDiagnostics(program, program.getSourceFile(ENTRIES.types.kitauth));
	expect(diagnostics.map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'))).toEqual([]);
});
