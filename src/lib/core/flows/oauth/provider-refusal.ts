import * as o from 'oauth4webapi';

/** How much of a provider's own words goes into the log. */
const MAX_LENGTH = 300;

/**
 * What the provider said when it refused a request of ours (a code exchange, a refresh): its
 * `error` and `error_description` (RFC 6749 §5.2), from the body or a `WWW-Authenticate`
 * challenge, with its status — for the log, so "invalid_client" reads as a wrong client secret
 * rather than a bare `ResponseBodyError`. Printable and bounded, and the values in `redact` (the
 * client secret, the code, the refresh token) are blanked out should the provider echo them.
 * `undefined` when the failure was not the provider's refusal.
 */
export function providerRefusal(error: unknown, redact: readonly (string | undefined)[]): string | undefined {
	let code: unknown;
	let description: unknown;
	let status: number;
	if (error instanceof o.ResponseBodyError) {
		({ error: code, error_description: description, status } = error);
	} else if (error instanceof o.WWWAuthenticateChallengeError) {
		const parameters = error.cause.find((challenge) => challenge.parameters.error)?.parameters;
		({ error: code, error_description: description } = parameters ?? {});
		status = error.status;
	} else {
		return undefined;
	}
	if (typeof code !== 'string' || code === '') return undefined;
	let said = typeof description === 'string' && description !== '' ? `${code} (${description})` : code;
	for (const value of redact) if (value) said = said.split(value).join('[redacted]');
	// eslint-disable-next-line no-control-regex
	said = said.replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ');
	return `${status} ${said.length > MAX_LENGTH ? `${said.slice(0, MAX_LENGTH)}…` : said}`;
}
