import { defineConfig } from '@playwright/test';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { E2E_SECRET, idpPort, PASSKEY_REAUTH_SECONDS, PORTS } from './tests/e2e/servers.ts';

/** A fresh database per server and run (the demo migrates it at start-up). */
function freshDatabase(): string {
	return `file:${join(mkdtempSync(join(tmpdir(), 'kitauth-e2e-')), 'demo.db')}`;
}

/** The built demo served by adapter-node on 127.0.0.1, with its own port, database and IdP. */
function demoServer(port: number, env: Record<string, string> = {}) {
	return {
		command: 'node build',
		env: {
			HOST: '127.0.0.1',
			PORT: String(port),
			PROTOCOL_HEADER: 'x-forwarded-proto',
			AUTH_SECRET: E2E_SECRET,
			AUTH_TRUST_HOST: 'true',
			// The suites sign in many times from one address (the limits have tests of their own).
			AUTH_RATE_LIMIT: 'off',
			DATABASE_URL: freshDatabase(),
			// The demo's local OpenID Provider (offered when no real provider is configured).
			DEMO_IDP_PORT: String(idpPort(port)),
			NODE_OPTIONS: '--disable-warning=ExperimentalWarning',
			...env
		},
		url: `http://127.0.0.1:${port}/bench/bare`,
		reuseExistingServer: false,
		timeout: 30_000,
		stdout: 'pipe' as const
	};
}

/**
 * End-to-end tests against the built demo (`npm run build` first; `npm test` does it), driven in
 * the OS Chromium (Playwright cannot download browsers here). Two servers: the demo as it ships
 * (database sessions, its own /signin page), and the demo on JWT sessions with kitauth's built-in
 * pages; `*.jwt.e2e.ts` files run against the second. A third serves `*.passkey.e2e.ts` on
 * localhost with a short re-authentication window. The docs site (`*.docs.e2e.ts`) is served as
 * the static files `npm run docs` serves.
 */
export default defineConfig({
	testDir: 'tests/e2e',
	workers: 1,
	retries: 0,
	reporter: [['list']],
	outputDir: 'test-results',
	// Visual baselines, committed: one per screenshot, named the same on every platform and project.
	snapshotPathTemplate: '{testDir}/screenshots/{testFileName}/{arg}{ext}',
	expect: {
		toHaveScreenshot: {
			animations: 'disabled',
			caret: 'hide',
			scale: 'css',
			// Room for anti-aliasing differences between Chromium builds; a changed layout, colour or
			// text is far more than this.
			threshold: 0.2,
			maxDiffPixelRatio: 0.002
		}
	},
	use: {
		browserName: 'chromium',
		headless: true,
		deviceScaleFactor: 1,
		// adapter-node 6 assumes https unless told the protocol by this header (see PROTOCOL_HEADER).
		extraHTTPHeaders: { 'x-forwarded-proto': 'http' },
		launchOptions: {
			executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
			args: [
				'--no-sandbox',
				'--disable-gpu',
				'--disable-quic',
				'--no-first-run',
				'--disable-background-networking',
				'--disable-component-update',
				'--disable-sync',
				// Stable text for the visual baselines: no hinting or subpixel positioning from the
				// machine's font configuration, one colour profile.
				'--font-render-hinting=none',
				'--disable-font-subpixel-positioning',
				'--disable-lcd-text',
				'--force-color-profile=srgb'
			]
		}
	},
	projects: [
		{
			name: 'database-sessions',
			testMatch: '**/*.e2e.ts',
			testIgnore: ['**/*.jwt.e2e.ts', '**/*.passkey.e2e.ts', '**/*.passkey-jwt.e2e.ts', '**/*.docs.e2e.ts'],
			use: { baseURL: `http://127.0.0.1:${PORTS.database}` }
		},
		{
			name: 'jwt-sessions',
			testMatch: '**/*.jwt.e2e.ts',
			use: { baseURL: `http://127.0.0.1:${PORTS.jwt}` }
		},
		{
			// WebAuthn only works on a secure context with a domain: Chromium refuses 127.0.0.1, so
			// these tests use http://localhost (the server still listens on 127.0.0.1 only).
			name: 'passkeys',
			testMatch: '**/*.passkey.e2e.ts',
			use: { baseURL: `http://localhost:${PORTS.passkeys}` }
		},
		{
			// Passkeys on the built-in pages and JWT sessions, also through localhost.
			name: 'passkeys-jwt',
			testMatch: '**/*.passkey-jwt.e2e.ts',
			use: { baseURL: `http://localhost:${PORTS.jwt}` }
		},
		{
			// The documentation site as `npm run docs` serves it: static files, no demo.
			name: 'docs',
			testMatch: '**/*.docs.e2e.ts',
			use: { baseURL: `http://127.0.0.1:${PORTS.docs}` }
		}
	],
	webServer: [
		// Email sign-in over SMTP: email.e2e.ts runs the server this points at.
		demoServer(PORTS.database, { AUTH_EMAIL_SERVER: `smtp://127.0.0.1:${PORTS.smtp}`, AUTH_EMAIL_FROM: 'kitauth demo <no-reply@example.test>' }),
		demoServer(PORTS.jwt, { KITAUTH_DEMO_SESSION: 'jwt', KITAUTH_DEMO_PAGES: 'builtin' }),
		demoServer(PORTS.passkeys, { KITAUTH_DEMO_REAUTH_SECONDS: String(PASSKEY_REAUTH_SECONDS) }),
		{
			// Builds the site first when it is missing or older than its sources.
			command: 'node scripts/docs.ts',
			env: { DOCS_HOST: '127.0.0.1', DOCS_PORT: String(PORTS.docs) },
			url: `http://127.0.0.1:${PORTS.docs}/`,
			reuseExistingServer: false,
			timeout: 180_000,
			stdout: 'pipe' as const
		}
	]
});
