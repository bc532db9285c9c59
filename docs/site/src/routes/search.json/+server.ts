import { json } from '@sveltejs/kit';
import { searchEntries } from '../../lib/site.server.ts';

export const prerender = true;

/** The search index, a static file beside the pages: the browser searches it offline. */
export const GET = () => json(searchEntries);
