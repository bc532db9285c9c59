/** What the `Password()` provider's pages say of a refused address or password, in the request's language. */
import type { Translator } from '../../../i18n/index.js';
import type { PasswordProblem, PasswordRules } from '../../types/password.js';

export const invalidEmailText = (i18n: Translator): string => i18n.t('password.invalidEmail');

/** Why a new password was refused, with the length it must have. */
export function passwordProblemText(i18n: Translator, problem: PasswordProblem, rules: Required<PasswordRules>): string {
	if (problem === 'too-short') return i18n.t('password.tooShort', { count: rules.minLength });
	if (problem === 'too-long') return i18n.t('password.tooLong', { count: rules.maxLength });
	return i18n.t('password.common');
}
