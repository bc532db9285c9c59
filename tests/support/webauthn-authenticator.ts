/**
 * A software WebAuthn authenticator for integration tests without a browser: real key pairs
 * (P-256, P-384 or Ed25519 from node:crypto), real CBOR attestation objects (format `none`), real
 * signatures over authenticator data and the client data hash. It plays both the authenticator
 * and the browser (it writes `clientDataJSON`), so a test can also make it misbehave the ways a
 * hostile client could: another origin or RP ID, no user verification, a stale counter, a
 * borrowed credential id.
 */
import { createHash, generateKeyPairSync, type KeyObject, randomBytes, sign } from 'node:crypto';
import { type CborValue, encodeCbor } from './cbor.js';

export type Algorithm = -7 | -35 | -8;

export interface SoftCredential {
	/** base64url */
	id: string;
	rpId: string;
	userHandle: string;
	alg: Algorithm;
	privateKey: KeyObject;
	cose: Uint8Array;
	counter: number;
	backupEligible: boolean;
}

/** What a ceremony may be told to do differently from a well-behaved browser and authenticator. */
export interface CeremonyTweaks {
	/** The origin written into clientDataJSON (default: the authenticator's origin). */
	origin?: string;
	/** The RP ID hashed into the authenticator data (default: the options' rpId / rp.id). */
	rpId?: string;
	/** Challenge to sign instead of the options' one. */
	challenge?: string;
	/** clientDataJSON `type` (default `webauthn.create` / `webauthn.get`). */
	type?: string;
	/** User verification flag (default true). */
	uv?: boolean;
	/** User presence flag (default true). */
	up?: boolean;
	/** Counter to report (default: stored + 1 for sign-ins; `counter` option for registrations). */
	counter?: number;
	/** Backup-eligible flag (default: the credential's). */
	backupEligible?: boolean;
	/** `crossOrigin: true` in clientDataJSON. */
	crossOrigin?: boolean;
}

export interface RegistrationOptions {
	challenge: string;
	rp: { id?: string; name: string };
	user: { id: string; name: string; displayName: string };
	pubKeyCredParams?: { alg: number; type: string }[];
	excludeCredentials?: { id: string }[];
}

export interface AuthenticationOptions {
	challenge: string;
	rpId?: string;
	allowCredentials?: { id: string }[];
}

const b64url = (bytes: Uint8Array | Buffer): string => Buffer.from(bytes).toString('base64url');
const sha256 = (data: Uint8Array | string): Buffer => createHash('sha256').update(data).digest();

function u32(value: number): Buffer {
	const buffer = Buffer.alloc(4);
	buffer.writeUInt32BE(value >>> 0);
	return buffer;
}

function keyPair(alg: Algorithm): { privateKey: KeyObject; cose: Uint8Array } {
	if (alg === -8) {
		const { privateKey, publicKey } = generateKeyPairSync('ed25519');
		const jwk = publicKey.export({ format: 'jwk' });
		const cose = new Map<number, number | Uint8Array>([
			[1, 1],
			[3, -8],
			[-1, 6],
			[-2, Buffer.from(jwk.x!, 'base64url')]
		]);
		return { privateKey, cose: encodeCbor(cose) };
	}
	const curve = alg === -7 ? 'P-256' : 'P-384';
	const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: curve });
	const jwk = publicKey.export({ format: 'jwk' });
	const cose = new Map<number, number | Uint8Array>([
		[1, 2],
		[3, alg],
		[-1, alg === -7 ? 1 : 2],
		[-2, Buffer.from(jwk.x!, 'base64url')],
		[-3, Buffer.from(jwk.y!, 'base64url')]
	]);
	return { privateKey, cose: encodeCbor(cose) };
}

function signWith(credential: SoftCredential, data: Buffer): Buffer {
	if (credential.alg === -8) return sign(null, data, credential.privateKey);
	return sign(credential.alg === -7 ? 'sha256' : 'sha384', data, credential.privateKey);
}

/** The Chromium virtual authenticator's AAGUID, so names and lists look like a browser's. */
export const SOFT_AAGUID = '01020304-0506-0708-0102-030405060708';

export class SoftAuthenticator {
	readonly credentials: SoftCredential[] = [];

