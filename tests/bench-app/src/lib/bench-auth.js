import Credentials from 'kitauth/providers/credentials';

/**
 * What the `jwt` and `libsql` builds share: a credentials provider without password hashing (the
 * limiter bench weighs the limiter against everything else a sign-in does), for `bench@example.com`
 * or `bench<n>@example.com` with the password `bench`.
 */
export const benchProvider = Credentials({
	credentials: { email: { label: 'Email', type: 'email' }, password: { label: 'Password', type: 'password' } },
	authorize: ({ email, password }) =>
		typeof email === 'string' && /^bench\d*@example\.com$/.test(email) && password === 'bench' ? { id: email.split('@')[0], email } : null
});

/**
 * `BENCH_APP_LIMITER` (tests/bench/limiter-http.ts): `on`, the limiter with budgets no bench
 * reaches (every attempt pays for its checks, none is refused); `off`, none. Unset: kitauth's
 * default (off outside production), which the footprint bench measures.
 */
export const benchRateLimit =
	process.env.BENCH_APP_LIMITER === 'on'
		? {
				enabled: true,
				rules: {
					credentials: {
						address: { limit: 1e9, window: 3600 },
						account: { freeAttempts: 1e9, delay: 0, maxDelay: 1, limit: 1e9, window: 3600 }
					}
				}
			}
		: process.env.BENCH_APP_LIMITER === 'off'
			? false
			: undefined;
