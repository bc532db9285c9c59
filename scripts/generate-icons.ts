/**
 * Writes src/lib/components/icons.ts: the brand icon of every native preset, bundled (no CDN, no
 * runtime dependency). Two CC0 devDependencies are its sources: `simple-icons` (one-colour marks,
 * one path each) where it has the brand, and `@iconify-json/logos` (Gil Barbara's SVG Logos, often
 * multi-colour) for the brands simple-icons removed at their owners' request. A brand in neither
 * has its mark vendored in scripts/icons/ (one path, with its source, licence and attribution),
 * which the module's header repeats. Only our presets' icons go in, to keep the module small. Run
 * after adding a preset, updating either package or changing a vendored mark:
 *
 *     npx node scripts/generate-icons.ts
 *
 * A test fails when a native preset has no icon, or when the module drifts from what this script
 * makes.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkSvgElements, parseSvgBody, serializeSvg } from './svg-body.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const require = createRequire(import.meta.url);
export const iconsModulePath = resolve(root, 'src/lib/components/icons.ts');

/** Preset id → simple-icons slug. */
export const ICON_SLUGS: Readonly<Record<string, string>> = {
	apple: 'apple',
	atlassian: 'atlassian',
	auth0: 'auth0',
	authentik: 'authentik',
	bitbucket: 'bitbucket',
	discord: 'discord',
	dropbox: 'dropbox',
	facebook: 'facebook',
	github: 'github',
	gitlab: 'gitlab',
	google: 'google',
	// Kakao Login's button carries the KakaoTalk speech bubble, not the Kakao wordmark.
	kakao: 'kakaotalk',
	keycloak: 'keycloak',
	line: 'line',
	naver: 'naver',
	notion: 'notion',
	okta: 'okta',
	patreon: 'patreon',
	reddit: 'reddit',
	spotify: 'spotify',
	strava: 'strava',
	tiktok: 'tiktok',
	twitch: 'twitch',
	twitter: 'x',
	vk: 'vk',
	zoom: 'zoom'
};

/** A mark of `@iconify-json/logos`: its name there and the brand's name. */
export interface LogosMark {
	name: string;
	title: string;
	/** Where the set has only a wordmark: keep these top-level elements of it, in this view box. */
	crop?: { keep: number[]; viewBox: string };
}

/**
 * Preset id → its mark in `@iconify-json/logos`, for the brands simple-icons has none of. A mark of
 * one path in one colour becomes a one-colour icon like simple-icons' (drawn in the text colour);
 * any other keeps its own colours.
 */
export const LOGOS_MARKS: Readonly<Record<string, LogosMark>> = {
	// AWS icons were removed from simple-icons at Amazon's request.
	cognito: { name: 'aws-cognito', title: 'Amazon Cognito' },
	// Removed from simple-icons at LinkedIn's request.
	linkedin: { name: 'linkedin-icon', title: 'LinkedIn' },
	// Microsoft icons were removed from simple-icons at Microsoft's request. The four squares are
	// the mark Microsoft's sign-in branding uses for Entra ID (work and school) accounts.
	'microsoft-entra-id': { name: 'microsoft-icon', title: 'Microsoft' },
	// Removed from simple-icons at Salesforce's request. The cloud with the wordmark in it, as
	// Salesforce's logo has it.
	salesforce: { name: 'salesforce', title: 'Salesforce' },
	// Removed from simple-icons at Slack's request.
	slack: { name: 'slack-icon', title: 'Slack' },
	// Never in simple-icons.
	workos: { name: 'workos-icon', title: 'WorkOS' },
	// simple-icons has only Yandex Cloud (another brand). The set has only the wordmark
	// (`yandex-ru`, «Я Яндекс»): its first shape is the red Я, the letter Yandex uses as its mark
	// on its own, kept alone in a box around it.
	yandex: { name: 'yandex-ru', title: 'Yandex', crop: { keep: [0], viewBox: '0 0 86 177' } }
};

