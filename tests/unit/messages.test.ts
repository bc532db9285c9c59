import { describe, expect, test } from 'vitest';
import { ERROR_PAGES, errorPageText, SIGNIN_MESSAGES, signInMessage } from '../../src/lib/shared/messages.js';

// `?error=` is anyone's: only the tables' own keys may pick a text, never the prototype's.
const PROTOTYPE_KEYS = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'isPrototypeOf'];

describe('page texts for ?error=', () => {
	test('known values get their own text', () => {
		expect(signInMessage('MissingCSRF')).toBe(SIGNIN_MESSAGES.MissingCSRF);
		expect(errorPageText('AccessDenied')).toEqual(ERROR_PAGES.AccessDenied);
	});

	test.each(PROTOTYPE_KEYS)('%s gets the generic text', (value) => {
		expect(signInMessage(value)).toBe(SIGNIN_MESSAGES.default);
		expect(errorPageText(value)).toEqual(ERROR_PAGES.default);
	});

	test('no value on the error page is the generic text', () => {
		expect(errorPageText(undefined)).toEqual(ERROR_PAGES.default);
	});
});
