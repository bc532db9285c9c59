import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Marked } from 'marked';
import ts from 'typescript';

/** One public export of one entry point, as the reference shows it. */
export interface ExportDoc {
	name: string;
	kind: 'function' | 'class' | 'component' | 'constant' | 'type' | 'interface' | 'enum' | 'namespace';
	signature: string;
	doc: string;
	/** The doc comment rendered (Markdown: code spans, lists, links). */
	docHtml: string;
}

export interface EntryDoc {
	/** The import specifier: `kitauth`, `kitauth/core`, `kitauth/providers/github`, … */
	specifier: string;
	/** The source file, relative to the repository. */
	source: string;
	doc: string;
	docHtml: string;
	exports: ExportDoc[];
}

/**
 * The package's entry points, from package.json's `exports` (the published `dist/` paths mapped
 * back to `src/lib`; `./providers/*` expands to every file there). `./package.json` is no module.
 */
export function entryPoints(root: string): { specifier: string; source: string }[] {
	const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { name: string; exports: Record<string, unknown> };
	const entries: { specifier: string; source: string }[] = [];
	for (const [key, target] of Object.entries(pkg.exports)) {
		if (typeof target !== 'object' || target === null || !('types' in target)) continue;
		const types = String(target.types);
		const toSource = (path: string) => path.replace(/^\.\/dist\//, 'src/lib/').replace(/\.d\.ts$/, '.ts');
		const specifier = key === '.' ? pkg.name : `${pkg.name}/${key.slice(2)}`;
		if (key.includes('*')) {
			const dir = toSource(types).slice(0, toSource(types).lastIndexOf('/'));
			for (const file of readdirSync(join(root, dir)).filter((f) => f.endsWith('.ts')).sort()) {
				entries.push({ specifier: specifier.replace('*', file.slice(0, -3)), source: `${dir}/${file}` });
			}
		} else {
			entries.push({ specifier, source: toSource(types) });
		}
	}
	for (const entry of entries) if (!existsSync(join(root, entry.source))) throw new Error(`reference: ${entry.specifier} has no source at ${entry.source}`);
	return entries;
}

/** Reads every entry point with the TypeScript compiler and describes each of its exports. */
export function buildReference(root: string): EntryDoc[] {
	const entries = entryPoints(root);
	const options: ts.CompilerOptions = {
		target: ts.ScriptTarget.ES2022,
		module: ts.ModuleKind.ESNext,
		moduleResolution: ts.ModuleResolutionKind.Bundler,
		allowImportingTsExtensions: true,
		noEmit: true,
		strict: true,
		skipLibCheck: true,
		types: ['node']
	};
	const program = ts.createProgram(entries.map((e) => join(root, e.source)), options);
	const checker = program.getTypeChecker();
	return entries.map(({ specifier, source }) => {
		const file = program.getSourceFile(join(root, source));
		const moduleSymbol = file && checker.getSymbolAtLocation(file);
		if (!file || !moduleSymbol) throw new Error(`reference: ${source} did not load`);
		const exports = checker
			.getExportsOfModule(moduleSymbol)
			.map((symbol) => describe(checker, symbol, specifier))
			.sort((a, b) => a.name.localeCompare(b.name));
		const doc = fileDoc(file);
		return { specifier, source, doc, docHtml: markdown(doc), exports };
	});
}

/** The file's leading `/** … *\/` comment: what the entry point is for. */
function fileDoc(file: ts.SourceFile): string {
	const match = /^\s*\/\*\*([\s\S]*?)\*\//.exec(file.text);
	return match ? cleanComment(match[1] ?? '') : '';
}

function cleanComment(body: string): string {
	return body
		.split('\n')
		.map((line) => line.replace(/^\s*\* ?/, ''))
		.join('\n')
		.trim();
}

function markdown(text: string): string {
	return text ? (new Marked({ gfm: true }).parse(text, { async: false }) as string) : '';
}

function describe(checker: ts.TypeChecker, exported: ts.Symbol, entry: string): ExportDoc {
	const described = describeKind(checker, exported, entry);
	return { ...described, docHtml: markdown(described.doc) };
}

function describeKind(checker: ts.TypeChecker, exported: ts.Symbol, entry: string): Omit<ExportDoc, 'docHtml'> {
	const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
	const declaration = symbol.declarations?.[0];
	const name = exported.name;
	// A .svelte file is compiled by Svelte, not TypeScript: what is re-exported from one is a
	// component (its props are documented in the Components guide).
	const specifier = exported.declarations?.[0];
	const from = specifier && ts.isExportSpecifier(specifier) ? specifier.parent.parent.moduleSpecifier : undefined;
	const fromSvelte = !!from && ts.isStringLiteral(from) && from.text.endsWith('.svelte');
	// The doc comment of the export itself (e.g. on `export { default as X }`) wins over the target's.
	const doc = [exported, symbol]
		.map((s) => ts.displayPartsToString(s.getDocumentationComment(checker)))
		.find((text) => text.length > 0) ?? '';
	const flags = symbol.flags;
	const printer = (type: ts.Type) => checker.typeToString(type, undefined, ts.TypeFormatFlags.NoTruncation | ts.TypeFormatFlags.UseSingleQuotesForStringLiteralType);
	if (fromSvelte) return { name, kind: 'component', signature: `import { ${name} } from '${entry}';\n\n<${name} … />`, doc };
	if (flags & ts.SymbolFlags.Class) return { name, kind: 'class', signature: declarationHead(declaration), doc };
	if (flags & ts.SymbolFlags.Function) {
		const type = checker.getTypeOfSymbol(symbol);
		const signatures = type.getCallSignatures().map((s) => `${name}${checker.signatureToString(s, undefined, ts.TypeFormatFlags.NoTruncation)}`);
		return { name, kind: 'function', signature: signatures.join('\n'), doc };
	}
	if (flags & ts.SymbolFlags.Interface) return { name, kind: 'interface', signature: declarationHead(declaration), doc };
	if (flags & ts.SymbolFlags.TypeAlias) return { name, kind: 'type', signature: declarationText(declaration), doc };
	if (flags & ts.SymbolFlags.Enum) return { name, kind: 'enum', signature: declarationText(declaration), doc };
	if (flags & ts.SymbolFlags.Variable) {
		const type = checker.getTypeOfSymbol(symbol);
		const calls = type.getCallSignatures();
		if (calls.length > 0 && type.getProperties().length === 0) {
			return { name, kind: 'function', signature: calls.map((s) => `${name}${checker.signatureToString(s, undefined, ts.TypeFormatFlags.NoTruncation)}`).join('\n'), doc };
		}
		return { name, kind: 'constant', signature: `const ${name}: ${printer(type)}`, doc };
	}
	return { name, kind: 'namespace', signature: `namespace ${name}`, doc };
}

/** A declaration's text, cut to a readable length (long types point at their source). */
function declarationText(declaration: ts.Declaration | undefined, limit = 1200): string {
	if (!declaration) return '';
	const text = declaration.getText().replace(/^export\s+(declare\s+)?/, '');
	return text.length > limit ? `${text.slice(0, limit)}\n// … (${declaration.getSourceFile().fileName.replace(/^.*\/src\/lib\//, 'src/lib/')})` : text;
}

/** A class's or interface's declaration, members included (without their bodies). */
function declarationHead(declaration: ts.Declaration | undefined): string {
	if (!declaration) return '';
	if (ts.isClassDeclaration(declaration)) {
		const members = declaration.members
			.filter((m) => !(ts.getCombinedModifierFlags(m) & (ts.ModifierFlags.Private | ts.ModifierFlags.Protected)) && !(m.name && ts.isPrivateIdentifier(m.name)))
			.map((m) => `\t${m.getText().replace(/\s*\{[\s\S]*\}\s*$/, '').replace(/\s+/g, ' ').replace(/;$/, '')};`);
		const head = declaration.getText().slice(0, declaration.members.pos - declaration.getStart()).replace(/^export\s+(default\s+)?/, '').trim();
		return `${head}\n${members.join('\n')}\n}`;
	}
	return declarationText(declaration);
}
