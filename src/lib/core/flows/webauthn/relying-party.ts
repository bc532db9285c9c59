import type { AuthContext } from '../../context.js';
import { InvalidProvider } from '../../errors.js';
import type { RelyingPartyValue, WebAuthnConfig } from '../../types/provider.js';

/** Who a ceremony is for: the id and name in the options, and what verification accepts. */
export interface RelyingParty {
	/** The RP ID the options name (a domain). */
	id: string;
	/** Every RP ID a response may be for (the configured ones; the first is `id`). */
	ids: string[];
	name: string;
	/** Every origin a ceremony may run on: the site's (or the configured ones) and related origins. */
	origins: string[];
}

function values(value: RelyingPartyValue | undefined): string[] {
	if (value === undefined) return [];
	return (Array.isArray(value) ? value : [value]).filter((v): v is string => typeof v === 'string' && v !== '');
}

/**
 * The relying party of a provider for this request: configured, or by default the site's own
 * (hostname, host and origin of `AUTH_URL`, else of the request — the host check has passed).
 */
export function relyingParty(ctx: AuthContext, provider: WebAuthnConfig): RelyingParty {
	const site = new URL(ctx.origin);
	const rp = provider.relayingParty ?? {};
	const ids = values(rp.id);
	const origins = values(rp.origin);
	return {
		id: ids[0] ?? site.hostname,
		ids: ids.length ? ids : [site.hostname],
		name: values(rp.name)[0] ?? site.host,
		origins: [...new Set([...(origins.length ? origins : [site.origin]), ...(provider.relatedOrigins ?? [])])]
	};
}

const HOSTNAME = /^(?=.{1,253}$)[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/i;

/** Is `value` an origin (scheme, host, port; nothing else), as the browser reports one? */
export function isOrigin(value: unknown): value is string {
	if (typeof value !== 'string') return false;
	try {
		const url = new URL(value);
		return (url.protocol === 'https:' || url.protocol === 'http:') && url.origin === value;
	} catch {
		return false;
	}
}

/** Start-up checks of a provider's relying-party settings. */
export function assertRelyingParty(provider: WebAuthnConfig): void {
	const rp = provider.relayingParty ?? {};
	for (const id of values(rp.id)) {
		if (!HOSTNAME.test(id)) throw new InvalidProvider(`relayingParty.id of "${provider.id}" must be a domain, got ${JSON.stringify(id)}`);
	}
	for (const origin of [...values(rp.origin), ...(provider.relatedOrigins ?? [])]) {
		if (!isOrigin(origin)) {
			throw new InvalidProvider(`"${provider.id}": ${JSON.stringify(origin)} is not an origin (like https://example.com)`);
		}
	}
}
