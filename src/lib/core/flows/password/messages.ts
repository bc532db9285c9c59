/** What the `Password()` provider's pages say of a refused address or password. */
import type { PasswordProblem } from '../../types/password.js';

export const INVALID_EMAIL = 'Enter one email address, such as name@example.com.';

export const PASSWORD_PROBLEMS: Record<PasswordProblem, string> = {
	'too-short': 'This password is too short.',
	'too-long': 'This password is too long.',
	common: 'This password is too common: choose another.'
};
