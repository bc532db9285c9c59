import type { ServerLoad } from '@sveltejs/kit';
import { listProviders } from '#lib';
import { shared } from '../../auth.js';

export const load: ServerLoad = () => ({ providers: listProviders(shared) });
