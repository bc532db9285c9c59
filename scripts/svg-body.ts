/**
 * The check a multi-colour icon's SVG body passes before scripts/generate-icons.ts writes it into
 * the component kit: the body is parsed, held to an allow-list and written anew, so what ships is
 * only shapes, groups, gradients and clip paths with presentation attributes. No script, event
 * handler, `style` (the built-in pages' CSP), link (`href`) or reference outside the mark
 * (`url(…)` other than `url(#id)` of its own ids) gets through: anything outside the list is an
 * error naming the icon, never dropped quietly (dropping could change the mark).
 *
 * The body's ids are renamed `<prefix>-0`, `<prefix>-1`, … and written only as `id="…"` and
 * `url(#…)`: the forms `iconMarkup()` prefixes again per copy on a page.
 */

export interface SvgElement {
	name: string;
	attributes: [name: string, value: string][];
	children: SvgElement[];
}

const NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?%?$/i;
const NUMBERS = /^[\d\s.,e%+-]*$/i;
const PATH_DATA = /^[mzlhvcsqta\d\s.,e+-]*$/i;
const TRANSFORM = /^(?:\s*(?:matrix|translate|scale|rotate|skewX|skewY)\([\d\s.,e+-]*\)\s*,?)*\s*$/i;
const KEYWORD = /^[a-z-]+$/i;
const ID = /^[a-z][\w-]*$/i;
const REFERENCE = /^url\(#([a-z][\w-]*)\)$/i;
/** A colour (`#hex` or a keyword such as `red`, `none`, `currentColor`) or one of the mark's own gradients. */
const PAINT = /^(?:#[\da-f]{3}|#[\da-f]{6}|[a-z]+|url\(#[a-z][\w-]*\))$/i;

/** Each attribute a body may carry, and what its value may be. */
const ATTRIBUTES: Readonly<Record<string, RegExp>> = {
	id: ID,
	d: PATH_DATA,
	points: NUMBERS,
	fill: PAINT,
	stroke: PAINT,
	'stop-color': PAINT,
	'clip-path': REFERENCE,
	transform: TRANSFORM,
	gradientTransform: TRANSFORM,
	...Object.fromEntries(
		['fill-rule', 'clip-rule', 'stroke-linecap', 'stroke-linejoin', 'gradientUnits', 'spreadMethod', 'clipPathUnits'].map((name) => [name, KEYWORD])
	),
	...Object.fromEntries(
		[
			...['opacity', 'fill-opacity', 'stroke-opacity', 'stop-opacity', 'stroke-width', 'stroke-miterlimit', 'offset'],
			...['x', 'y', 'width', 'height', 'cx', 'cy', 'r', 'rx', 'ry', 'x1', 'y1', 'x2', 'y2', 'fx', 'fy']
		].map((name) => [name, NUMBER])
	),
	'stroke-dasharray': NUMBERS
};

const ELEMENTS = new Set(['path', 'circle', 'ellipse', 'rect', 'line', 'polygon', 'polyline', 'g', 'defs', 'linearGradient', 'radialGradient', 'stop', 'clipPath']);

const TAG = /<(\/?)([a-z][\w:.-]*)((?:\s+[^\s=<>/"']+\s*=\s*"[^"<>]*")*)\s*(\/?)>/iy;
const ATTRIBUTE = /([^\s=]+)\s*=\s*"([^"]*)"/g;

/** Parses an SVG body (elements with double-quoted attributes; white space between them, no text). */
export function parseSvgBody(body: string, what: string): SvgElement[] {
	const roots: SvgElement[] = [];
	const open: SvgElement[] = [];
	let at = 0;
	while (at < body.length) {
		if (/\s/.test(body[at]!)) {
			at++;
			continue;
		}
		TAG.lastIndex = at;
		const tag = TAG.exec(body);
		if (!tag) throw new Error(`${what}: not an element at ${JSON.stringify(body.slice(at, at + 40))} (text, a comment or markup this check does not take)`);
		at = TAG.lastIndex;
		const [, closing, name, attributes = '', selfClosing] = tag;
		if (closing) {
			if (attributes || selfClosing) throw new Error(`${what}: </${name}> is not a plain closing tag`);
			if (open.pop()?.name !== name) throw new Error(`${what}: </${name}> closes nothing open`);
			continue;
		}
		const element: SvgElement = { name: name!, attributes: [...attributes.matchAll(ATTRIBUTE)].map(([, n, v]) => [n!, v!]), children: [] };
		(open.at(-1)?.children ?? roots).push(element);
		if (!selfClosing) open.push(element);
	}
	if (open.length) throw new Error(`${what}: <${open.at(-1)!.name}> is not closed`);
	return roots;
}

/** Holds parsed elements to the allow-list and renames their ids; throws on anything else. */
export function checkSvgElements(elements: SvgElement[], idPrefix: string, what: string): SvgElement[] {
	const ids = new Map<string, string>();
	const walk = (list: SvgElement[], visit: (element: SvgElement) => void) => {
		for (const element of list) {
			visit(element);
			walk(element.children, visit);
		}
	};
	walk(elements, (element) => {
		if (!ELEMENTS.has(element.name)) throw new Error(`${what}: <${element.name}> is not allowed in an icon`);
		for (const [name, value] of element.attributes) {
			const allowed = Object.hasOwn(ATTRIBUTES, name) ? ATTRIBUTES[name] : undefined;
			if (!allowed) throw new Error(`${what}: the attribute ${name} (on <${element.name}>) is not allowed in an icon`);
			if (!allowed.test(value)) throw new Error(`${what}: ${name}="${value}" (on <${element.name}>) is not allowed in an icon`);
			if (name === 'id') {
				if (ids.has(value)) throw new Error(`${what}: the id ${value} is used twice`);
				ids.set(value, `${idPrefix}-${ids.size}`);
			}
		}
	});
	const rename = (value: string) => value.replace(/url\(#([\w-]+)\)/g, (_, id: string) => {
		const renamed = ids.get(id);
		if (!renamed) throw new Error(`${what}: url(#${id}) names no element of the icon`);
		return `url(#${renamed})`;
	});
	const renamed = (list: SvgElement[]): SvgElement[] =>
		list.map((element) => ({
			name: element.name,
			attributes: element.attributes.map(([name, value]) => [name, name === 'id' ? ids.get(value)! : rename(value)]),
			children: renamed(element.children)
		}));
	return renamed(elements);
}

/** Writes checked elements as markup (the values hold no `"`, `<` or `&`: the allow-list's patterns). */
export function serializeSvg(elements: SvgElement[]): string {
	return elements
		.map(({ name, attributes, children }) => {
			const open = `<${name}${attributes.map(([n, v]) => ` ${n}="${v}"`).join('')}`;
			return children.length ? `${open}>${serializeSvg(children)}</${name}>` : `${open}/>`;
		})
		.join('');
}

/** A body as it ships: parsed, checked, its ids renamed `<idPrefix>-<n>`, written anew. */
export function sanitizeSvgBody(body: string, idPrefix: string, what: string): string {
	return serializeSvg(checkSvgElements(parseSvgBody(body, what), idPrefix, what));
}
