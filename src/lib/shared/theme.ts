/** How the built-in pages and the components look: the spec's `theme` option. */
export interface Theme {
	colorScheme?: 'auto' | 'dark' | 'light';
	logo?: string;
	brandColor?: string;
	buttonText?: string;
}
