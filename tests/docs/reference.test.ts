/**
 * The docs site's reference (docs/site/build-time/reference.ts) covers every public export: each
 * entry point of package.json's `exports`, and in it every name its export statements write
 * (values, types and components; `export *` followed), each with its kind and a signature.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { buildReference, entryPoints } from '../../docs/site/build-time/reference.ts';

const root = join(import.meta.dirname, '../..');
const reference = buildReference(root);
const names = (specifier: string) => reference.find((entry) => entry.specifier === specifier)?.exports.map((e) => e.name) ?? [];

/** Every name a file's export statements write, `export * from` followed into its module. */
function writtenExports(file: string): string[] {
	const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
	const found: string[] = [];
	for (const statement of source.statements) {
		if (ts.isExportDeclaration(statement) && !statement.exportClause && statement.moduleSpecifier && ts.isStringLiteral(statement.moduleSpecifier)) {
			const target = join(dirname(file), statement.moduleSpecifier.text.replace(/\.js$/, '.ts'));
			found.push(...writtenExports(target).filter((name) => name !== 'default'));
		} else if (ts.isExportDeclaration(statement) && statement.exportClause && ts.isNamedExports(statement.exportClause)) {
			found.push(...statement.exportClause.elements.map((element) => element.name.text));
		} else if (ts.canHaveModifiers(statement) && ts.getModifiers(statement)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)) {
			const named = statement as ts.Statement & { name?: ts.Identifier };
			if (ts.isVariableStatement(statement)) {
				for (const declaration of statement.declarationList.declarations) if (ts.isIdentifier(declaration.name)) found.push(declaration.name.text);
			} else if (named.name) {
				found.push(ts.getModifiers(statement)?.some((m) => m.kind === ts.SyntaxKind.DefaultKeyword) ? 'default' : named.name.text);
			}
		}
	}
	return found;
}

describe('the API reference', () => {
	it('has every entry point of package.json', () => {
		expect(reference.map((entry) => entry.specifier)).toEqual(entryPoints(root).map((entry) => entry.specifier));
		expect(reference.map((entry) => entry.specifier)).toEqual(expect.arrayContaining(['kitauth', 'kitauth/core', 'kitauth/components', 'kitauth/providers/github', 'kitauth/limit/redis']));
	});

	it('has every name written in an export statement, types and components included', () => {
		for (const entry of entryPoints(root)) {
			expect(names(entry.specifier), entry.specifier).toEqual(expect.arrayContaining(writtenExports(join(root, entry.source))));
		}
	});

	it('gives each export a kind and a signature', () => {
		const exports = reference.flatMap((entry) => entry.exports.map((item) => ({ ...item, specifier: entry.specifier })));
		expect(exports.length).toBeGreaterThan(300);
		for (const item of exports) expect(item.signature.length, `${item.specifier} ${item.name}`).toBeGreaterThan(0);
		const signIn = reference.find((e) => e.specifier === 'kitauth')?.exports.find((e) => e.name === 'SvelteKitAuth');
		expect(signIn).toMatchObject({ kind: 'function' });
		expect(signIn?.signature).toContain('SvelteKitAuthResult');
		expect(signIn?.doc.length).toBeGreaterThan(0);
		expect(reference.find((e) => e.specifier === 'kitauth/components')?.exports.find((e) => e.name === 'SignIn')).toMatchObject({ kind: 'component' });
	});
});
