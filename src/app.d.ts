// kitauth types App.Locals (locals.auth()) itself; see src/lib/sveltekit/types.ts.
import '#lib';

declare global {
	namespace App {
		// interface Error {}
		// interface PageData {}
		// interface Platform {}
	}
}

export {};
