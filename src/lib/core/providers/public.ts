import type { ClientProvider } from '../../shared/provider.js';
import { flowOf } from '../flows/index.js';
import type { Provider, ProviderConfig } from '../types/provider.js';
import { normalizeProviders } from './normalize.js';

export type { ClientProvider };

/** The client-safe view of one provider: id, name, type, and what its flow lets a browser know. */
export function clientProvider(provider: ProviderConfig): ClientProvider {
	const extra = flowOf(provider).publicView?.(provider);
	const style = 'style' in provider && provider.style ? { style: Object.freeze({ ...provider.style }) } : {};
	return Object.freeze({ id: provider.id, name: provider.name, type: provider.type, ...style, ...extra });
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
		list = normalizeProviders(config.providers).map(clientProvider);
		lists.set(config.providers, list);
	}
	return [...list];
}
