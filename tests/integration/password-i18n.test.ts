/**
 * Password accounts speak the request's language (`Accept-Language`, through the real `Auth()` and
 * libSQL, mail through a real SMTP server): the sign-up page, a refused password with the length
 * it needs, the "check your email" page and the reset message in German; English where nothing
 * asks otherwise.
 */
import { parseHTML } from 'linkedom';
import nodemailer from 'nodemailer';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { scryptHasher } from '../../src/lib/core/passwords/hash.js';
import Password, { passwordResetMessage } from '../../src/lib/providers/password.js';
import { startSmtp, type TestMailbox } from '../support/smtp.js';
import { dbSetup, openStore, type Store } from './database-fixtures.js';
import type { Setup } from './fixtures.js';

const GERMAN = { headers: { 'accept-language': 'de-DE,de;q=0.9,en;q=0.5' } };
const FAST = scryptHasher({ N: 2 ** 10, r: 8, p: 1 });

let store: Store;
let mailbox: TestMailbox;
let delivered: Promise<void>;
beforeEach(async () => {
	[store, mailbox] = await Promise.all([openStore('memory'), startSmtp()]);
});
afterEach(async () => {
	await Promise.all([store.close(), mailbox.close()]);
});

/** An app whose reset messages are kitauth's, in the language the send is given, sent over SMTP. */
function app(): Setup {
	const transport = nodemailer.createTransport(mailbox.url);
	let done: () => void = () => {};
	delivered = new Promise((resolve) => (done = resolve));
	return dbSetup(store, {
		providers: [
			Password({
				hasher: FAST,
				sendPasswordReset: async (request) => {
					const { subject, text, html } = passwordResetMessage(request);
					await transport.sendMail({ from: 'app@example.com', to: request.identifier, subject, text, html });
					done();
				}
			})
		]
	});
}

const documentOf = async (res: Response) => parseHTML(await res.text()).document;

describe('password accounts in the request language', () => {
	test('the sign-up page and a refused password in German; in English without Accept-Language', async () => {
		const s = app();
		const page = await documentOf(await s.client().get('signup/password', GERMAN));
		expect(page.documentElement.getAttribute('lang')).toBe('de');
		expect(page.querySelector('title')?.textContent).toBe('Konto erstellen');
		expect(page.querySelector('h1')?.textContent).toBe('Konto erstellen');
		expect(page.querySelector('button')?.textContent?.trim()).toBe('Konto erstellen');
		expect(page.body.textContent).toContain('8 bis 128 Zeichen, ganz nach Ihrer Wahl.');
		expect(page.body.textContent).not.toContain('any you like');

		const refused = await s.client().postForm('signup/password', { email: 'anna@example.com', password: 'kurz' }, GERMAN);
		expect(refused.status).toBe(400);
		const html = await refused.text();
		expect(html).toContain('Dieses Passwort ist zu kurz. Verwenden Sie mindestens 8 Zeichen.');
		expect(html).not.toContain('too short');
		const common = await s.client().postForm('signup/password', { email: 'not an address', password: 'password1234' }, GERMAN);
		const commonHtml = await common.text();
		expect(commonHtml).toContain('Dieses Passwort ist zu verbreitet: Wählen Sie ein anderes.');
		expect(commonHtml).toContain('Geben Sie eine einzelne E-Mail-Adresse ein, etwa name@example.com.');

		const english = await s.client().postForm('signup/password', { email: 'anna@example.com', password: 'short' });
		expect(await english.text()).toContain('This password is too short. Use at least 8 characters.');
	});

	test('the reset message and the pages around it in German', async () => {
		const s = app();
		await s.client().postForm('signup/password', { email: 'anna@example.com', password: 'correct horse battery staple' });
		const asked = await s.client().postForm('forgot-password/password', { email: 'anna@example.com' }, GERMAN);
		expect(asked.status).toBe(302);
		await delivered;

		const [mail] = mailbox.to('anna@example.com');
		expect(mail?.subject).toBe('Neues Passwort für localhost:3000 wählen');
		expect(mail?.text).toContain('Der Link gilt 15 Minuten lang und nur einmal.');
		expect(mail?.html).toContain('lang="de"');
		expect(mail?.html).toContain('>Neues Passwort wählen</a>');
		expect(mail?.text).not.toContain('The link works once');

		const sent = await documentOf(await s.client().get('reset-password/password', GERMAN));
		expect(sent.querySelector('h1')?.textContent).toBe('Sehen Sie in Ihr Postfach');
		expect(sent.body.textContent).toContain('Falls ein Konto diese Adresse verwendet');

		const link = new URL(mail!.text!.match(/http:\/\/\S+/)![0]);
		const form = await documentOf(await s.client().get(`reset-password/password${link.search}`, GERMAN));
		expect(form.querySelector('h1')?.textContent).toBe('Neues Passwort wählen');
		expect(form.querySelector('label')?.textContent?.trim()).toBe('Neues Passwort');
		const tooLong = await s.client().postForm(
			'reset-password/password',
			{ user: link.searchParams.get('user')!, token: link.searchParams.get('token')!, password: 'x'.repeat(129) },
			GERMAN
		);
		expect(tooLong.status).toBe(400);
		expect(await tooLong.text()).toContain('Dieses Passwort ist zu lang. Verwenden Sie höchstens 128 Zeichen.');
	});
});
