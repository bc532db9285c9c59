/**
 * The sign-in email as it arrives (a real SMTP server, a real libSQL store): a multipart message
 * with a plain-text and an HTML part, in the language of the request that asked for it, with the
 * app's name and brand colour, readable in light and dark.
 */
import { afterEach, expect, test } from 'vitest';
import { emailSetup, lastMessageTo, openEmailWorld, type EmailWorld } from './email-fixtures.js';

const worlds: EmailWorld[] = [];
afterEach(async () => {
	while (worlds.length) await worlds.pop()!.close();
});

test('German, as Accept-Language asks: subject, text and HTML parts; the app name and brand colour', async () => {
	const world = await openEmailWorld();
	worlds.push(world);
	const client = emailSetup(world, {}, { theme: { name: 'Acme', brandColor: '#0b6e4f' } }).client();
	await client.postForm('signin/nodemailer', { email: 'ann@example.com' }, { headers: { 'accept-language': 'de-DE,de;q=0.9,en;q=0.8' } });
	const { message, link } = lastMessageTo(world, 'ann@example.com');
	expect(message.subject).toBe('Bei Acme anmelden');
	expect(message.text).toContain(link.href);
	expect(message.text).toMatch(/Der Link gilt 24 Stunden lang und nur einmal\. Wenn Sie keine Anmeldung angefordert haben/);
	const html = String(message.html);
	expect(html).toContain('<html lang="de" dir="ltr">');
	expect(html).toContain('Bei <strong>Acme</strong> anmelden');
	expect(html).toContain('background:#0b6e4f;color:#ffffff;');
	expect(html).toContain('<meta name="color-scheme" content="light dark">');
	expect(html).toContain('@media (prefers-color-scheme:dark)');
});

test('Arabic with a code: right to left, the code in both parts', async () => {
	const world = await openEmailWorld();
	worlds.push(world);
	const client = emailSetup(world, { code: true }).client();
	await client.postForm('signin/nodemailer', { email: 'bo@example.com' }, { headers: { 'accept-language': 'ar' } });
	const { message } = lastMessageTo(world, 'bo@example.com');
	expect(message.subject).toBe('تسجيل الدخول إلى localhost:3000');
	const code = /أو أدخل هذا الرمز في صفحة تسجيل الدخول: (\d{4} \d{4})/.exec(message.text ?? '')?.[1];
	expect(code).toMatch(/^\d{4} \d{4}$/);
	expect(String(message.html)).toContain('<html lang="ar" dir="rtl">');
	expect(String(message.html)).toContain(`>${code}</span>`);
});
