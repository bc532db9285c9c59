import { error } from '@sveltejs/kit';
import { referenceEntry, referencePages } from '../../lib/site.server.ts';
import type { EntryGenerator, PageServerLoad } from './$types';

export const entries: EntryGenerator = () => referencePages.map((page) => ({ entry: page.slice('reference-'.length) }));

export const load: PageServerLoad = ({ params }) => {
	const found = referenceEntry(`reference-${params.entry}`);
	if (!found) error(404, 'No such entry point');
	return found;
};
