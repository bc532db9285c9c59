import { listProviders } from 'kitauth';
import { config, signIn, signOut } from '../../auth.js';

export const load = () => ({ providers: listProviders(config) });

export const actions = { signIn, signOut };
