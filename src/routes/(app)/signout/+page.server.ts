import { signOut } from '../../../demo/auth.js';
import type { Actions } from './$types';

export const actions: Actions = { signOut };
