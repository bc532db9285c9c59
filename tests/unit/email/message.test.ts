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

describe('the look: responsive, light and dark', () => {
	test('a phone-width layout, and a dark form that clients are told about', () => {
		const { html } = verificationMessage({ url: URL_ });
		expect(html).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
		expect(html).toContain('<meta name="color-scheme" content="light dark">');
		expect(html).toMatch(/@media \(max-width:520px\)\{[^\n]*\.pad\{padding-left:20px !important;/);
		expect(html).toMatch(/@media \(prefers-color-scheme:dark\)\{[^\n]*\.card\{background:#1b1e25 !important;/);
		// The card never grows past a readable width.
		expect(html).toContain('max-width:480px;');
	});

	test("theme.colorScheme fixes the scheme: light only, or dark in the inline styles", () => {
		const light = verificationMessage({ url: URL_, theme: { colorScheme: 'light' } }).html;
		expect(light).toContain('<meta name="color-scheme" content="light">');
		expect(light).not.toContain('prefers-color-scheme');
		const dark = verificationMessage({ url: URL_, theme: { colorScheme: 'dark' } }).html;
		expect(dark).toContain('<meta name="color-scheme" content="dark">');
		expect(dark).toContain('<body class="page" style="margin:0;padding:0;background:#0f1115;">');
	});

	test("the app's name and brand colour; its logo only from an absolute http(s) URL", () => {
		const { subject, text, html } = verificationMessage({
			url: URL_,
			theme: { name: 'Acme <Shop>', brandColor: '#0b6e4f', logo: 'https://cdn.example/logo.png' }
		});
		expect(subject).toBe('Sign in to Acme <Shop>');
		expect(text.startsWith('Sign in to Acme <Shop>\n')).toBe(true);
		expect(html).toContain('Sign in to <strong>Acme &lt;Shop&gt;</strong>');
		expect(html).not.toContain('<Shop>');
		expect(html).toContain('border-top:4px solid #0b6e4f;');
		expect(html).toContain('<img src="https://cdn.example/logo.png"');
		for (const logo of ['/logo.png', 'javascript:alert(1)', 'data:image/png;base64,AAAA'])
			expect(verificationMessage({ url: URL_, theme: { logo } }).html).not.toContain('<img');
	});

	test('the link also as text, for clients that show no button; still one link', () => {
		const { html } = verificationMessage({ url: URL_ });
		expect(html).toContain('If the button does not work, open this link:<br><span dir="ltr" style="word-break:break-all;">');
		expect([...html.matchAll(/<a /g)]).toHaveLength(1);
	});
});

describe("in the reader's language", () => {
	test('German: subject, HTML and text, numbers and plurals', () => {
		const expires = new Date(Date.now() + 60_000);
		const { subject, text, html } = verificationMessage({ url: URL_, code: '12345678', expires, locale: 'de' });
		expect(subject).toBe('Bei app.example anmelden');
		expect(text).toContain('Oder geben Sie diesen Code auf der Anmeldeseite ein: 1234 5678');
		expect(text).toContain('Der Link gilt 1 Minute lang und nur einmal.');
		expect(html).toContain('<html lang="de" dir="ltr">');
		expect(html).toContain('>Anmelden</a>');
	});

	test('Arabic: right to left on the document and on the table (clients that drop <html> keep it)', () => {
		const expires = new Date(Date.now() + 2 * 60_000);
		const { subject, text, html } = verificationMessage({ url: URL_, expires, locale: 'ar' });
		expect(subject).toBe('تسجيل الدخول إلى app.example');
		expect(html).toContain('<html lang="ar" dir="rtl">');
		expect(html).toMatch(/<table role="presentation" class="page"[^>]* lang="ar" dir="rtl"/);
		expect(text).toContain('يعمل الرابط مرة واحدة فقط، لمدة دقيقتين.');
	});
});
