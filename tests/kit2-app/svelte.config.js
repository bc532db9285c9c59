import adapter from '@sveltejs/adapter-node';

/**
 * SvelteKit 2 reads its options from here (SvelteKit 3 from the `sveltekit()` plugin call). The
 * app lives under `paths.base` `/base`: kitauth must serve `/base/auth/*` on kit 2 as on kit 3.
 */
export default {
	kit: {
		adapter: adapter({ out: '.build', precompress: false }),
		paths: { base: '/base' },
		// The same page template as the SvelteKit 3 test app.
		files: { appTemplate: '../kit-app/src/app.html' }
	}
};
