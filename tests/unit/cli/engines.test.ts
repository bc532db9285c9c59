import { expect, test } from 'vitest';
import { printable } from '../../../src/lib/cli/engines.js';

test('a database URL is printed without credentials or query; a file URL as it is', () => {
	expect(printable('libsql://user:pass@db.example.turso.io?authToken=secret')).toBe('libsql://db.example.turso.io');
	expect(printable('https://db.example/v2?token=secret')).toBe('https://db.example/v2');
	expect(printable('file:/srv/app/auth.db')).toBe('file:/srv/app/auth.db');
	expect(printable('not a url ?secret')).toBe('(DATABASE_URL, not a URL)');
});
