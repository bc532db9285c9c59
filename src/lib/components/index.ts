/**
 * kitauth's Svelte 5 component kit. Each component posts plain HTML forms to your form actions
 * (working without JavaScript) and enhances them with SvelteKit's `use:enhance`. Their
 * presentational parts import nothing from SvelteKit: the built-in pages render the same ones.
 */
export { default as SignIn } from './SignIn.svelte';
export { default as SignOut } from './SignOut.svelte';
export { default as ErrorPage } from './parts/ErrorPage.svelte';
export { default as VerifyRequest } from './VerifyRequest.svelte';
export { default as SessionList } from './SessionList.svelte';
export { default as LinkedAccounts } from './LinkedAccounts.svelte';
export { describeDevice, type DeviceName } from './device.js';
export { iconMarkup, providerIcon, providerIcons, type MonochromeIcon, type MulticolorIcon, type ProviderIcon } from './icons.js';
export { buttonColors, contrast, type ButtonColors } from './parts/colors.js';
export type { Enhance, FormFailure, FormTarget, HeadingLevel, PasskeyAnswer, Theme } from './parts/types.js';
export { default as PasskeyButton } from './PasskeyButton.svelte';
/** The passkey button's markup in the state it is given, running no ceremony (`PasskeyButton` runs one). */
export { default as PasskeyButtonView } from './parts/PasskeyButton.svelte';
export { default as PasskeyList } from './PasskeyList.svelte';
export { default as TwoFactorChallenge } from './TwoFactorChallenge.svelte';
export { default as TwoFactorSetup } from './TwoFactorSetup.svelte';
export { default as BackupCodes } from './BackupCodes.svelte';
export { default as ChangePassword } from './ChangePassword.svelte';
export { default as SignUp } from './SignUp.svelte';
export { default as ForgotPassword } from './ForgotPassword.svelte';
export { default as ResetPassword } from './ResetPassword.svelte';
export { setAuthI18n, type I18nProps } from './parts/i18n.js';
