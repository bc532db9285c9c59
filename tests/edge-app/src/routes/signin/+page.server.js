import { providers, signIn, signOut } from '../../auth.js';

export const load = () => ({ providers: providers() });

export const actions = { signIn, signOut };
