import { building } from '$app/env';
import { sequence } from '@sveltejs/kit/hooks';
import type { ServerInit } from '@sveltejs/kit/hooks';
import { MissingSecretError } from '#lib';
import { authConfig, handle as authHandle } from './demo/auth.js';

export const handle = sequence(authHandle);

/** Fail at start-up, not on the first request, when production has no secret. */
export const init: ServerInit = () => {
	if (!building && !authConfig.secret && !process.env.AUTH_SECRET && !process.env.NEXTAUTH_SECRET) {
		throw new MissingSecretError(
			'AUTH_SECRET is not set. Set it to at least 32 random characters (e.g. `openssl rand -base64 33`) before starting the demo in production.'
		);
	}
};
