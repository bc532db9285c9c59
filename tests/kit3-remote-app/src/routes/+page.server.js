import { listProviders } from 'kitauth';
import { config } from '../auth.js';

export const load = () => ({ providers: listProviders(config) });
