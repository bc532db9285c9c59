import { current } from '../../adapter.js';
import { timingSafeEqual } from '../../crypto/index.js';
import type { Adapter } from '../../types/adapter.js';
import { attemptTicket, CODE_ATTEMPTS, codeOf, type CodeScope } from './derive.js';

type TicketStore = Required<Pick<Adapter, 'useVerificationToken' | 'createVerificationToken'>>;

/**
 * What a typed code came to: right (the caller now uses the link itself up), wrong with the
 * attempt the next guess starts from, or spent (no ticket left, or the code has expired).
 */
export type Guess = { result: 'right' } | { result: 'wrong'; next: number } | { result: 'spent' };

/**
 * Compares a code (already of a code's shape, see `typedCode`) with the one of the link whose
 * stored hash is `pending.hash`: first consumes one attempt ticket from the store, so at most
 * {@link CODE_ATTEMPTS} codes are ever compared per link, however the browser's cookie is replayed
 * or the requests interleaved; a wrong code leaves the next ticket (until `pending.until`).
 */
export async function guessCode(store: TicketStore, scope: CodeScope, pending: { hash: string; attempt: number; until: number }, typed: string): Promise<Guess> {
	const attempt = await takeTicket(store, scope, pending.hash, pending.attempt);
	if (attempt === undefined) return { result: 'spent' };
	if (timingSafeEqual(typed, await codeOf(scope, pending.hash))) return { result: 'right' };
	const next = attempt + 1;
	if (next >= CODE_ATTEMPTS) return { result: 'spent' };
	await store.createVerificationToken({ ...(await attemptTicket(scope, pending.hash, next)), expires: new Date(pending.until) });
	return { result: 'wrong', next };
}

/**
 * Consumes the first ticket left from `from` on; its number, or undefined when none is left or
 * it has expired (the code's lifetime is kept in the store, not only in the cookie).
 */
async function takeTicket(store: TicketStore, scope: CodeScope, hash: string, from: number): Promise<number | undefined> {
	for (let attempt = Math.max(0, from); attempt < CODE_ATTEMPTS; attempt++) {
		const ticket = await store.useVerificationToken(await attemptTicket(scope, hash, attempt));
		if (!ticket) continue;
		return current(ticket) ? attempt : undefined;
	}
	return undefined;
}
