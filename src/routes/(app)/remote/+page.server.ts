import { listProviders } from '#lib';
import { authConfig } from '../../../demo/auth.js';
import type { PageServerLoad } from './$types';

export const load: PageServerLoad = () => ({ providers: listProviders(authConfig) });
