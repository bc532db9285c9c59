export { default as SignIn } from './SignIn.svelte';
export { default as SignOut } from './SignOut.svelte';
export { default as PasskeyButton } from './PasskeyButton.svelte';
export { default as PasskeyList } from './PasskeyList.svelte';
