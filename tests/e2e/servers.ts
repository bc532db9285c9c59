/**
 * The demo servers of the end-to-end run. Every port is derived from `E2E_PORT` so parallel runs
 * on one machine (each with its own E2E_PORT) never clash; each demo's local IdP is its port + 1,
 * and the test SMTP server is `E2E_PORT + 6`.
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
	smtp: base + 6
} as const;

export const idpPort = (port: number): number => port + 1;

/** The servers' AUTH_SECRET: tests decrypt session cookies with it to see what the server sealed. */
export const E2E_SECRET = 'e2e-secret-0123456789abcdef0123456789abcdef';
