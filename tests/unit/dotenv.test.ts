import { describe, expect, it } from 'vitest';
import { envFileAuthVariables, type EnvFileReader } from '../../src/lib/sveltekit/dotenv.js';

/** Files in memory, parsed as `KEY=value` lines (the real reader uses Node's `util.parseEnv`). */
function reader(files: Record<string, string>): EnvFileReader & { reads: string[] } {
	const reads: string[] = [];
	return {
		reads,
		read(path) {
			reads.push(path);
			return files[path];
		},
		parse: (text) => Object.fromEntries(text.split('\n').filter(Boolean).map((line) => line.split('=', 2) as [string, string]))
	};
}

describe('the AUTH_* variables of an app’s .env files (development servers)', () => {
	it('reads the files Vite reads, in its order, a later file winning', () => {
		const files = reader({
			'/app/.env': 'AUTH_SECRET=from-env\nAUTH_URL=http://localhost:5173',
			'/app/.env.local': 'AUTH_SECRET=from-local',
			'/app/.env.development': 'AUTH_TRUST_HOST=true',
			'/app/.env.development.local': 'AUTH_URL=http://127.0.0.1:5173'
		});
		expect(envFileAuthVariables('/app', 'development', files)).toEqual({
			AUTH_SECRET: 'from-local',
			AUTH_URL: 'http://127.0.0.1:5173',
			AUTH_TRUST_HOST: 'true'
		});
		expect(files.reads).toEqual(['/app/.env', '/app/.env.local', '/app/.env.development', '/app/.env.development.local']);
	});

	it('takes only AUTH_* and the legacy NEXTAUTH_* variables', () => {
		const files = reader({ '/app/.env': 'NODE_ENV=production\nDATABASE_URL=file:x.db\nNEXTAUTH_SECRET=legacy\nAUTH_GITHUB_ID=gh' });
		expect(envFileAuthVariables('/app', 'development', files)).toEqual({ NEXTAUTH_SECRET: 'legacy', AUTH_GITHUB_ID: 'gh' });
	});

	it('uses the mode’s files and no other mode’s', () => {
		const files = reader({ '/app/.env.staging': 'AUTH_SECRET=staging', '/app/.env.development': 'AUTH_SECRET=development' });
		expect(envFileAuthVariables('/app', 'staging', files)).toEqual({ AUTH_SECRET: 'staging' });
	});

	it('is empty without files', () => {
		expect(envFileAuthVariables('/app', 'development', reader({}))).toEqual({});
	});
});
