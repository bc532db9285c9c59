import type { Locator } from '@playwright/test';

/** A QR code's modules as text, a row a line (`#` dark, `.` light): a mismatch reads as a picture. */
export function qrRows(modules: readonly (readonly boolean[])[]): string[] {
	return modules.map((row) => row.map((dark) => (dark ? '#' : '.')).join(''));
}

/**
 * The modules of a QR code as the browser drew it, as `qrRows`, read back from a screenshot
 * of its SVG: each module's centre sampled, `size` modules a side (the viewBox's). A picture, not
 * the markup, so CSS that keeps the modules from being drawn shows here as it would to a camera.
 * The PNG is decoded by a canvas in a blank page of the same browser (no image library needed).
 */
export async function drawnQrRows(qr: Locator): Promise<string[]> {
	const size = Number((await qr.getAttribute('viewBox'))?.split(' ')[2]);
	const png = (await qr.screenshot({ animations: 'disabled' })).toString('base64');
	const blank = await qr.page().context().newPage();
	try {
		const modules = await blank.evaluate(
			async ({ png, size }) => {
				const image = new Image();
				image.src = `data:image/png;base64,${png}`;
				await image.decode();
				const canvas = new OffscreenCanvas(image.width, image.height);
				const context = canvas.getContext('2d')!;
				context.drawImage(image, 0, 0);
				const { data } = context.getImageData(0, 0, image.width, image.height);
				const dark = (x: number, y: number) => {
					const i = (Math.floor(y) * image.width + Math.floor(x)) * 4;
					return data[i]! + data[i + 1]! + data[i + 2]! < 3 * 128;
				};
				const module = image.width / size;
				return Array.from({ length: size }, (_, y) => Array.from({ length: size }, (_, x) => dark((x + 0.5) * module, (y + 0.5) * module)));
			},
			{ png, size }
		);
		return qrRows(modules);
	} finally {
		await blank.close();
	}
}
