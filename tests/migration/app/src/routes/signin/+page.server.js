import { signIn } from '../../auth.js';

/** As Auth.js's guide has it: the sign-in form posts to this page's default action. */
export const actions = { default: signIn };
