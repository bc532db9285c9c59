/**
 * A real SMTP server for tests (`smtp-server` on 127.0.0.1, no TLS, no auth) that keeps every
 * message it accepts, parsed with `mailparser`. Its behaviour can be changed between requests:
 * refuse recipients or the message, or answer slowly, to test what the sender does then.
 */
import { createServer, type Server, type Socket } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface SmtpBehaviour {
	/** Refuse every recipient (`550` to RCPT TO) or every message (`554` after DATA). */
	refuse?: 'rcpt' | 'data';
	/** Milliseconds to wait before the greeting, or before accepting a message. */
	greetingDelay?: number;
	dataDelay?: number;
}

export interface TestMailbox {
	readonly port: number;
	/** `smtp://127.0.0.1:<port>` */
	readonly url: string;
	readonly messages: ParsedMail[];
	/** Connections the server has seen (also the refused and the slow ones). */
	readonly connections: number;
	behaviour: SmtpBehaviour;
	/** The messages sent to `address` (by the envelope recipient). */
	to(address: string): ParsedMail[];
	close(): Promise<void>;
}

export async function startSmtp(options: { port?: number } = {}): Promise<TestMailbox> {
	const messages: ParsedMail[] = [];
	const recipients = new WeakMap<ParsedMail, string[]>();
	const timers = new Set<ReturnType<typeof setTimeout>>();
	let connections = 0;
	const later = (ms: number | undefined, run: () => void) => {
		if (!ms) return run();
		const timer = setTimeout(() => {
			timers.delete(timer);
			run();
		}, ms);
		timers.add(timer);
	};
	const mailbox: TestMailbox = {
		port: 0,
		url: '',
		messages,
		get connections() {
			return connections;
		},
		behaviour: {},
		to: (address) => messages.filter((message) => recipients.get(message)?.includes(address)),
		close: () =>
			new Promise<void>((resolve) => {
				for (const timer of timers) clearTimeout(timer);
				server.close(() => resolve());
			})
	};
	const server = new SMTPServer({
		authOptional: true,
		disabledCommands: ['STARTTLS', 'AUTH'],
		logger: false,
		closeTimeout: 100,
		onConnect(_session, callback) {
			connections++;
			later(mailbox.behaviour.greetingDelay, () => callback());
		},
		onRcptTo(_address, _session, callback) {
			if (mailbox.behaviour.refuse === 'rcpt') {
				callback(Object.assign(new Error('Mailbox unavailable'), { responseCode: 550 }));
				return;
			}
			callback();
		},
		onData(stream, session, callback) {
			simpleParser(stream)
				.then((parsed) => {
					later(mailbox.behaviour.dataDelay, () => {
						if (mailbox.behaviour.refuse === 'data') {
							callback(Object.assign(new Error('Message refused'), { responseCode: 554 }));
							return;
						}
						recipients.set(parsed, session.envelope.rcptTo.map((rcpt) => rcpt.address));
						messages.push(parsed);
						callback();
					});
				})
				.catch((error: Error) => callback(error));
		}
	});
	const port = await new Promise<number>((resolve, reject) => {
		server.on('error', reject);
		const listener = server.listen(options.port ?? 0, '127.0.0.1', () => resolve((listener.address() as { port: number }).port));
	});
	return Object.assign(mailbox, { port, url: `smtp://127.0.0.1:${port}` });
}

/** A TCP server that accepts connections and never says a word (an SMTP server gone silent). */
export async function startSilentServer(): Promise<{ url: string; open(): number; accepted(): number; close(): Promise<void> }> {
	const sockets = new Set<Socket>();
	let accepted = 0;
	const server: Server = createServer((socket) => {
		accepted++;
		sockets.add(socket);
		socket.on('close', () => sockets.delete(socket));
	});
	const port = await new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port)));
	return {
		url: `smtp://127.0.0.1:${port}`,
		/** Connections still open (the client has not let go). */
		open: () => sockets.size,
		accepted: () => accepted,
		close: () =>
			new Promise<void>((resolve) => {
				for (const socket of sockets) socket.destroy();
				server.close(() => resolve());
			})
	};
}

/** A port nothing listens on (bound, then released). */
export async function closedPort(): Promise<number> {
	const server = createServer();
	const port = await new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port)));
	await new Promise<void>((resolve) => server.close(() => resolve()));
	return port;
}

/** The sign-in link of a message: the same in its text part and in its HTML button. */
export function linkOf(message: ParsedMail): URL {
	const text = /https?:\/\/\S+\/callback\/\S+/.exec(message.text ?? '')?.[0];
	const html = typeof message.html === 'string' ? /href="([^"]+\/callback\/[^"]+)"/.exec(message.html)?.[1]?.replaceAll('&amp;', '&') : undefined;
	if (!text || !html) throw new Error('The message has no sign-in link in both parts');
	if (text !== html) throw new Error(`The text and HTML links differ:\n${text}\n${html}`);
	return new URL(text);
}

/** The one-time code of a message (digits, without the grouping space). */
export function codeIn(message: ParsedMail): string | undefined {
	return /code on the sign-in page: (\d{4} \d{4})/.exec(message.text ?? '')?.[1]?.replace(' ', '');
}
