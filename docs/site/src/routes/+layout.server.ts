import { nav } from '../lib/site.server.ts';

export const load = () => ({ nav });
