import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';

const scryptAsync = promisify(scrypt) as (password: string, salt: Buffer, length: number) => Promise<Buffer>;

export const DEMO_USER = { id: 'demo-user', email: 'demo@example.com', name: 'Demo User' } as const;
const DEMO_PASSWORD = 'demo-password';

// The demo keeps its one password the way a real app should: salted scrypt, compared in constant time.
const salt = randomBytes(16);
const stored = scryptAsync(DEMO_PASSWORD, salt, 32);

/** The demo user for the right email and password, otherwise `null`. */
export async function checkDemoPassword(email: unknown, password: unknown) {
	if (typeof email !== 'string' || typeof password !== 'string' || password.length > 1024) return null;
	const candidate = await scryptAsync(password, salt, 32);
	const matches = timingSafeEqual(candidate, await stored);
	return matches && email.trim().toLowerCase() === DEMO_USER.email ? { ...DEMO_USER } : null;
}
