import { describe, expect, test } from 'vitest';
import { verificationMessage } from '../../../src/lib/providers/email.js';

const URL_ = 'https://app.example/auth/callback/email?callbackUrl=https%3A%2F%2Fapp.example&token=abc&email=ann%40example.com';

describe('verificationMessage', () => {
	test('subject, text and HTML: the link is the one call to action, the address is left out', () => {
		const { subject, text, html } = verificationMessage({ url: URL_ });
		expect(subject).toBe('Sign in to app.example');
		expect(text.split('\n')).toContain(URL_);
		expect([...html.matchAll(/<a /g)]).toHaveLength(1);
		expect(html).toContain(`href="${URL_.replaceAll('&', '&amp;')}"`);
		// The host cannot become a second link: invisible breaks before its dots.
		expect(html).toContain('app&#8203;.example');
		expect(html).not.toContain('ann@example.com');
	});

	test('a code is shown grouped, in both parts; the lifetime is said', () => {
		const expires = new Date(Date.now() + 15 * 60_000);
		const { text, html } = verificationMessage({ url: URL_, code: '12345678', expires });
		expect(text).toContain('Or enter this code on the sign-in page: 1234 5678');
		expect(html).toContain('1234 5678');
		expect(text).toContain('It works for 15 minutes, once.');
		expect(verificationMessage({ url: URL_, expires: new Date(Date.now() + 86_400_000) }).text).toContain('It works for 24 hours, once.');
	});

	test('theme colours are used only when they are plainly colours', () => {
		expect(verificationMessage({ url: URL_, theme: { brandColor: '#0b6e4f', buttonText: 'white' } }).html).toContain('background:#0b6e4f;color:white;');
		const hostile = verificationMessage({ url: URL_, theme: { brandColor: 'red;}</style><script>x()</script>', buttonText: 'url(https://evil.example)' } }).html;
		expect(hostile).not.toContain('<script');
		expect(hostile).not.toContain('evil.example');
		expect(hostile).toContain('background:#346df1;color:#ffffff;');
	});
});
