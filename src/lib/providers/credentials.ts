import type { CredentialInput, CredentialsConfig } from '../core/types/provider.js';

export type { CredentialInput, CredentialsConfig } from '../core/types/provider.js';

/**
 * Sign in with fields your app checks itself (`authorize`). Prefer OAuth, email or passkeys where
 * you can: passwords are yours to store, hash and rate-limit.
 *
 * ```ts
 * Credentials({
 *   credentials: { email: { label: 'Email', type: 'email' }, password: { label: 'Password', type: 'password' } },
 *   authorize: async ({ email, password }) => (await checkPassword(email, password)) ?? null
 * })
 * ```
 */
export default function Credentials<Fields extends Record<string, CredentialInput>>(
	config: Partial<Omit<CredentialsConfig<Fields>, 'type'>> & Pick<CredentialsConfig<Fields>, 'authorize'>
): CredentialsConfig<Fields> {
	return {
		id: 'credentials',
		name: 'Credentials',
		credentials: {} as Fields,
		...config,
		type: 'credentials'
	};
}
