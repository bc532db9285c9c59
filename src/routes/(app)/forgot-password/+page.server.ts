import { passwords } from '../../../demo/auth.js';
import type { Actions } from './$types';

// Asking for a reset link: the same answer for known and unknown addresses.
export const actions: Actions = { forgotPassword: passwords.actions().forgotPassword };
