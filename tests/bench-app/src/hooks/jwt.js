import { sequence } from '@sveltejs/kit/hooks';
import { SvelteKitAuth } from 'kitauth';
import { benchProvider, benchRateLimit } from '../lib/bench-auth.js';

/**
 * kitauth's smallest useful set-up: a credentials provider on JWT sessions (no adapter, no
 * database). The secret and the trusted host come from the environment (AUTH_SECRET, AUTH_TRUST_HOST).
 */
const { handle: kitauth } = SvelteKitAuth({ providers: [benchProvider], rateLimit: benchRateLimit });

export const handle = sequence(kitauth);
