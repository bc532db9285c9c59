/**
 * The demo servers of the end-to-end run. Every port is derived from `E2E_PORT` so parallel runs
 * on one machine (each with its own E2E_PORT) never clash; each demo's local IdP is its port + 1,
 * the test SMTP server is `E2E_PORT + 6`, the passkey demo `E2E_PORT + 7` (its IdP + 8), and the
 * docs site `E2E_PORT + 9`.
 */
const base = Number(process.env.E2E_PORT ?? 4173);

export const PORTS = {
	/** The demo on database sessions (most tests). */
	database: base,
	/** The demo on JWT sessions with the built-in pages. */
	jwt: base + 2,
	/** Demos started by a test itself (start-up checks). */
	startup: base + 4,
	/** The SMTP server the email tests start; the database demo sends its sign-in emails there. */
	smtp: base + 6,
	/** The demo for passkeys, reached as http://localhost (browsers refuse WebAuthn on 127.0.0.1). */
	passkeys: base + 7,
	/** The documentation site, prerendered and served as static files (`npm run docs`). */
	docs: base + 9
} as const;

/** The passkey demo's "sudo mode" window: short, so a test can wait it out. */
export const PASSKEY_REAUTH_SECONDS = 8;

export const idpPort = (port: number): number => port + 1;

/** The servers' AUTH_SECRET: tests decrypt session cookies with it to see what the server sealed. */
export const E2E_SECRET = 'e2e-secret-0123456789abcdef0123456789abcdef';
