import adapter from '@sveltejs/adapter-node';

/**
 * SvelteKit 2 reads its options from here. One source, one build per variant: `BENCH_KIT2_AUTH`
 * picks the server hook at build time (tests/bench/rss-authjs.ts says what each holds).
 */
const VARIANTS = ['none', 'kitauth', 'authjs'];
const variant = process.env.BENCH_KIT2_AUTH ?? 'none';
if (!VARIANTS.includes(variant)) throw new Error(`BENCH_KIT2_AUTH is one of ${VARIANTS.join(', ')}, not ${variant}`);

export default {
	kit: {
		adapter: adapter({ out: `.build-${variant}`, precompress: false }),
		outDir: `.svelte-kit/${variant}`,
		// The page template of the other test apps.
		files: { hooks: { server: `src/hooks/${variant}` }, appTemplate: '../kit-app/src/app.html' }
	}
};
