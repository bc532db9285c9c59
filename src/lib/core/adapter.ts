import { AdapterError, EventError, MissingAdapterMethods } from './errors.js';
import type { Adapter } from './types/adapter.js';
import type { EventCallbacks, LoggerInstance } from './types/config.js';

/**
 * Wraps every adapter method so a failure surfaces as an `AdapterError` (a clear, logged error
 * page or JSON, never a raw driver message to the client) and calls are traceable with `debug`.
 * Arguments are not logged: they hold emails and token hashes.
 */
export function wrapAdapter(adapter: Adapter, logger: LoggerInstance): Adapter {
	const wrapped: Record<string, unknown> = {};
	for (const [name, method] of Object.entries(adapter)) {
		if (typeof method !== 'function') continue;
		const label = `adapter.${name}`;
		wrapped[name] = async (...args: unknown[]) => {
			logger.debug(label);
			try {
				return await (method as (...a: unknown[]) => unknown).apply(adapter, args);
			} catch (error) {
				throw new AdapterError(`Adapter method ${name} failed`, { cause: error as Error });
			}
		};
	}
	return wrapped as Adapter;
}

/** Events are for auditing: a failing handler is logged and never breaks the flow. */
export function wrapEvents(
	events: Partial<EventCallbacks>,
	logger: LoggerInstance
): Partial<EventCallbacks> {
	const wrapped: Record<string, unknown> = {};
	for (const [name, handler] of Object.entries(events)) {
		if (typeof handler !== 'function') continue;
		wrapped[name] = async (message: unknown) => {
			try {
				await (handler as (m: unknown) => unknown)(message);
			} catch (error) {
				logger.error(new EventError(`Event handler ${name} failed`, { cause: error as Error }));
			}
		};
	}
	return wrapped as Partial<EventCallbacks>;
}

/** The adapter with `methods` present, or `MissingAdapterMethods` naming the missing ones. */
export function need<A extends Adapter, K extends keyof Adapter>(adapter: A, ...methods: K[]): A & Required<Pick<Adapter, K>> {
	const missing = methods.filter((method) => typeof adapter[method] !== 'function');
	if (missing.length) throw new MissingAdapterMethods(`The adapter lacks ${missing.join(', ')}`);
	return adapter as A & Required<Pick<Adapter, K>>;
}

/**
 * Whether a verification token the store handed back is still current. Some adapters hand dates
 * back as strings or numbers; an unreadable date counts as expired.
 */
export function current(token: { expires: unknown }): boolean {
	const expires = new Date(token.expires as Date | string | number).getTime();
	return Number.isFinite(expires) && expires > Date.now();
}
