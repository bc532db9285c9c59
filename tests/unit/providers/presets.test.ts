/**
 * What every native preset in src/lib/providers promises, checked on all of them: the id of the
 * same-named Auth.js preset (so `AUTH_<ID>_ID`, callback URLs and stored accounts carry over), env
 * inference by that id, a doc comment with the import and the callback URL to register, and a
 * button style whose text is readable on its background.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Provider } from '../../../src/lib/core/types/provider.js';
import { contrastRatio, nativePresets, resolve } from './helpers.js';

const AUTHJS_PROVIDERS = dirname(createRequire(import.meta.url).resolve('@auth/core/providers/github'));

/** Presets older than the contrast check, keeping their brand colours (below WCAG AA 4.5:1). */
const LOW_CONTRAST_BEFORE_CHECK = new Set(['gitlab', 'keycloak', 'auth0']);

const natives = await nativePresets();

describe('native presets', () => {
	it('are at least 30, the generic OAuth and OIDC ones not counted', () => {
		expect(natives.length).toBeGreaterThanOrEqual(30);
		expect(natives.map((n) => n.stem)).not.toContain('oauth');
		expect(natives.map((n) => n.stem)).not.toContain('oidc');
	});
});

describe.each(natives)('$stem', ({ stem, preset, config, source }) => {
	it('has the id of its file, and the same id as the Auth.js preset of that name', async () => {
		expect(config.id).toBe(stem);
		const authjs = (await import(pathToFileURL(join(AUTHJS_PROVIDERS, `${stem}.js`)).href)) as {
			default: (options: Record<string, unknown>) => { id: string };
		};
		expect(authjs.default({ clientId: 'x', clientSecret: 'y', issuer: 'https://issuer.test' }).id).toBe(config.id);
	});

	it('takes its client id and secret from AUTH_<ID>_ID and AUTH_<ID>_SECRET', () => {
		const prefix = `AUTH_${stem.toUpperCase().replace(/-/g, '_')}_`;
		const env = { [`${prefix}ID`]: 'env-id', [`${prefix}SECRET`]: 'env-secret', [`${prefix}ISSUER`]: 'https://issuer.test' };
		const [resolved] = resolve(env, preset as Provider);
		expect(resolved).toMatchObject({ id: stem, clientId: 'env-id', clientSecret: 'env-secret' });
	});

	it('documents its import and the callback URL to register', () => {
		const doc = source.slice(0, source.indexOf('*/'));
		expect(doc).toContain(`from 'kitauth/providers/${stem}'`);
		expect(doc).toContain(`<origin>/auth/callback/${stem}`);
	});

	it('has a button style whose text is readable on its background', () => {
		const { bg, text } = config.style ?? {};
		expect(bg).toMatch(/^#(?:[\da-f]{3}|[\da-f]{6})$/i);
		expect(text).toMatch(/^#(?:[\da-f]{3}|[\da-f]{6})$/i);
		if (LOW_CONTRAST_BEFORE_CHECK.has(stem)) return;
		expect(contrastRatio(bg as string, text as string)).toBeGreaterThanOrEqual(4.5);
	});
});
