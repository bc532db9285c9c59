/**
 * Finding an app's kitauth configuration, for the commands that read it (`migrate`, `doctor`):
 * a static read of the source, so it sees what the file says, not what it computes.
 */
import type { Files } from './project.js';

/** Where apps keep it: init's file first, then the usual other places. */
const CANDIDATES = ['src/auth.ts', 'src/auth.js', 'src/lib/server/auth.ts', 'src/lib/server/auth.js', 'src/hooks.server.ts', 'src/hooks.server.js'];

export interface AuthModule {
	path: string;
	source: string;
}

/** The first candidate that calls SvelteKitAuth; `undefined` when none does. */
export function findAuthModule(files: Files): AuthModule | undefined {
	for (const path of CANDIDATES) {
		const source = files.read(path);
		if (source !== undefined && /\bSvelteKitAuth\s*\(/.test(source)) return { path, source };
	}
	return undefined;
}

/** The presets it imports: `kitauth/providers/<id>`. */
export function importedPresets(source: string): string[] {
	return [...source.matchAll(/from\s+['"]kitauth\/providers\/([\w-]+)['"]/g)].map((m) => m[1]!);
}
