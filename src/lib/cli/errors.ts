/**
 * A mistake of the person running the CLI (an unknown option, a folder that is not an app): printed
 * as its message alone, never with a stack trace, and the process exits with code 2.
 */
export class UsageError extends Error {
	override name = 'UsageError';
}
