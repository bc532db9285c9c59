import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const DEV_SECRET_FILE = join(process.cwd(), '.kitauth', 'dev-secret');

/**
 * The demo's secret: `AUTH_SECRET` when set. In development without one, a random secret is made
 * once and kept in `.kitauth/dev-secret` (git-ignored) so sessions survive restarts. In production
 * it returns nothing, and kitauth refuses to run (MissingSecretError).
 */
export function demoSecret(dev: boolean): string | undefined {
	if (process.env.AUTH_SECRET) return undefined; // kitauth reads AUTH_SECRET (and _1.._3) itself
	if (!dev) return undefined;
	try {
		return readFileSync(DEV_SECRET_FILE, 'utf8').trim();
	} catch {
		const secret = randomBytes(33).toString('base64');
		mkdirSync(join(process.cwd(), '.kitauth'), { recursive: true });
		writeFileSync(DEV_SECRET_FILE, `${secret}\n`, { mode: 0o600 });
		return secret;
	}
}
