import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { envSecrets } from '#lib/core/env.js';
import { kitEnv } from '#lib/sveltekit/env.js';

const DEV_SECRET_FILE = join(process.cwd(), '.kitauth', 'dev-secret');

/**
 * The demo's secret: none of its own when the environment has one (`AUTH_SECRET`,
 * `AUTH_SECRET_1..3`, `NEXTAUTH_SECRET`; in development also from a `.env` file): kitauth reads
 * them itself, and this asks its reader. In development without one, a random secret is made once
 * and kept in `.kitauth/dev-secret` (git-ignored) so sessions survive restarts. In production it
 * returns nothing, and kitauth refuses to run (MissingSecretError).
 */
export function demoSecret(dev: boolean): string | undefined {
	if (envSecrets(kitEnv()).length) return undefined;
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
