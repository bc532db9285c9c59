import { signOut } from '../../auth.js';

/** As Auth.js's guide has it: the sign-out button posts to this page's default action. */
export const actions = { default: signOut };