	constructor(
		readonly origin: string,
		readonly settings: { alg?: Algorithm; backupEligible?: boolean; aaguid?: string; registrationCounter?: number } = {}
	) {}

	/** `navigator.credentials.create()`: a new credential and the registration response JSON. */
	create(options: RegistrationOptions, tweaks: CeremonyTweaks & { credentialId?: string } = {}) {
		const rpId = tweaks.rpId ?? options.rp.id ?? new URL(this.origin).hostname;
		const alg = this.settings.alg ?? -7;
		const { privateKey, cose } = keyPair(alg);
		const id = tweaks.credentialId ?? b64url(randomBytes(32));
		const backupEligible = tweaks.backupEligible ?? this.settings.backupEligible ?? false;
		const credential: SoftCredential = {
			id,
			rpId,
			userHandle: options.user.id,
			alg,
			privateKey,
			cose,
			counter: tweaks.counter ?? this.settings.registrationCounter ?? 0,
			backupEligible
		};
		const clientDataJSON = this.clientData('webauthn.create', options.challenge, tweaks);
		const idBytes = Buffer.from(id, 'base64url');
		const idLength = Buffer.alloc(2);
		idLength.writeUInt16BE(idBytes.length);
		const authData = Buffer.concat([
			sha256(rpId),
			Buffer.from([this.flags(tweaks, backupEligible) | 0x40]),
			u32(credential.counter),
			Buffer.from((this.settings.aaguid ?? SOFT_AAGUID).replaceAll('-', ''), 'hex'),
			idLength,
			idBytes,
			cose
		]);
		const attestationObject = encodeCbor(
			new Map<string, CborValue>([
				['fmt', 'none'],
				['attStmt', new Map<CborValue, CborValue>()],
				['authData', new Uint8Array(authData)]
			])
		);
		this.credentials.push(credential);
		return {
			id,
			rawId: id,
			type: 'public-key',
			response: { clientDataJSON: b64url(clientDataJSON), attestationObject: b64url(attestationObject), transports: ['internal'] },
			clientExtensionResults: {},
			authenticatorAttachment: 'platform'
		};
	}

	/** `navigator.credentials.get()`: an assertion by `credential` (default: the first allowed one). */
	get(options: AuthenticationOptions, tweaks: CeremonyTweaks & { credential?: SoftCredential; bump?: boolean } = {}) {
		const allowed = options.allowCredentials?.map((c) => c.id);
		const credential =
			tweaks.credential ?? this.credentials.find((c) => !allowed?.length || allowed.includes(c.id));
		if (!credential) throw new Error('no credential for these options');
		const rpId = tweaks.rpId ?? options.rpId ?? credential.rpId;
		const counter = tweaks.counter ?? credential.counter + 1;
		if (tweaks.bump !== false) credential.counter = counter;
		const clientDataJSON = this.clientData('webauthn.get', options.challenge, tweaks);
		const authData = Buffer.concat([
			sha256(rpId),
			Buffer.from([this.flags(tweaks, tweaks.backupEligible ?? credential.backupEligible)]),
			u32(counter)
		]);
		const signature = signWith(credential, Buffer.concat([authData, sha256(clientDataJSON)]));
		return {
			id: credential.id,
			rawId: credential.id,
			type: 'public-key',
			response: {
				clientDataJSON: b64url(clientDataJSON),
				authenticatorData: b64url(authData),
				signature: b64url(signature),
				userHandle: credential.userHandle
			},
			clientExtensionResults: {},
			authenticatorAttachment: 'platform'
		};
	}

	private flags(tweaks: CeremonyTweaks, backupEligible: boolean): number {
		let flags = 0;
		if (tweaks.up !== false) flags |= 0x01;
		if (tweaks.uv !== false) flags |= 0x04;
		if (backupEligible) flags |= 0x08 | 0x10;
		return flags;
	}

	private clientData(type: string, challenge: string, tweaks: CeremonyTweaks): Buffer {
		return Buffer.from(
			JSON.stringify({
				type: tweaks.type ?? type,
				challenge: tweaks.challenge ?? challenge,
				origin: tweaks.origin ?? this.origin,
				crossOrigin: tweaks.crossOrigin ?? false
			})
		);
	}
}
