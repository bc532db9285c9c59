/**
 * A per-provider in-memory storage adapter for `oidc-provider`.
 *
 * Why not the built-in one: oidc-provider prints "a quick start development-only in-memory adapter
 * is used" for it on every start. This one does the same job (test-sized, linear scans are fine)
 * and keeps each test IdP's state separate.
 */
import type { Adapter, AdapterFactory, AdapterPayload } from 'oidc-provider';

/** The models whose entries belong to a grant (as in oidc-provider's own memory adapter). */
const GRANTABLE = new Set([
	'AccessToken',
	'AuthorizationCode',
	'RefreshToken',
	'DeviceCode',
	'BackchannelAuthenticationRequest',
	'PreAuthorizedCode'
]);

interface Entry {
	payload: AdapterPayload;
	/** Epoch ms; `Infinity` when oidc-provider gave no lifetime. */
	expiresAt: number;
}

export function memoryAdapterFactory(): AdapterFactory {
	const store = new Map<string, Entry>();

	const live = (key: string): AdapterPayload | undefined => {
		const entry = store.get(key);
		if (!entry) return undefined;
		if (entry.expiresAt <= Date.now()) {
			store.delete(key);
			return undefined;
		}
		return entry.payload;
	};

	return (model: string): Adapter => {
		const key = (id: string): string => `${model}:${id}`;
		const findBy = (field: 'uid' | 'userCode', value: string): AdapterPayload | undefined => {
			for (const [k, entry] of store) {
				if (k.startsWith(`${model}:`) && entry.payload[field] === value) return live(k);
			}
			return undefined;
		};
		return {
			async upsert(id, payload, expiresIn) {
				const expiresAt = typeof expiresIn === 'number' ? Date.now() + expiresIn * 1000 : Infinity;
				store.set(key(id), { payload, expiresAt });
			},
			async find(id) {
				return live(key(id));
			},
			async findByUid(uid) {
				return findBy('uid', uid);
			},
			async findByUserCode(userCode) {
				return findBy('userCode', userCode);
			},
			async consume(id) {
				const payload = live(key(id));
				// oidc-provider detects code / refresh token replay through `consumed`.
				if (payload) payload.consumed = Math.floor(Date.now() / 1000);
			},
			async destroy(id) {
				store.delete(key(id));
			},
			async revokeByGrantId(grantId) {
				// Across models: revoking a grant (e.g. on refresh token reuse) kills its codes and tokens.
				for (const [k, entry] of store) {
					const entryModel = k.slice(0, k.indexOf(':'));
					if (GRANTABLE.has(entryModel) && entry.payload.grantId === grantId) store.delete(k);
				}
			}
		};
	};
}
