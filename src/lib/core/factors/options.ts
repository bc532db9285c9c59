/**
 * `twoFactor` resolved once with the options: its defaults, the store it needs (checked at
 * start-up, so a missing method is a configuration error and never a sign-in that skips the
 * second factor), and the backup-code hasher under the configuration's secrets.
 */
import { MissingAdapter, MissingAdapterMethods } from '../errors.js';
import type { Adapter } from '../types/adapter.js';
import type { TwoFactorConfig, TwoFactorOptions } from '../types/two-factor.js';
import { backupCodeHasher, type BackupCodeHasher } from './backup-codes.js';

const METHODS = [
	'getTwoFactor',
	'beginTwoFactor',
	'enableTwoFactor',
	'useTwoFactorStep',
	'useBackupCode',
	'replaceBackupCodes',
	'resealTwoFactorSecret',
	'deleteTwoFactor',
	'forgetTwoFactorDevices'
] as const;

/** What two-factor authentication needs of an adapter. */
export type TwoFactorStore = Required<Pick<Adapter, (typeof METHODS)[number]>>;

/** The resolved settings, with the store and the hasher. */
export interface TwoFactorSetup extends TwoFactorOptions {
	readonly store: TwoFactorStore;
	readonly hasher: BackupCodeHasher;
}

const DAY = 24 * 60 * 60;

export function resolveTwoFactor(config: TwoFactorConfig | undefined, adapter: Adapter | undefined, secrets: readonly string[]): TwoFactorSetup | undefined {
	if (config === undefined || config === null) return undefined;
	if (!adapter) throw new MissingAdapter('twoFactor needs an adapter to keep each user\'s second factor.');
	const missing = METHODS.filter((method) => typeof adapter[method] !== 'function');
	if (missing.length) throw new MissingAdapterMethods(`The adapter lacks ${missing.join(', ')} for two-factor authentication.`);
	const required = config.required ?? 'optional';
	if (required !== 'always' && required !== 'optional' && typeof required !== 'function') {
		throw new TypeError("twoFactor.required must be 'always', 'optional' or a function of the user");
	}
	const remember = config.rememberDevice === false ? 0 : (config.rememberDevice?.maxAge ?? 30 * DAY);
	const pending = config.pendingMaxAge ?? 600;
	for (const [name, value] of [['rememberDevice.maxAge', remember], ['pendingMaxAge', pending]] as const) {
		if (!Number.isFinite(value) || value < 0) throw new TypeError(`twoFactor.${name} must be a number of seconds`);
	}
	return Object.freeze({
		required,
		issuer: typeof config.issuer === 'string' && config.issuer.trim() ? config.issuer.trim() : undefined,
		rememberMaxAge: remember,
		pendingMaxAge: Math.max(60, pending),
		store: adapter as TwoFactorStore,
		hasher: backupCodeHasher(secrets)
	});
}
