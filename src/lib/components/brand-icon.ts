/**
 * The model of the bundled brand icons (the data is generated into `icons.ts` by
 * scripts/generate-icons.ts), and how a multi-colour mark is written into a page.
 */

interface Icon {
	/** The brand, for `<title>` or `aria-label`. */
	title: string;
	/** The brand's colour, `#RRGGBB` (for a multi-colour mark, its first colour). */
	color: string;
	/** The `viewBox` of the `<svg>` the mark is drawn in. */
	viewBox: string;
}

/** A mark in one colour: one path, drawn in the colour the page gives it (`fill: currentColor`). */
export interface MonochromeIcon extends Icon {
	/** The `d` of the one `<path>`. */
	path: string;
	body?: undefined;
}

/**
 * A mark in several colours, drawn in its own (never painted over). `body` is the SVG markup
 * inside its `<svg>`, checked when it was generated: only shapes, groups and gradients, with
 * presentation attributes (`fill="#e01e5a"`) — no script, event handler, `style`, link or outside
 * reference. Its `id`s (a gradient's) are referenced only as `url(#id)`; two copies of the mark on
 * one page would share them, so write it with `iconMarkup(icon, prefix)`, a prefix per copy.
 */
export interface MulticolorIcon extends Icon {
	body: string;
	path?: undefined;
}

/**
 * A brand icon: a one-colour `path` (as every icon was before multi-colour ones came, so code that
 * draws `path` in the brand or text colour keeps working for those), or a multi-colour `body`.
 * Exactly one of the two is set: branch on `icon.body === undefined`.
 */
export type ProviderIcon = MonochromeIcon | MulticolorIcon;

const PREFIX = /^[A-Za-z][\w-]*$/;

/**
 * A multi-colour icon's markup with each `id`, and each `url(#…)` naming one, prefixed by
 * `prefix-`, so that copies written with different prefixes (e.g. `$props.id()`) do not collide.
 */
export function iconMarkup(icon: MulticolorIcon, prefix: string): string {
	if (!PREFIX.test(prefix)) throw new TypeError(`an icon id prefix is a letter, then letters, digits, _ or -: ${JSON.stringify(prefix)}`);
	// The generator writes ids only in these two forms (and nothing else in a body looks like them).
	return icon.body.replace(/( id="|url\(#)/g, `$1${prefix}-`);
}
