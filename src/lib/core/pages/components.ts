/**
 * The Svelte components the built-in pages render — the component kit's own presentational
 * components — and the renderer. The only module of the core that imports Svelte: the package
 * ships it prebuilt (`scripts/build-pages.ts`, run by `npm run package`: compiled for the server
 * with its styles, Svelte's server runtime included), so the packaged core runs in plain Node,
 * without a bundler or Svelte's compiler. Nothing here may import SvelteKit (`$app/*`).
 */
export { render } from 'svelte/server';
export { createRawSnippet } from 'svelte';
export { default as Page } from './Page.svelte';
export { default as ConfirmSignIn } from '../../components/parts/ConfirmSignIn.svelte';
export { default as ErrorPage } from '../../components/parts/ErrorPage.svelte';
export { default as PasswordAccount } from '../../components/parts/PasswordAccount.svelte';
export { default as PasswordLink } from '../../components/parts/PasswordLink.svelte';
export { default as SignIn } from '../../components/parts/SignIn.svelte';
export { default as SignOut } from '../../components/parts/SignOut.svelte';
export { default as VerifyRequest } from '../../components/parts/VerifyRequest.svelte';
export { default as TwoFactorChallenge } from '../../components/parts/TwoFactorChallenge.svelte';
export { default as TwoFactorSetup } from '../../components/parts/TwoFactorSetup.svelte';
export { default as BackupCodes } from '../../components/parts/BackupCodes.svelte';