/**
 * Preset id → the file in scripts/icons/ of its vendored mark, for the brands neither package has
 * (a test checks they still have none, so that a CC0 mark that comes is used). We draw no logo of
 * our own.
 */
export const VENDORED_MARKS: Readonly<Record<string, string>> = {
	// In neither package, and ZITADEL's own npm packages carry no logo. selfh.st/icons' one-colour
	// `zitadel-dark` (CC BY 4.0), as @iconify/json ships it: one path, copied rather than adding a
	// 104 MB package for it. Upstream it has fill-rule="evenodd"; it draws the same, pixel for
	// pixel, in the default nonzero that a one-colour icon is drawn with. The colour is the first
	// stop of the gradient of the set's colour `zitadel`.
	zitadel: 'zitadel.json'
};

/** Where the vendored marks are. */
const vendoredMarksDir = resolve(root, 'scripts/icons');

/** A vendored mark (scripts/icons/<file>): one path in one colour, and where it comes from. */
export interface VendoredMark {
	title: string;
	/** The brand colour, `#RRGGBB`. */
	color: string;
	viewBox: string;
	/** The `d` of the mark's one path, copied as it is. */
	path: string;
	/** An SPDX id. */
	license: string;
	/** The credit the licence asks for, written into the module's header. */
	attribution: string;
	/** The set it is from, and the package, version, file and icon it was copied from. */
	source: { set: string; url: string; package: string; version: string; file: string; icon: string };
}

/** A vendored mark's file, as read (not yet checked). */
export function readVendoredMark(file: string): unknown {
	return JSON.parse(readFileSync(resolve(vendoredMarksDir, file), 'utf8'));
}

interface SimpleIcon {
	title: string;
	slug: string;
	hex: string;
	path: string;
	svg: string;
}

/** Every icon simple-icons has, by slug. */
export async function simpleIcons(): Promise<Map<string, SimpleIcon>> {
	const all = (await import('simple-icons')) as unknown as Record<string, SimpleIcon>;
	return new Map(Object.values(all).map((icon) => [icon.slug, icon]));
}

interface IconifyIcon {
	body: string;
	left?: number;
	top?: number;
	width?: number;
	height?: number;
	rotate?: number;
	hFlip?: boolean;
	vFlip?: boolean;
}

/** An Iconify JSON icon set (https://iconify.design/docs/types/iconify-json.html), what is read of it. */
export interface IconifySet extends Omit<IconifyIcon, 'body'> {
	icons: Record<string, IconifyIcon>;
}

/** `@iconify-json/logos`' icon set. */
export function logosSet(): IconifySet {
	return require('@iconify-json/logos/icons.json') as IconifySet;
}

/** The version of an installed package, from the package.json beside its entry. */
function versionOf(name: string): string {
	const path = resolve(dirname(require.resolve(name)), 'package.json');
	const pkg = JSON.parse(readFileSync(path, 'utf8')) as { name: string; version: string };
	if (pkg.name !== name) throw new Error(`${path} is not ${name}'s`);
	return pkg.version;
}

function raise(message: string): never {
	throw new Error(message);
}

/** The view box of a simple-icons SVG (24×24 for all of them, read rather than assumed). */
function viewBoxOf(icon: SimpleIcon): string {
	const viewBox = /viewBox="([^"]+)"/.exec(icon.svg)?.[1];
	if (!viewBox) throw new Error(`simple-icons' ${icon.slug} has no view box`);
	return viewBox;
}

const NAMED_COLORS: Readonly<Record<string, string>> = { black: '#000000', white: '#FFFFFF', red: '#FF0000' };

