import type { ClientProvider, LinkedAccount, PasskeyInfo, Session, SessionPage } from '#lib';
import { demoStrategy } from './database.js';

/**
 * The benchmark's bare page (`/bench/page`) renders exactly what `/account` renders for a
 * signed-in user, layout included, from this static data: the two differ only by the auth work
 * (session read, sessions and accounts lookups), which is what `npm run bench` compares.
 */
const epoch = new Date(0).toISOString();
const user = { name: 'Bench User', email: 'bench@example.com' };

export const benchSession: Session = { user, expires: epoch };

/** `/bench/page?session` reads the session as `/account` does (layout included); bare, it reads none. */
export const benchReadsSession = (url: URL): boolean => url.searchParams.has('session');

export const benchAccountData: {
	user: typeof user;
	expires: string;
	/** As `/account` has them: a page of sessions with database sessions, none with JWTs. */
	sessions: SessionPage | null;
	accounts: LinkedAccount[];
	providers: ClientProvider[];
	/** As `/account` lists them (the bench user has none). */
	passkeys: PasskeyInfo[];
} = {
	user,
	expires: epoch,
	sessions:
		demoStrategy() === 'database'
			? {
					current: { id: 'bench', current: true, createdAt: epoch, expires: epoch, userAgent: 'autocannon' },
					others: [],
					totalOthers: 0,
					nextCursor: null
				}
			: null,
	accounts: [],
	providers: [{ id: 'local', name: 'Local test IdP', type: 'oidc' }],
	passkeys: []
};
