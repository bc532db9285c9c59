import { en, type PlainKey } from '../i18n/index.js';
import type { CredentialInput } from './provider.js';

/** A credentials form field as the sign-in forms render it (attributes already filtered). */
export interface PageField {
	name: string;
	label: string;
	/** Its label's catalogue key, which the forms translate (see `CredentialInput.labelKey`). */
	labelKey?: PlainKey;
	attributes: Record<string, string | number | boolean>;
}

/** Input attributes a credentials definition may set; anything else (e.g. `on*`) is dropped. */
const FIELD_ATTRIBUTES = new Set([
	'type', 'placeholder', 'required', 'autocomplete', 'pattern', 'minlength', 'maxlength', 'min',
	'max', 'step', 'inputmode', 'autofocus', 'value', 'readonly', 'spellcheck', 'autocapitalize',
	'size', 'title'
]);

/**
 * A credentials definition as form fields: a label and only safe attributes. Pure (no server
 * imports), so the sign-in page and the browser components share it.
 */
export function credentialFields(credentials: Record<string, CredentialInput>): PageField[] {
	return Object.entries(credentials).map(([name, input]) => {
		const attributes: Record<string, string | number | boolean> = {};
		for (const [key, value] of Object.entries(input)) {
			const lower = key.toLowerCase();
			if (!FIELD_ATTRIBUTES.has(lower)) continue;
			if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
				attributes[lower] = value;
			}
		}
		attributes.type ??= 'text';
		return { name, label: input.label ?? name, ...(isPlainKey(input.labelKey) ? { labelKey: input.labelKey } : {}), attributes };
	});
}

/** A key of the catalogue with a plain text (a configuration's typo must not break the form). */
function isPlainKey(key: unknown): key is PlainKey {
	return typeof key === 'string' && Object.hasOwn(en, key) && typeof en[key as PlainKey] === 'string';
}

/**
 * What a form with fields of its own (`fields`, whose errors show under them) shows above itself:
 * its form errors, then every other field's errors. The code forms (two-factor, email code) and
 * the password forms share it.
 */
export function messagesBesides(
	form: { formErrors?: readonly string[]; fieldErrors?: Readonly<Record<string, readonly string[] | undefined>> } | null | undefined,
	...fields: string[]
): string[] {
	return [
		...(form?.formErrors ?? []),
		...Object.entries(form?.fieldErrors ?? {})
			.filter(([name]) => !fields.includes(name))
			.flatMap(([, m]) => m ?? [])
	];
}
