import type { ClientProvider } from '../../shared/provider.js';
import { flowOf } from '../flows/index.js';
import type { Provider, ProviderConfig } from '../types/provider.js';
import { normalizeProviders } from './normalize.js';

export type { ClientProvider };

/** The client-safe view of one provider: id, name, type, and what its flow lets a browser know. */
function clientProvider(provider: ProviderConfig): ClientProvider {
	const extra = flowOf(provider).publicView?.(provider);
	const style = 'style' in provider && provider.style ? { style: Object.freeze({ ...provider.style }) } : {};
	return Object.freeze({ id: provider.id, name: provider.name, type: provider.type, ...style, ...extra });
}

/** Lists per normalized `providers` array (the options'), and per app config's `providers` array. */
const lists = new WeakMap<readonly ProviderConfig[], readonly ClientProvider[]>();
/** A page's `load` asks on every request, and presets need calling once. */
const configLists = new WeakMap<readonly Provider[], readonly ClientProvider[]>();

/**
 * The one client-safe list of providers, made once per (normalized) providers array: the server
 * API's `providers()`, `GET /providers`, the built-in sign-in page and `listProviders` all answer
 * from it.
 */
export function clientProviders(providers: readonly ProviderConfig[]): readonly ClientProvider[] {
	let list = lists.get(providers);
	if (!list) lists.set(providers, (list = Object.freeze(providers.map(clientProvider))));
	return list;
}

/**
 * The client-safe list of a config's providers, for `<SignIn providers={…}>`:
 * `load = () => ({ providers: listProviders(config) })`.
 */
export function listProviders(config: { providers: Provider[] }): ClientProvider[] {
	let list = configLists.get(config.providers);
	if (!list) configLists.set(config.providers, (list = clientProviders(normalizeProviders(config.providers))));
	return [...list];
}
