/** The session, read in `load` on every page: `locals.auth()` on the Workers runtime. */
export const load = async ({ locals, platform }) => ({
	session: await locals.auth(),
	runtime: typeof navigator === 'undefined' ? null : navigator.userAgent,
	sessions: platform?.env?.SESSIONS ?? null
});
