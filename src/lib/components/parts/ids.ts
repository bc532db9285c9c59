/** A string made safe for an `id` attribute (and a CSS selector): anything but `[\w-]` becomes `_`. */
export function idPart(value: string): string {
	return value.replace(/[^\w-]/g, '_');
}
