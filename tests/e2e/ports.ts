/**
 * Every port the end-to-end run listens on, derived from `E2E_PORT` so parallel runs on one
 * machine (each with its own E2E_PORT) never clash. Each demo server's local IdP is its port + 1.
 */
const base = Number(process.env.E2E_PORT ?? 4173);

export const PORTS = {
	/** The demo on database sessions (most tests). */
	database: base,
	/** The demo on JWT sessions with the built-in pages. */
	jwt: base + 2,
	/** Demos started by a test itself (start-up checks). */
	startup: base + 4
} as const;

export const idpPort = (port: number): number => port + 1;
