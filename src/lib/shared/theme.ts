/** How the built-in pages and the components look: the spec's `theme` option. */
export interface Theme {
	colorScheme?: 'auto' | 'dark' | 'light';
	logo?: string;
	brandColor?: string;
	buttonText?: string;
	/**
	 * kitauth: the app's name, as the sign-in email says it ("Sign in to Acme"). Default: the
	 * site's host (Auth.js's wording).
	 */
	name?: string;
}
