import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseEnv } from 'node:util';

const DEV_SECRET_FILE = join(process.cwd(), '.kitauth', 'dev-secret');

/** The variables kitauth takes its secret from. */
const SECRET_VARIABLES = ['AUTH_SECRET', 'AUTH_SECRET_1', 'AUTH_SECRET_2', 'AUTH_SECRET_3', 'NEXTAUTH_SECRET'];

/** The `.env` files `vite dev` loads (kitauth reads their `AUTH_*` variables there too). */
const DEV_ENV_FILES = ['.env', '.env.local', '.env.development', '.env.development.local'];

/**
 * The demo's secret: none of its own when the environment has one (`AUTH_SECRET`,
 * `AUTH_SECRET_1..3`, `NEXTAUTH_SECRET`; in development also in a `.env` file): kitauth reads them
 * itself. In development without one, a random secret is made once and kept in
 * `.kitauth/dev-secret` (git-ignored) so sessions survive restarts. In production it returns
 * nothing, and kitauth refuses to run (MissingSecretError).
 */
export function demoSecret(dev: boolean): string | undefined {
	if (SECRET_VARIABLES.some((name) => process.env[name])) return undefined;
	if (!dev || devEnvFilesHaveSecret()) return undefined;
	try {
		return readFileSync(DEV_SECRET_FILE, 'utf8').trim();
	} catch {
		const secret = randomBytes(33).toString('base64');
		mkdirSync(join(process.cwd(), '.kitauth'), { recursive: true });
		writeFileSync(DEV_SECRET_FILE, `${secret}\n`, { mode: 0o600 });
		return secret;
	}
}

function devEnvFilesHaveSecret(): boolean {
	return DEV_ENV_FILES.some((file) => {
		let text: string;
		try {
			text = readFileSync(join(process.cwd(), file), 'utf8');
		} catch {
			return false;
		}
		const variables = parseEnv(text);
		return SECRET_VARIABLES.some((name) => variables[name]);
	});
}
