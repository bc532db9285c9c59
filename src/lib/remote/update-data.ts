/** What may be sent to update a session: plain JSON, as `POST {basePath}/session` takes. */
export type SessionUpdateData = null | boolean | number | string | SessionUpdateData[] | { [key: string]: SessionUpdateData };

/** As much as the REST endpoint reads of a body (64 KiB of JSON), and no deeper than this. */
const MAX_JSON_LENGTH = 64 * 1024;
const MAX_DEPTH = 16;

/**
 * The argument of `updateSession` (a Standard Schema, which kit validates before the command runs,
 * answering 400 otherwise): JSON only — no dates, maps or class instances that the JWT could not
 * carry — bounded in size and depth, since it comes from the browser and reaches the app's `jwt`
 * and `session` callbacks.
 */
export const sessionUpdateData = {
	'~standard': {
		version: 1,
		vendor: 'kitauth',
		validate(value: unknown): { value: SessionUpdateData } | { issues: { message: string }[] } {
			if (!isJson(value, 0)) return { issues: [{ message: 'Must be plain JSON (objects, arrays, strings, numbers, booleans, null).' }] };
			if (JSON.stringify(value).length > MAX_JSON_LENGTH) return { issues: [{ message: 'Too large.' }] };
			return { value };
		},
		types: undefined as { input: SessionUpdateData; output: SessionUpdateData } | undefined
	}
} as const;

function isJson(value: unknown, depth: number): value is SessionUpdateData {
	if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
	if (typeof value === 'number') return Number.isFinite(value);
	if (typeof value !== 'object' || depth >= MAX_DEPTH) return false;
	if (Array.isArray(value)) return value.every((item) => isJson(item, depth + 1));
	const prototype = Object.getPrototypeOf(value);
	if (prototype !== Object.prototype && prototype !== null) return false;
	return Object.values(value).every((item) => isJson(item, depth + 1));
}
