import { InvalidProvider, MissingAdapter, MissingAdapterMethods } from '../../errors.js';
import type { EmailConfig } from '../../types/provider.js';
import { byMailbox } from '../../users.js';
import type { Flow } from '../flow.js';
import { verifyCode } from './code.js';
import { confirmation, verifyLink } from './link.js';
import { startEmailSignIn } from './start.js';
import { emailVerifyRequest } from './verify-request.js';

/**
 * What an email sign-in needs of an adapter: its tokens, and the users and accounts it signs in
 * (an existing user gets `emailVerified` through `updateUser`).
 */
const ADAPTER_METHODS = [
	'createVerificationToken',
	'useVerificationToken',
	'getUserByEmail',
	'createUser',
	'updateUser',
	'getUserByAccount',
	'linkAccount'
] as const;

/**
 * Email (magic links): the start sends a link (and, with `code`, a one-time code); the link's GET
 * only shows a confirmation page (mail scanners that prefetch links burn nothing), and the sign-in
 * is its POST, protected by the CSRF token; a code is posted from the verify-request page.
 */
export const emailFlow: Flow<EmailConfig> = {
	assert(provider, { config }) {
		if (typeof provider.sendVerificationRequest !== 'function' && provider.server === undefined) {
			const variable = `AUTH_${provider.id.toUpperCase().replace(/-/g, '_')}_SERVER`;
			throw new InvalidProvider(
				`Email provider "${provider.id}" has no way to send: give it a server (or set ${variable}) or a sendVerificationRequest function.`
			);
		}
		for (const [name, value] of [['maxAge', provider.maxAge], ['timeout', provider.timeout]] as const) {
			if (value !== undefined && !(typeof value === 'number' && Number.isFinite(value) && value > 0)) {
				throw new InvalidProvider(`Email provider "${provider.id}": ${name} must be a positive number.`);
			}
		}
		const methods = ADAPTER_METHODS.join(', ');
		if (!config.adapter) {
			throw new MissingAdapter(`Email provider "${provider.id}" needs an adapter with ${methods} (verification tokens are stored in it).`);
		}
		const missing = ADAPTER_METHODS.filter((method) => typeof config.adapter?.[method] !== 'function');
		if (missing.length) throw new MissingAdapterMethods(`The adapter lacks ${missing.join(', ')} for email provider "${provider.id}".`);
	},
	env: { SERVER: 'server', FROM: 'from', KEY: 'apiKey' },
	start: startEmailSignIn,
	// The user's address is a way in: an account may be unlinked while they have one.
	keepsSignIn: (_ctx, _provider, user) => !!user.email,
	users: byMailbox,
	callback: {
		methods: ['GET', 'POST'],
		// Only the POST signs in, and it must carry the CSRF token; the GET changes nothing.
		protection: 'token',
		async run(req, ctx, provider) {
			if (req.method === 'GET') return { response: await confirmation(req, ctx, provider) };
			if (req.body.code !== undefined && req.body.token === undefined) return verifyCode(req, ctx, provider);
			return { identity: await verifyLink(req, ctx, provider) };
		}
	},
	verifyRequest: emailVerifyRequest,
	// The address typed into the form: shown again when the sign-in is refused.
	publicView: () => ({ keptFields: EMAIL_FIELDS })
};

const EMAIL_FIELDS = Object.freeze(['email']);
