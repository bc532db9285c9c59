import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '@libsql/client';

/**
 * The demo's database: `DATABASE_URL` (any libSQL URL, with `DATABASE_AUTH_TOKEN` for a remote
 * server), else an embedded file `.kitauth/demo.db` that needs no set-up.
 */
export function demoDatabase(): Config {
	const url = process.env.DATABASE_URL;
	if (url) return { url, authToken: process.env.DATABASE_AUTH_TOKEN };
	mkdirSync(join(process.cwd(), '.kitauth'), { recursive: true });
	return { url: `file:${join(process.cwd(), '.kitauth', 'demo.db')}` };
}

/** `KITAUTH_DEMO_SESSION=jwt` runs the demo on JWT sessions; database sessions are the default. */
const strategy = process.env.KITAUTH_DEMO_SESSION === 'jwt' ? 'jwt' : 'database';

export function demoStrategy(): 'jwt' | 'database' {
	return strategy;
}
