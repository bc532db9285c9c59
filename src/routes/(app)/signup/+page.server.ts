import { passwords } from '../../../demo/auth.js';
import type { Actions } from './$types';

// Creating a password account: kitauth's form action checks, hashes and stores it.
export const actions: Actions = { signUp: passwords.actions().signUp };
