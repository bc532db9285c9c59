/**
 * Readable provider buttons: every native preset's button, as the components paint it, has text at
 * 4.5:1 on its background and an edge at 3:1 against the card, on the light and the dark scheme.
 */
import { describe, expect, test } from 'vitest';
import { buttonColors, CARD, contrast, OUTLINE, parseHex, SHAPE_CONTRAST, TEXT_CONTRAST } from '../../../src/lib/components/parts/colors.js';
import { nativePresets } from '../providers/helpers.js';

const presets = await nativePresets();

describe('contrast', () => {
	test('WCAG ratios of known pairs', () => {
		expect(contrast('#000', '#fff')).toBeCloseTo(21, 5);
		expect(contrast('#fff', '#fff')).toBe(1);
		expect(contrast('#767676', '#ffffff')).toBeCloseTo(4.54, 2);
		expect(contrast('#FC6D26', '#ffffff')).toBeCloseTo(2.86, 2);
	});

	test.each(['red', '#12', '#12345', 'url(x)', '', '#ggg', ' #fff; x'])('%s is not a colour it reads', (value) => {
		expect(parseHex(value)).toBeUndefined();
		expect(contrast(value, '#fff')).toBeUndefined();
	});
});

test('the outlines themselves stand out from their card', () => {
	expect(contrast(OUTLINE.light, CARD.light)).toBeGreaterThanOrEqual(SHAPE_CONTRAST);
	expect(contrast(OUTLINE.dark, CARD.dark)).toBeGreaterThanOrEqual(SHAPE_CONTRAST);
});

test('there are presets with brand colours to check', () => {
	expect(presets.filter((p) => p.config.style?.bg).length).toBeGreaterThanOrEqual(30);
});

describe.each(presets.filter((p) => p.config.style?.bg).map((p) => [p.config.id, p.config.style!] as const))('%s', (_id, style) => {
	const colors = buttonColors(style)!;

	test('its text reads at 4.5:1 on its background', () => {
		expect(colors.background).toBe(style.bg);
		expect(contrast(colors.text, colors.background)).toBeGreaterThanOrEqual(TEXT_CONTRAST);
	});

	test.each(['light', 'dark'] as const)('on the %s card its edge stands out at 3:1', (scheme) => {
		expect(contrast(colors.border[scheme], CARD[scheme])).toBeGreaterThanOrEqual(SHAPE_CONTRAST);
	});

	test('its own text colour is kept when it reads', () => {
		if (contrast(style.bg!, style.text!)! >= TEXT_CONTRAST) expect(colors.text).toBe(style.text);
		else expect(['#000000', '#ffffff']).toContain(colors.text);
	});
});

test('without a usable background: no colours (a neutral button)', () => {
	expect(buttonColors(undefined)).toBeUndefined();
	expect(buttonColors({ text: '#fff' })).toBeUndefined();
	expect(buttonColors({ bg: 'linear-gradient(red, blue)' })).toBeUndefined();
});

test('an unreadable or missing text colour is replaced by the better of black and white', () => {
	expect(buttonColors({ bg: '#ffffff', text: '#eeeeee' })?.text).toBe('#000000');
	expect(buttonColors({ bg: '#101010' })?.text).toBe('#ffffff');
	expect(buttonColors({ bg: '#101010', text: 'white; background: red' })?.text).toBe('#ffffff');
});
