/**
 * ID tokens for the rogue OP (`rogue-idp.ts`): a good one, or one with exactly one flaw from the
 * OpenID RP conformance catalogue (research/security-checklist.md §5.2) or oauth4webapi's own
 * negative tests.
 */
import { generateKeyPair, SignJWT, UnsecuredJWT, type CryptoKey, type JWTPayload } from 'jose';

export const ID_TOKEN_FLAWS = [
	/** Signed by another key that claims the published key's `kid`. */
	'bad-signature',
	/** `alg: none`, no signature. */
	'alg-none',
	'wrong-iss',
	'wrong-aud',
	/** `aud: [client_id, another]` and no `azp`. */
	'extra-aud-no-azp',
	/** `exp` an hour ago (far beyond any clock tolerance). */
	'expired',
	'missing-sub',
	'missing-iat',
	/** `iat` a year in the future (and `exp` after it): beyond any clock tolerance. */
	'future-iat',
	/** `iat` 20 s in the future: within the clock tolerance (accepted). */
	'near-future-iat',
	/** A `nonce` other than the one sent in the authorization request. */
	'wrong-nonce',
	/** Signed by a key whose `kid` is not in the JWKS. */
	'unknown-kid',
	/** A `sub` other than the account's (which userinfo still serves): for refresh tests. */
	'wrong-sub'
] as const;

export type IdTokenFlaw = (typeof ID_TOKEN_FLAWS)[number];

export const GOOD_KID = 'rogue-good-key';
export const OTHER_AUDIENCE = 'some-other-client';
export const WRONG_ISSUER = 'https://wrong-issuer.example.test';
export const WRONG_NONCE = 'not-the-nonce-you-sent';
export const WRONG_SUB = 'sub-someone-else';

export interface SigningKeys {
	good: CryptoKey;
	/** Never published: signs the `bad-signature` and `unknown-kid` tokens. */
	impostor: CryptoKey;
}

export async function makeSigningKeys(): Promise<{ keys: SigningKeys; publicGood: CryptoKey }> {
	const good = await generateKeyPair('RS256', { extractable: true });
	const impostor = await generateKeyPair('RS256');
	return { keys: { good: good.privateKey, impostor: impostor.privateKey }, publicGood: good.publicKey };
}

export interface IdTokenInput {
	issuer: string;
	clientId: string;
	/** The account's claims, `sub` included. */
	claims: Record<string, unknown>;
	nonce?: string;
}

export async function idToken(input: IdTokenInput, flaw: IdTokenFlaw | undefined, keys: SigningKeys): Promise<string> {
	const now = Math.floor(Date.now() / 1000);
	const claims: JWTPayload = {
		...input.claims,
		iss: input.issuer,
		aud: input.clientId,
		iat: now,
		exp: now + 300,
		auth_time: now,
		...(input.nonce !== undefined && { nonce: input.nonce })
	};
	switch (flaw) {
		case 'wrong-iss':
			claims.iss = WRONG_ISSUER;
			break;
		case 'wrong-aud':
			claims.aud = OTHER_AUDIENCE;
			break;
		case 'extra-aud-no-azp':
			claims.aud = [input.clientId, OTHER_AUDIENCE];
			break;
		case 'expired':
			claims.iat = now - 7200;
			claims.exp = now - 3600;
			break;
		case 'missing-sub':
			delete claims.sub;
			break;
		case 'missing-iat':
			delete claims.iat;
			break;
		case 'future-iat':
			claims.iat = now + 365 * 24 * 3600;
			claims.auth_time = claims.iat;
			claims.exp = claims.iat + 300;
			break;
		case 'near-future-iat':
			claims.iat = now + 20;
			break;
		case 'wrong-nonce':
			claims.nonce = WRONG_NONCE;
			break;
		case 'wrong-sub':
			claims.sub = WRONG_SUB;
			break;
	}
	if (flaw === 'alg-none') return new UnsecuredJWT(claims).encode();
	const key = flaw === 'bad-signature' || flaw === 'unknown-kid' ? keys.impostor : keys.good;
	const kid = flaw === 'unknown-kid' ? 'kid-not-in-jwks' : GOOD_KID;
	return new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid, typ: 'JWT' }).sign(key);
}
