/**
 * The sign-in methods `init` can set up, as kitauth ships them: the presets in
 * `kitauth/providers/<id>`, found beside this module (so a new preset needs no list here).
 */
import { readdirSync } from 'node:fs';
import { UsageError } from './errors.js';

/** Provider modules that are not a ready sign-in method on their own. */
const NOT_PRESETS = new Set(['oauth', 'oidc', 'email', 'webauthn']);
/** Presets that are not OAuth/OIDC (they need no client id or secret). */
const NOT_OAUTH = new Set(['credentials', 'passkey', 'nodemailer', 'email', 'webauthn']);
/** Presets that need a database: they store users, tokens or passkeys. */
const NEED_DATABASE = new Set(['passkey', 'nodemailer']);

export interface ProviderChoice {
	id: string;
	/** The name the generated code imports the preset as. */
	name: string;
	oauth: boolean;
	needsDatabase: boolean;
}

/** Every preset id of this kitauth. */
export function presetIds(): string[] {
	const dir = new URL('../providers/', import.meta.url);
	return readdirSync(dir)
		.filter((file) => /\.(js|ts)$/.test(file) && !file.endsWith('.d.ts'))
		.map((file) => file.replace(/\.(js|ts)$/, ''))
		.filter((id) => !NOT_PRESETS.has(id))
		.sort();
}

/** Whether provider `id` (a preset's) signs in through OAuth/OIDC, so needs AUTH_<ID>_ID and _SECRET. */
export function isOAuthPreset(id: string): boolean {
	return !NOT_OAUTH.has(id) && !NOT_PRESETS.has(id);
}

/** `AUTH_<ID>`: the prefix of a provider's environment variables, as the core derives it. */
export function envPrefix(id: string): string {
	return `AUTH_${id.toUpperCase().replace(/-/g, '_')}`;
}

/** `--providers credentials,github` → the choices, or a UsageError naming what there is. */
export function parseProviders(list: string): ProviderChoice[] {
	const known = presetIds();
	const ids = [...new Set(list.split(',').map((id) => id.trim().toLowerCase()).filter(Boolean))];
	if (ids.length === 0) throw new UsageError('Choose at least one provider (--providers credentials,github,…).');
	const unknown = ids.filter((id) => !known.includes(id));
	if (unknown.length) throw new UsageError(`Unknown provider${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}. kitauth has: ${known.join(', ')}.`);
	return ids.map((id) => ({ id, name: importName(id), oauth: isOAuthPreset(id), needsDatabase: NEED_DATABASE.has(id) }));
}

function importName(id: string): string {
	if (id === 'github') return 'GitHub';
	return id.replace(/(^|-)(\w)/g, (_, __, c: string) => c.toUpperCase());
}
