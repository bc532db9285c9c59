/**
 * Every method of the Adapter interface, kitauth's extensions included, from one dialect's parts:
 * what each method does with rows is decided here once; a dialect brings its schema, its
 * statements and its error class (`statements.ts`).
 */
import type { Adapter } from '../../core/types/adapter.js';
import { authenticatorMethods } from './authenticators.js';
import { counterMethods } from './counters.js';
import { cutoffMethods } from './cutoffs.js';
import { passwordMethods } from './passwords.js';
import { sessionMethods } from './sessions.js';
import type { DialectParts } from './statements.js';
import { twoFactorMethods } from './two-factor.js';
import { userMethods } from './users.js';

export function adapterMethods(parts: DialectParts): Required<Adapter> {
	// A plain object with own methods: the core wraps `Object.entries(adapter)`.
	return {
		...userMethods(parts),
		...sessionMethods(parts),
		...authenticatorMethods(parts),
		...counterMethods(parts),
		...cutoffMethods(parts),
		...passwordMethods(parts),
		...twoFactorMethods(parts)
	};
}
