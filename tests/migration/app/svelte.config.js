import adapter from '@sveltejs/adapter-node';

/** SvelteKit 2 reads its options from here. */
export default {
	kit: { adapter: adapter({ out: '.build', precompress: false }) }
};
