import { SvelteKitAuth } from 'kitauth';
import Credentials from 'kitauth/providers/credentials';
import { authorize, credentials } from '../lib/bench-user.js';

/**
 * kitauth as published, set up as the `authjs` build is: a credentials provider on JWT sessions (no
 * adapter), the trusted host set here, the secret from the environment (AUTH_SECRET).
 */
export const { handle } = SvelteKitAuth({ providers: [Credentials({ credentials, authorize })], trustHost: true });
