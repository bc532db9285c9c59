/**
 * A loopback host (`http://127.0.0.1:<port>`) that is the OpenID Provider of every issuer under
 * it: `GET <issuer>/.well-known/openid-configuration` answers a discovery document naming
 * `<issuer>` (the path before the well-known suffix) and endpoints under it, as a real server
 * would. It serves no logins and no tokens: it is for tests that stop at the authorization
 * redirect. Every request is recorded.
 */
import { createServer } from 'node:http';

export interface DiscoveryHost {
	/** `http://127.0.0.1:<port>` */
	origin: string;
	/** Paths (with query) of every request received, in order. */
	requests: string[];
	close(): Promise<void>;
}

const WELL_KNOWN = '/.well-known/openid-configuration';

/** The document a server at `issuer` publishes (the endpoints every test can predict). */
export function discoveryDocument(issuer: string): Record<string, unknown> {
	return {
		issuer,
		authorization_endpoint: `${issuer}/authorize`,
		token_endpoint: `${issuer}/token`,
		userinfo_endpoint: `${issuer}/userinfo`,
		jwks_uri: `${issuer}/jwks`,
		response_types_supported: ['code'],
		subject_types_supported: ['public'],
		id_token_signing_alg_values_supported: ['RS256'],
		code_challenge_methods_supported: ['S256'],
		token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post']
	};
}

export async function startDiscoveryHost(): Promise<DiscoveryHost> {
	const requests: string[] = [];
	let origin = '';
	const server = createServer((req, res) => {
		const url = new URL(req.url ?? '/', origin);
		requests.push(url.pathname + url.search);
		if (req.method !== 'GET' || !url.pathname.endsWith(WELL_KNOWN)) {
			res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not_found"}');
			return;
		}
		const issuer = origin + url.pathname.slice(0, -WELL_KNOWN.length);
		res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(discoveryDocument(issuer)));
	});
	await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
	const address = server.address();
	if (!address || typeof address === 'string') throw new Error('discovery host has no port');
	origin = `http://127.0.0.1:${address.port}`;
	return {
		origin,
		requests,
		close: () =>
			new Promise<void>((done) => {
				server.closeAllConnections();
				server.close(() => done());
			})
	};
}
