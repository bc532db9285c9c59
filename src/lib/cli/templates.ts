/**
 * The files `kitauth init` writes, as the Getting started guide (docs/content/getting-started.md) shows them: the configuration, the
 * sign-in and sign-out pages (kitauth/components and the form actions) and, with credentials, a
 * password check to finish.
 */
import type { Engine } from './engines.js';
import type { ProviderChoice } from './providers.js';

/** Where the configuration lives, and how the hooks and pages import it. */
export const AUTH_FILE = 'src/auth.ts';
export const PASSWORDS_FILE = 'src/lib/server/passwords.ts';

const CREDENTIALS = `		Credentials({
			credentials: {
				email: { label: 'Email', type: 'email', autocomplete: 'username' },
				password: { label: 'Password', type: 'password', autocomplete: 'current-password' }
			},
			// Return the user, or null to refuse: finish src/lib/server/passwords.ts.
			authorize: ({ email, password }) => checkPassword(email, password)
		})`;

export function authFile(providers: ProviderChoice[], engine: Engine | undefined): string {
	const imports = ["import { SvelteKitAuth, type SvelteKitAuthConfig } from 'kitauth';", ...(engine?.config.imports ?? [])];
	for (const p of providers) imports.push(`import ${p.name} from 'kitauth/providers/${p.id}';`);
	if (providers.some((p) => p.id === 'credentials')) imports.push("import { checkPassword } from './lib/server/passwords';");
	const options = [
		...(engine ? [`\tadapter: ${engine.config.adapter},`] : []),
		`\tproviders: [\n${providers.map((p) => (p.id === 'credentials' ? CREDENTIALS : `\t\t${p.name}`)).join(',\n')}\n\t],`,
		...(providers.some((p) => p.id === 'passkey') ? ['\texperimental: { enableWebAuthn: true },'] : []),
		"\tpages: { signIn: '/signin' }"
	];
	return [
		imports.join('\n'),
		'',
		...(engine ? [...engine.config.declarations, ''] : []),
		`export const authConfig: SvelteKitAuthConfig = {\n${options.join('\n')}\n};`,
		'',
		'export const { handle, signIn, signOut } = SvelteKitAuth(authConfig);',
		''
	].join('\n');
}

export const SIGNIN_SERVER = `import { listProviders, safeCallbackUrl } from 'kitauth';
import { authConfig, signIn } from '../../auth';

export const load = ({ url }) => ({
	providers: listProviders(authConfig),
	error: url.searchParams.get('error'),
	// Where the visitor was going: only ever a path or URL of this site.
	redirectTo: safeCallbackUrl(url.searchParams.get('redirectTo'), url.origin) ?? '/'
});
export const actions = { signIn };
`;

export const SIGNIN_PAGE = `<script lang="ts">
	import { SignIn } from 'kitauth/components';
	let { data, form } = $props();
</script>

<SignIn providers={data.providers} {form} error={data.error} redirectTo={data.redirectTo} />
`;

export const SIGNOUT_SERVER = `import { signOut } from '../../auth';
export const actions = { signOut };
`;

export const SIGNOUT_PAGE = `<script lang="ts">
	import { SignOut } from 'kitauth/components';
</script>

<SignOut action="?/signOut" redirectTo="/" />
`;

/** The Credentials guide's password check (docs/content/credentials.md, "Checking passwords"), waiting for the app's user lookup. */
export const PASSWORDS = `import { createHash, randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

const PARAMS = { N: 2 ** 14, r: 8, p: 5 }; // OWASP's scrypt minimum (16 MiB)

export interface PasswordUser {
	id: string;
	email: string;
	name?: string | null;
	/** What hashPassword() returned when the password was set. */
	passwordHash: string;
}

/**
 * TODO: look the user up in your database. Until you do, nobody can sign in with a password
 * (kitauth's database keeps no passwords: store hashPassword()'s result with your users).
 */
export async function findUserByEmail(email: string): Promise<PasswordUser | undefined> {
	void email;
	return undefined;
}

function derive(password: string, salt: Buffer, params = PARAMS): Promise<Buffer> {
	// Fixed-length input: scrypt's HMAC pads a short key with zeros, so without this
	// 'secret' and 'secret\\0' would be the same password.
	const input = createHash('sha256').update(password, 'utf8').digest();
	return new Promise((resolve, reject) =>
		scrypt(input, salt, 32, { ...params, maxmem: 64 * 1024 * 1024 }, (e, key) => (e ? reject(e) : resolve(key)))
	);
}

export async function hashPassword(password: string): Promise<string> {
	const salt = randomBytes(16);
	const key = await derive(password, salt);
	return ['scrypt', PARAMS.N, PARAMS.r, PARAMS.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
	const [, N, r, p, salt, hash] = stored.split('$');
	const key = await derive(password, Buffer.from(salt!, 'base64url'), { N: +N!, r: +r!, p: +p! });
	const expected = Buffer.from(hash!, 'base64url');
	return key.length === expected.length && timingSafeEqual(key, expected);
}

// A decoy hash: an unknown email costs the same scrypt as a known one.
const decoy = hashPassword(randomBytes(32).toString('base64url'));

export async function checkPassword(email: unknown, password: unknown) {
	if (typeof email !== 'string' || typeof password !== 'string' || password.length > 1024) return null;
	const user = await findUserByEmail(email.trim().toLowerCase());
	const ok = await verifyPassword(password, user?.passwordHash ?? (await decoy));
	return user && ok ? { id: user.id, email: user.email, name: user.name } : null;
}
`;
