import { normalizeProviders } from '../core/providers/normalize.js';
import type { ProviderType } from '../core/types/models.js';
import type { CredentialInput, Provider } from '../core/types/provider.js';

/** A provider as a sign-in component needs it: no secrets, no functions. */
export interface ClientProvider {
	id: string;
	name: string;
	type: ProviderType;
	/** Credentials providers: the form's fields. */
	credentials?: Record<string, CredentialInput>;
}

/** Lists per `providers` array: a page's `load` asks on every request, presets need calling once. */
const lists = new WeakMap<readonly Provider[], readonly ClientProvider[]>();

/**
 * The client-safe list of a config's providers, for `<SignIn providers={…}>`:
 * `load = () => ({ providers: listProviders(config) })`.
 */
export function listProviders(config: { providers: Provider[] }): ClientProvider[] {
	let list = lists.get(config.providers);
	if (!list) {
		list = normalizeProviders(config.providers).map((provider) =>
			Object.freeze({
				id: provider.id,
				name: provider.name,
				type: provider.type,
				...(provider.type === 'credentials' ? { credentials: provider.credentials } : {})
			})
		);
		lists.set(config.providers, list);
	}
	return [...list];
}
