import { backend as node } from './node/index.js';
import { nodeCrypto } from './node/builtin.js';
import type { CryptoBackend } from './types.js';
import { backend as web } from './web/index.js';

/**
 * The backend for whatever runs this: Node's where node:crypto is Node's own, Web Crypto
 * elsewhere. This is what the package's `default` export condition gets; the edge conditions
 * (`workerd`, `worker`, `edge-light`, `deno`, `browser`) get `web/index.js` without the Node
 * backend at all. Deciding at run time covers bundles whose tools resolved kitauth as for Node
 * but that run elsewhere (Vite's SSR build for adapter-cloudflare does that by default).
 */
export const backend: CryptoBackend = nodeCrypto() ? node : web;
