/**
 * The check every multi-colour icon body passes before scripts/generate-icons.ts writes it into
 * the component kit (scripts/svg-body.ts): an allow-list of shapes, groups, gradients and
 * presentation attributes. Anything that could run script, style the page (the built-in pages'
 * CSP), link or load from elsewhere is refused with an error naming the icon, never shipped. A
 * vendored mark (scripts/icons/) passes the same check, as one path's `d`, and its other fields
 * must be plain text of their form.
 */
import { describe, expect, test } from 'vitest';
import { readVendoredMark, vendoredMark } from '../../../scripts/generate-icons.js';
import { sanitizeSvgBody } from '../../../scripts/svg-body.js';

const check = (body: string) => sanitizeSvgBody(body, 'acme', 'the acme test mark');

describe('refused', () => {
	test.each([
		['a script element', '<script>alert(1)</script>'],
		['a script inside a group', '<g><script>alert(1)</script></g>'],
		['an event handler', '<path d="M0 0h1v1z" onload="alert(1)"/>'],
		['an event handler on a group', '<g onclick="alert(1)"><path d="M0 0h1v1z"/></g>'],
		['a style attribute', '<path d="M0 0h1v1z" style="fill:red"/>'],
		['a style element', '<style>path{fill:red}</style>'],
		['a class (styles from the page)', '<path class="x" d="M0 0h1v1z"/>'],
		['a link', '<a href="https://evil.example"><path d="M0 0h1v1z"/></a>'],
		['a use of an outside file', '<use href="https://evil.example/x.svg#a"/>'],
		['an xlink:href', '<use xlink:href="#a"/>'],
		['an href on a gradient', '<linearGradient id="g" href="https://evil.example/g.svg#g"/>'],
		['an image', '<image href="https://evil.example/x.png" width="1" height="1"/>'],
		['a foreignObject', '<foreignObject><div>hi</div></foreignObject>'],
		['an animation of an attribute', '<path d="M0 0h1v1z"><set attributeName="fill" to="red"/></path>'],
		['an outside url() paint', '<path d="M0 0h1v1z" fill="url(https://evil.example/p.svg#p)"/>'],
		['a url() to no element of the mark', '<path d="M0 0h1v1z" fill="url(#nothing)"/>'],
		['a javascript: paint', '<path d="M0 0h1v1z" fill="javascript:alert(1)"/>'],
		['a data: clip path', '<path d="M0 0h1v1z" clip-path="url(data:image/svg+xml,x)"/>'],
		['an expression in a transform', '<g transform="url(#x)"><path d="M0 0h1v1z"/></g>'],
		['a quote smuggled into path data', '<path d="M0 0&quot; onload=&quot;alert(1)"/>'],
		['a single-quoted attribute', "<path d='M0 0h1v1z'/>"],
		['a comment', '<!-- hi --><path d="M0 0h1v1z"/>'],
		['text', 'hello<path d="M0 0h1v1z"/>'],
		['CDATA', '<![CDATA[x]]>'],
		['an element left open', '<g><path d="M0 0h1v1z"/>'],
		['a stray closing tag', '</g>'],
		['a duplicate id', '<clipPath id="c"/><clipPath id="c"/>']
	])('%s', (_, body) => {
		expect(() => check(body)).toThrow(/the acme test mark/);
	});
});

describe('kept', () => {
	test('shapes, groups and a gradient, written anew with their ids <prefix>-<n> and the references to them', () => {
		const body =
			'<defs>\n  <linearGradient id="SVGxyz" x1="0%" x2="100%"><stop offset="0%" stop-color="#bd0816"/><stop offset="1" stop-color="#FF5252"></stop></linearGradient>' +
			'<clipPath id="cut"><rect width="10" height="10"/></clipPath></defs>' +
			'<g clip-path="url(#cut)" transform="translate(1 2) scale(.5)"><path fill="url(#SVGxyz)" d="M0 0h256v256H0z"/><circle cx="5" cy="5" r="2" fill="#fff" fill-opacity=".5"/></g>';
		expect(check(body)).toBe(
			'<defs><linearGradient id="acme-0" x1="0%" x2="100%"><stop offset="0%" stop-color="#bd0816"/><stop offset="1" stop-color="#FF5252"/></linearGradient>' +
				'<clipPath id="acme-1"><rect width="10" height="10"/></clipPath></defs>' +
				'<g clip-path="url(#acme-1)" transform="translate(1 2) scale(.5)"><path fill="url(#acme-0)" d="M0 0h256v256H0z"/><circle cx="5" cy="5" r="2" fill="#fff" fill-opacity=".5"/></g>'
		);
	});
});

describe('a vendored mark', () => {
	const good = readVendoredMark('zitadel.json') as Record<string, unknown>;
	const check = (changes: Record<string, unknown>) => vendoredMark('acme', 'acme.json', { ...good, ...changes });

	test('the real one passes as it is', () => {
		expect(check({})).toEqual(good);
	});

	test.each([
		['markup after the path', { path: 'M0 0h1v1z"/><script>alert(1)</script><path d="M0 0' }],
		['an event handler smuggled into the path', { path: 'M0 0h1v1z" onload="alert(1)' }],
		['an allowed attribute smuggled into the path', { path: 'M0 0h1v1z" fill="red' }],
		['a second path smuggled in', { path: 'M0 0h1v1z"/><path d="M0 0h2v2z' }],
		['a reference in the path', { path: 'url(#x)' }],
		['an empty path', { path: '' }],
		['no path', { path: undefined }],
		['a path that is no string', { path: ['M0 0h1v1z'] }],
		['a colour that is no #RRGGBB', { color: 'red;background:url(https://evil.example)' }],
		['markup in the title', { title: '<img src=x onerror=alert(1)>' }],
		['a quote in the view box', { viewBox: '0 0 24 24" onload="alert(1)' }],
		['a licence that is no SPDX id', { license: 'CC BY 4.0' }],
		['no attribution', { attribution: undefined }],
		['no source', { source: undefined }],
		['markup in the source', { source: { ...(good.source as object), url: '"><script>alert(1)</script>' } }]
	])('%s is refused', (_, changes) => {
		expect(() => check(changes)).toThrow(/scripts\/icons\/acme\.json \(for the acme preset\)/);
	});
});
