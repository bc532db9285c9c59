/**
 * `commitGroup` on its own: which writes share a transaction, and what each caller gets back.
 * `commit` here records the groups it is handed and answers each statement with a result naming
 * it; the adapter's real transactions are tested in libsql-commit-group.test.ts.
 */
import type { ResultSet } from '@libsql/client';
import { describe, expect, test } from 'vitest';
import { commitGroup, MAX_GROUP } from '../../src/lib/adapters/libsql/engine/commit-group.js';
import type { Statements } from '../../src/lib/adapters/libsql/engine/local-statements.js';

/** A result that says which statement it answers. */
const resultOf = (sql: string) => ({ rows: [], columns: [sql], columnTypes: [], rowsAffected: 1, lastInsertRowid: undefined, toJSON: () => sql }) as ResultSet;
const answered = (results: (ResultSet | undefined)[]) => results.map((result) => result?.columns[0]);
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

function recording(fail?: (group: string[]) => Error | undefined) {
	const groups: string[][] = [];
	const write = commitGroup(async (stmts: Statements) => {
		const group = stmts.map((stmt) => (typeof stmt === 'string' ? stmt : Array.isArray(stmt) ? stmt[0] : stmt.sql));
		groups.push(group);
		await Promise.resolve(); // a commit answers later, as the database does
		const error = fail?.(group);
		if (error) throw error;
		return group.map(resultOf);
	});
	return { groups, write };
}

describe('commitGroup', () => {
	test('the writes of one turn go to one commit, in the order asked; each caller gets its own results', async () => {
		const { groups, write } = recording();
		const pending = [write(['a1', 'a2']), write(['b1']), write(['c1', 'c2', 'c3'])];
		expect(groups).toEqual([]); // nothing before the turn ends
		const results = await Promise.all(pending);
		expect(groups).toEqual([['a1', 'a2', 'b1', 'c1', 'c2', 'c3']]);
		expect(results.map(answered)).toEqual([['a1', 'a2'], ['b1'], ['c1', 'c2', 'c3']]);
	});

	test('writes of later turns go to later commits; a write asked while a commit runs waits for the next', async () => {
		const { groups, write } = recording();
		const first = write(['a']);
		await turn();
		const second = write(['b']); // the first group's commit has not answered yet
		expect(answered(await first)).toEqual(['a']);
		expect(answered(await second)).toEqual(['b']);
		await turn();
		expect(answered(await write(['c']))).toEqual(['c']);
		expect(groups).toEqual([['a'], ['b'], ['c']]);
	});

	test(`a group holds at most ${MAX_GROUP} writes; the rest commit in the following turns`, async () => {
		const { groups, write } = recording();
		const count = MAX_GROUP * 2 + 5;
		const results = await Promise.all(Array.from({ length: count }, (_, i) => write([`w${i}`])));
		expect(groups.map((group) => group.length)).toEqual([MAX_GROUP, MAX_GROUP, 5]);
		expect(groups.flat()).toEqual(Array.from({ length: count }, (_, i) => `w${i}`));
		expect(results.map(answered)).toEqual(Array.from({ length: count }, (_, i) => [`w${i}`]));
	});

	test('a failed commit rejects every write of its group and no other', async () => {
		const boom = new Error('database is locked');
		const { groups, write } = recording((group) => (group.includes('bad') ? boom : undefined));
		const failing = [write(['ok-1']), write(['bad']), write(['ok-2'])].map((pending) => pending.then(answered, (error: unknown) => error));
		expect(await Promise.all(failing)).toEqual([boom, boom, boom]);
		expect(answered(await write(['after']))).toEqual(['after']);
		expect(groups).toEqual([['ok-1', 'bad', 'ok-2'], ['after']]);
	});

	test('a commit that throws before answering rejects its writes too', async () => {
		const boom = new Error('closed');
		const write = commitGroup(() => {
			throw boom;
		});
		await expect(Promise.all([write(['a']), write(['b'])])).rejects.toBe(boom);
		await expect(write(['c'])).rejects.toBe(boom);
	});
});
