import { randomBytes } from 'node:crypto';
import { hashPassword, MAX_PASSWORD_LENGTH, verifyPassword } from './passwords.js';

export const DEMO_USER = { id: 'demo-user', email: 'demo@example.com', name: 'Demo User' } as const;
const DEMO_PASSWORD = 'demo-password';

/**
 * The demo's user table: email → user and password hash (a real app keeps these in its database).
 * Hashed at start-up, like every stored password: salted scrypt over a fixed-length prehash.
 */
const users = new Map<string, { user: typeof DEMO_USER; passwordHash: Promise<string> }>([
	[DEMO_USER.email, { user: DEMO_USER, passwordHash: hashPassword(DEMO_PASSWORD) }]
]);

/**
 * What an unknown email is checked against: a hash of a random password, with the same
 * parameters. An unknown email then costs the same scrypt as a known one, so the time taken does
 * not tell which emails have accounts.
 */
const decoy = hashPassword(randomBytes(32).toString('base64url'));

/** The demo user for the right email and password, otherwise `null` (in the same time either way). */
export async function checkDemoPassword(email: unknown, password: unknown) {
	if (typeof email !== 'string' || typeof password !== 'string') return null;
	const found = users.get(email.trim().toLowerCase());
	const usable = password.length > 0 && password.length <= MAX_PASSWORD_LENGTH;
	const matches = await verifyPassword(usable ? password : '', await (found?.passwordHash ?? decoy));
	return found && usable && matches ? { ...found.user } : null;
}
