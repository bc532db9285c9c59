import { parseHTML } from 'linkedom';
import type { Component } from 'svelte';
import { render } from 'svelte/server';

/** Renders a component on the server, as a page would, and parses the result into a DOM to query. */
export function renderDom<Props extends Record<string, unknown>>(component: Component<Props>, props: Props) {
	const { head, body } = render(component, { props });
	const { document } = parseHTML(`<!doctype html><html><head>${head}</head><body>${body}</body></html>`);
	return { document, head, body, $: (s: string) => document.querySelector(s), $$: (s: string) => [...document.querySelectorAll(s)] };
}

/** An element's text with white space collapsed. */
export const text = (element: { textContent: string | null } | null | undefined): string =>
	(element?.textContent ?? '').replace(/\s+/g, ' ').trim();
