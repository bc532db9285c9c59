/**
 * Colour arithmetic for readable buttons (WCAG 2.x relative luminance and contrast ratio), pure so
 * the components, the built-in pages and the tests share it.
 */

/** An `#rgb` or `#rrggbb` colour as [r, g, b] in 0–255, or `undefined` for anything else. */
export function parseHex(color: string | undefined): [number, number, number] | undefined {
	const match = /^#([\da-f]{3}|[\da-f]{6})$/i.exec(color?.trim() ?? '');
	if (!match) return undefined;
	const hex = match[1]!.length === 3 ? [...match[1]!].map((c) => c + c).join('') : match[1]!;
	return [0, 2, 4].map((i) => parseInt(hex.slice(i, i + 2), 16)) as [number, number, number];
}

function luminance([r, g, b]: [number, number, number]): number {
	const channel = (value: number) => {
		const c = value / 255;
		return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
	};
	return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
}

/** The WCAG contrast ratio of two `#hex` colours (1–21); `undefined` if either is not `#hex`. */
export function contrast(a: string, b: string): number | undefined {
	const x = parseHex(a);
	const y = parseHex(b);
	if (!x || !y) return undefined;
	const [hi, lo] = [luminance(x), luminance(y)].sort((p, q) => q - p) as [number, number];
	return (hi + 0.05) / (lo + 0.05);
}

/** The card colours of the components' two schemes (the defaults of `--kitauth-card`). */
export const CARD = { light: '#ffffff', dark: '#22252c' } as const;

/** A button's outline where its own colour would not stand out from the card (3:1 for UI parts). */
export const OUTLINE = { light: '#6b7280', dark: '#8a8f98' } as const;

/** Text on a button: 4.5:1 (WCAG AA, normal text). Shapes against the card: 3:1. */
export const TEXT_CONTRAST = 4.5;
export const SHAPE_CONTRAST = 3;

/** How a provider's button is painted, readable on both schemes. */
export interface ButtonColors {
	background: string;
	text: string;
	/** The border on a light card and on a dark card. */
	border: { light: string; dark: string };
}

/**
 * A provider's brand colours made readable: its text colour if that reaches 4.5:1 on its
 * background, else black or white, whichever reads better; a neutral outline on each scheme where
 * the background would melt into the card (a white button on a white card, a dark one on a dark
 * card). `undefined` without a usable `#hex` background: the button is then drawn in the card's
 * own colours.
 */
export function buttonColors(style: { bg?: string; text?: string } | undefined): ButtonColors | undefined {
	const background = style?.bg?.trim();
	if (!background || !parseHex(background)) return undefined;
	let text = style?.text?.trim() ?? '';
	if (!parseHex(text) || contrast(background, text)! < TEXT_CONTRAST) {
		text = contrast(background, '#000000')! >= contrast(background, '#ffffff')! ? '#000000' : '#ffffff';
	}
	const edge = (card: string, outline: string) => (contrast(background, card)! >= SHAPE_CONTRAST ? background : outline);
	return { background, text, border: { light: edge(CARD.light, OUTLINE.light), dark: edge(CARD.dark, OUTLINE.dark) } };
}
