import { defineConfig } from '@playwright/test';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const PORT = Number(process.env.E2E_PORT ?? 4173);
// A fresh database per run (the demo migrates it at start-up).
const DATABASE_URL = `file:${join(mkdtempSync(join(tmpdir(), 'kitauth-e2e-')), 'demo.db')}`;

/**
 * End-to-end tests against the built demo (`npm run build` first; `npm test` does it), served by
 * adapter-node on 127.0.0.1 and driven in the OS Chromium (Playwright cannot download browsers here).
 */
export default defineConfig({
	testDir: 'tests/e2e',
	testMatch: '**/*.e2e.ts',
	workers: 1,
	retries: 0,
	reporter: [['list']],
	outputDir: 'test-results',
	use: {
		baseURL: `http://127.0.0.1:${PORT}`,
		browserName: 'chromium',
		headless: true,
		// adapter-node 6 assumes https unless told the protocol by this header (see webServer env).
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
				'--disable-sync'
			]
		}
	},
	webServer: {
		command: 'node build',
		env: {
			HOST: '127.0.0.1',
			PORT: String(PORT),
			PROTOCOL_HEADER: 'x-forwarded-proto',
			AUTH_SECRET: 'e2e-secret-0123456789abcdef0123456789abcdef',
			AUTH_TRUST_HOST: 'true',
			DATABASE_URL,
			// The demo's local OpenID Provider (offered when no real provider is configured).
			DEMO_IDP_PORT: String(PORT + 1),
			NODE_OPTIONS: '--disable-warning=ExperimentalWarning'
		},
		url: `http://127.0.0.1:${PORT}/bench/bare`,
		reuseExistingServer: false,
		timeout: 30_000,
		stdout: 'pipe'
	}
});
