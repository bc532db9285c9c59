/**
 * `@simplewebauthn/server`, loaded on the first ceremony: apps without passkeys never load it (nor
 * its ASN.1 and CBOR dependencies), and the core's start-up stays as light as before. (The module
 * loader caches it: later calls cost a resolved promise.)
 */
export function simpleWebAuthn(): Promise<typeof import('@simplewebauthn/server')> {
	return import('@simplewebauthn/server');
}
