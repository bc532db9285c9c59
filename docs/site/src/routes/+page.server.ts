import { error } from '@sveltejs/kit';
import { guide, neighbours } from '../lib/site.server.ts';

export const load = () => {
	const page = guide('index');
	if (!page) error(404, 'No home page (docs/content/index.md)');
	return { page, ...neighbours('index') };
};
