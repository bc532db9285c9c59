import { twoFactor } from '../../../demo/auth.js';
import type { Actions } from './$types';

// The sign-in's second step (`pages.twoFactor`): kitauth's form action checks the code.
export const actions: Actions = { verifyTwoFactor: twoFactor.actions().verifyTwoFactor };
