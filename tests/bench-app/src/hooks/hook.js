import { sequence } from '@sveltejs/kit/hooks';

/** An empty hook in `sequence`: what any hook costs SvelteKit, for telling kitauth's share apart. */
const pass = ({ event, resolve }) => resolve(event);

export const handle = sequence(pass);
