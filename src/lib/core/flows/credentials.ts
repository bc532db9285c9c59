import { randomUUID } from 'node:crypto';
import { CallbackRouteError, CredentialsSignin } from '../errors.js';
import type { Identity } from '../login.js';
import type { RequestInternal } from '../types/internal.js';
import type { CredentialsConfig } from '../types/provider.js';

/**
 * Credentials: the app's `authorize()` decides. `null` → `CredentialsSignin` (code
 * `credentials`); a thrown `CredentialsSignin` keeps its own code; any other throw is a server
 * fault (`CallbackRouteError`, shown as `Configuration`), logged with its cause.
 */
export async function credentialsIdentity(
	req: RequestInternal,
	provider: CredentialsConfig
): Promise<Identity> {
	const { csrfToken: _csrf, ...credentials } = req.body;
	const request = new Request(req.url, {
		method: 'POST',
		headers: withJson(req.headers),
		body: JSON.stringify(credentials)
	});
	let user: Awaited<ReturnType<CredentialsConfig['authorize']>>;
	try {
		user = await provider.authorize(credentials, request);
	} catch (error) {
		if (error instanceof CredentialsSignin) throw error;
		throw new CallbackRouteError(`authorize() of "${provider.id}" threw`, { cause: error as Error });
	}
	if (!user) throw new CredentialsSignin('authorize() returned no user');
	const id = typeof user.id === 'string' && user.id ? user.id : randomUUID();
	return {
		user: { ...user, id },
		account: { type: 'credentials', provider: provider.id, providerAccountId: id },
		credentials
	};
}

function withJson(headers: Headers): Headers {
	const copy = new Headers(headers);
	copy.set('content-type', 'application/json');
	copy.delete('content-length');
	return copy;
}
