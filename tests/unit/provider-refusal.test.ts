/**
 * What a provider said when it refused a request of ours, as the log shows it (`providerRefusal`):
 * its `error` and `error_description`, from a response body or a `WWW-Authenticate` challenge,
 * bounded, printable, and with the values it must never show (secret, code, refresh token) blanked.
 */
import * as o from 'oauth4webapi';
import { expect, test } from 'vitest';
import { providerRefusal } from '../../src/lib/core/flows/oauth/provider-refusal.js';

test('what the provider said is bounded, printable, and never carries a value to redact', () => {
	const echo = new o.ResponseBodyError('server responded with an error in the response body', {
		cause: { error: 'invalid_grant', error_description: `code the-code-value is unknown\r\nInjected: yes ${'x'.repeat(500)}` },
		response: new Response(null, { status: 400 })
	});
	const said = providerRefusal(echo, ['the-code-value', undefined])!;
	expect(said.startsWith('400 invalid_grant (code [redacted] is unknown  Injected: yes')).toBe(true);
	expect(said).not.toMatch(/[\r\n]/);
	expect(said.length).toBeLessThan(320);
	expect(providerRefusal(new Error('socket hang up'), [])).toBeUndefined();
});

test('a WWW-Authenticate challenge says it too', () => {
	const response = new Response(null, { status: 401, headers: { 'www-authenticate': 'Basic realm="idp", error="invalid_client", error_description="bad secret s3cr3t"' } });
	const challenge = new o.WWWAuthenticateChallengeError('server responded with a challenge', {
		cause: [{ scheme: 'basic', parameters: { realm: 'idp', error: 'invalid_client', error_description: 'bad secret s3cr3t' } }],
		response
	});
	expect(providerRefusal(challenge, ['s3cr3t'])).toBe('401 invalid_client (bad secret [redacted])');
});
