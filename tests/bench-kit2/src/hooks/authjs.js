import { SvelteKitAuth } from '@auth/sveltekit';
import Credentials from '@auth/sveltekit/providers/credentials';
import { authorize, credentials } from '../lib/bench-user.js';

/**
 * @auth/sveltekit, set up as the `kitauth` build is: a credentials provider on JWT sessions (its
 * default without an adapter). The secret comes from the environment (AUTH_SECRET); the trusted
 * host is set here, as @auth/sveltekit ignores AUTH_TRUST_HOST in a production build.
 */
export const { handle } = SvelteKitAuth({ providers: [Credentials({ credentials, authorize })], trustHost: true });
