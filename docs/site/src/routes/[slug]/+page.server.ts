import { error } from '@sveltejs/kit';
import { guide, guideSlugs, neighbours } from '../../lib/site.server.ts';
import type { EntryGenerator, PageServerLoad } from './$types';

export const entries: EntryGenerator = () => guideSlugs.map((slug) => ({ slug }));

export const load: PageServerLoad = ({ params }) => {
	const page = params.slug === 'index' ? undefined : guide(params.slug);
	if (!page) error(404, 'No such guide');
	return { page, ...neighbours(page.slug) };
};
