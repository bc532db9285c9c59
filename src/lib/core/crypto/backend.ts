/**
 * The crypto backend the core uses. In the source tree (tests, Vite dev, the demo) it is chosen
 * at run time (`auto.ts`); in the package, `scripts/package-crypto.ts` rewrites this module to
 * import `#kitauth/crypto`, which package.json maps by export condition: the edge conditions to
 * `web/index.js`, everything else to `auto.js`.
 */
export { backend } from './auto.js';