/** A colour as `#RRGGBB`, or `undefined` for a gradient, `none`, or a name not in the short table above. */
function hexColor(value: string): string | undefined {
	if (/^#[\da-f]{6}$/i.test(value)) return value.toUpperCase();
	if (/^#[\da-f]{3}$/i.test(value)) return `#${[...value.slice(1)].map((c) => c + c).join('')}`.toUpperCase();
	return NAMED_COLORS[value.toLowerCase()];
}

/** One icon as the module writes it, its fields in this order. */
export type IconFields = { title: string; color: string; viewBox: string } & ({ path: string } | { body: string });

/**
 * A `@iconify-json/logos` mark as an icon. One path in one colour becomes `path` (drawn in the
 * text colour, like simple-icons' marks); anything else a checked `body`, its ids `<id>-<n>`. The
 * colour is the mark's first.
 */
export function logosIcon(id: string, mark: LogosMark, set: IconifySet = logosSet()): IconFields {
	const what = `@iconify-json/logos' ${mark.name} (for the ${id} preset)`;
	const icon = Object.hasOwn(set.icons, mark.name) ? set.icons[mark.name] : undefined;
	if (!icon) throw new Error(`${what} does not exist`);
	if (icon.rotate || icon.hFlip || icon.vFlip) throw new Error(`${what} is rotated or flipped, which this script does not draw`);
	const parsed = parseSvgBody(icon.body, what);
	const kept = mark.crop ? mark.crop.keep.map((i) => parsed[i] ?? raise(`${what} has no element ${i} to keep`)) : parsed;
	const elements = checkSvgElements(kept, id, what);
	const viewBox =
		mark.crop?.viewBox ??
		[icon.left ?? set.left ?? 0, icon.top ?? set.top ?? 0, icon.width ?? set.width ?? 16, icon.height ?? set.height ?? 16].join(' ');
	const body = serializeSvg(elements);
	const paints = [...body.matchAll(/ (?:fill|stop-color)="([^"]+)"/g)].map(([, value]) => hexColor(value!));
	const color = paints.find((paint) => paint !== undefined) ?? raise(`${what} has no colour this script can name`);
	const [only] = elements;
	if (elements.length === 1 && only!.name === 'path' && only!.attributes.every(([name]) => name === 'd' || name === 'fill')) {
		const [, d] = only!.attributes.find(([name]) => name === 'd') ?? raise(`${what}'s path has no d`);
		return { title: mark.title, color, viewBox, path: d };
	}
	return { title: mark.title, color, viewBox, body };
}

const TEXT = /^[^\0-\x1f<>&"]+$/;
const VIEW_BOX = /^-?[\d.]+ -?[\d.]+ [\d.]+ [\d.]+$/;
const SPDX = /^[\w.+-]+$/;

/** `value[name]` where `value` is an object that has it as its own. */
const own = (value: unknown, name: string): unknown =>
	typeof value === 'object' && value !== null && Object.hasOwn(value, name) ? (value as Record<string, unknown>)[name] : undefined;

/** `value[name]` if it is a string that matches `pattern`; throws otherwise. */
function stringField(value: unknown, name: string, pattern: RegExp, what: string): string {
	const field = own(value, name);
	if (typeof field !== 'string' || !pattern.test(field)) throw new Error(`${what}: ${name} is ${JSON.stringify(field)}, not what this script takes`);
	return field;
}

/**
 * A vendored mark, checked: its fields are plain text of the form they should have, and its path
 * passes the same parse and allow-list as a `@iconify-json/logos` body, as one `<path>` with its
 * `d` alone (path data: no quote, markup or reference gets out of it).
 */
export function vendoredMark(id: string, file: string, data: unknown = readVendoredMark(file)): VendoredMark {
	const what = `scripts/icons/${file} (for the ${id} preset)`;
	const text = (name: string, pattern = TEXT) => stringField(data, name, pattern, what);
	const sourceText = (name: string) => stringField(own(data, 'source'), name, TEXT, `${what}'s source`);
	const path = text('path', /\S/);
	const elements = checkSvgElements(parseSvgBody(`<path d="${path}"/>`, what), id, what);
	const [only] = elements;
	const [name, d] = only?.attributes.length === 1 ? only.attributes[0]! : [];
	if (elements.length !== 1 || only!.name !== 'path' || name !== 'd' || d !== path) throw new Error(`${what}: path is not the d of one path`);
	return {
		title: text('title'),
		color: text('color', /^#[\dA-F]{6}$/),
		viewBox: text('viewBox', VIEW_BOX),
		path,
		license: text('license', SPDX),
		attribution: text('attribution'),
		source: {
			set: sourceText('set'),
			url: sourceText('url'),
			package: sourceText('package'),
			version: sourceText('version'),
			file: sourceText('file'),
			icon: sourceText('icon')
		}
	};
}

/** Every vendored mark, checked, by preset id. */
export function vendoredMarks(): [string, VendoredMark][] {
	return Object.entries(VENDORED_MARKS).map(([id, file]) => [id, vendoredMark(id, file)]);
}

/** Every native preset's icon, by preset id, sorted. */
export async function iconFields(): Promise<[string, IconFields][]> {
	const known = await simpleIcons();
	const fromSimpleIcons = Object.entries(ICON_SLUGS).map(([id, slug]): [string, IconFields] => {
		const icon = known.get(slug) ?? raise(`simple-icons has no "${slug}" (for the ${id} preset)`);
		return [id, { title: icon.title, color: `#${icon.hex}`, viewBox: viewBoxOf(icon), path: icon.path }];
	});
	const set = logosSet();
	const fromLogos = Object.entries(LOGOS_MARKS).map(([id, mark]): [string, IconFields] => [id, logosIcon(id, mark, set)]);
	const vendored = vendoredMarks().map(([id, { title, color, viewBox, path }]): [string, IconFields] => [id, { title, color, viewBox, path }]);
	return [...fromSimpleIcons, ...fromLogos, ...vendored].sort(([a], [b]) => a.localeCompare(b));
}

const list = (ids: string[]) => ids.sort().join(', ');

/** Text as `//` comment lines of at most 100 characters. */
function comment(text: string): string[] {
	const lines: string[] = [];
	for (const word of text.split(' ')) {
		if (lines.length && `${lines.at(-1)} ${word}`.length <= 100) lines[lines.length - 1] += ` ${word}`;
		else lines.push(`// ${word}`);
	}
	return lines;
}

/** The text of the generated module. */
export async function renderIcons(): Promise<string> {
	const entries = (await iconFields()).map(([id, fields]) =>
		[
			`\t${/^[a-z_$][\w$]*$/i.test(id) ? id : JSON.stringify(id)}: {`,
			Object.entries(fields)
				.map(([name, value]) => `\t\t${name}: ${JSON.stringify(value)}`)
				.join(',\n'),
			'\t}'
		].join('\n')
	);
	return [
		...[
			'Generated by scripts/generate-icons.ts. Do not edit: run `npx node scripts/generate-icons.ts`.',
			`From simple-icons ${versionOf('simple-icons')} (CC0-1.0): ${list(Object.keys(ICON_SLUGS))}.`,
			`From @iconify-json/logos ${versionOf('@iconify-json/logos')} (CC0-1.0, Gil Barbara's SVG Logos): ${list(Object.keys(LOGOS_MARKS))}.`,
			...vendoredMarks().flatMap(([id, { source, license, attribution }]) => [
				`Vendored in scripts/icons/ (in neither): ${id}, ${source.icon} of ${source.set} as ${source.package} ${source.version} ships it (${license}).`,
				`${attribution}.`
			]),
			'The marks are trademarks of their owners.'
		].flatMap(comment),
		'',
		"import type { ProviderIcon } from './brand-icon.js';",
		'',
		"export { iconMarkup, type MonochromeIcon, type MulticolorIcon, type ProviderIcon } from './brand-icon.js';",
		'',
		'/** The icons of the native presets, by preset id. */',
		'export const providerIcons: Readonly<Record<string, ProviderIcon>> = Object.freeze({',
		entries.join(',\n'),
		'});',
		'',
		'/** The icon of a provider by its id; `undefined` for an id without one. */',
		'export function providerIcon(id: string): ProviderIcon | undefined {',
		'\treturn Object.hasOwn(providerIcons, id) ? providerIcons[id] : undefined;',
		'}',
		''
	].join('\n');
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
	writeFileSync(iconsModulePath, await renderIcons());
	console.log(`wrote ${iconsModulePath}`);
}
