import adapter from '@sveltejs/adapter-node';

/**
 * SvelteKit 2 reads its options from here (SvelteKit 3 from the `sveltekit()` plugin call). The
 * app lives under `paths.base` `/base`: kitauth must serve `/base/auth/*` on kit 2 as on kit 3.
 */
export default {
	kit: {
		adapter: adapter({ out: '.build', precompress: false }),
		paths: { base: '/base' },
		// SvelteKit 2.20 has no `csrf.trustedOrigins`: `KIT2_APP_CSRF_CHECK_ORIGIN=off` at build time
		// is its only way to let an identity provider's form POST through (published.test.ts).
		csrf: { checkOrigin: process.env.KIT2_APP_CSRF_CHECK_ORIGIN !== 'off' },
		// The same page template as the SvelteKit 3 test app.
		files: { appTemplate: '../kit-app/src/app.html' }
	}
};
