/**
 * The Svelte components the built-in pages render, and the renderer. The only module of the core
 * that imports Svelte: the package ships it prebuilt (`scripts/build-pages.ts`, run by
 * `npm run package`: compiled for the server with its styles, Svelte's server runtime included),
 * so the packaged core runs in plain Node, without a bundler or Svelte's compiler.
 */
export { render } from 'svelte/server';
export { default as ConfirmSignInPage } from './ConfirmSignInPage.svelte';
export { default as ErrorPage } from './ErrorPage.svelte';
export { default as SignInPage } from './SignInPage.svelte';
export { default as SignOutPage } from './SignOutPage.svelte';
export { default as VerifyRequestPage } from './VerifyRequestPage.svelte';
