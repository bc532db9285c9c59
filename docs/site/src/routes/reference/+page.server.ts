import { neighbours, reference } from '../../lib/site.server.ts';

export const load = () => ({ reference, ...neighbours('reference') });
