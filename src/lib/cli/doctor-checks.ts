/**
 * What `kitauth doctor` checks, one function per concern, each finding with its fix. The app's
 * configuration is read statically (src/auth.ts as written): options computed at run time, a
 * provider given a custom id, or credentials passed from elsewhere are not seen.
 */
import { MIN_SECRET_LENGTH } from '../core/assert.js';
import { envUrl, trustFromEnv } from '../core/env.js';
import type { AuthModule } from './auth-module.js';
import { importedPresets } from './auth-module.js';
import { adapterIdInSource, engineInSource } from './engines.js';
import type { Variables } from './env-file.js';
import { hooksInstructions, mergeHooks } from './hooks.js';
import { envPrefix, isOAuthPreset } from './providers.js';
import { hasDependency, type Project } from './project.js';

export interface Finding {
	ok: boolean;
	/** What was found. */
	what: string;
	/** How to put it right (problems only). */
	fix?: string;
}

export interface DoctorContext {
	project: Project;
	auth: AuthModule;
	/** The environment as the production server would see it (process env over .env files). */
	env: Variables;
}

const problem = (what: string, fix: string): Finding => ({ ok: false, what, fix });
const fine = (what: string): Finding => ({ ok: true, what });

/** The IdPs that answer with a cross-site form POST, and their origins where known. */
const FORM_POST_PRESETS: Record<string, string> = { apple: 'https://appleid.apple.com' };

export function checkHook({ project, auth }: DoctorContext): Finding[] {
	const path = ['src/hooks.server.ts', 'src/hooks.server.js'].find((p) => project.exists(p)) ?? 'src/hooks.server.ts';
	const module = `./${auth.path.replace(/^src\//, '').replace(/\.(ts|js)$/, '')}`;
	if (auth.path === path || mergeHooks(project.read(path), module).kind === 'present') return [fine(`${path} runs kitauth's handle`)];
	return [problem(`${path} does not run kitauth's handle: no /auth endpoints, no locals.auth()`, `add to ${path}:\n${hooksInstructions(module)}`)];
}

export function checkSecret({ env, auth }: DoctorContext): Finding[] {
	const names = ['AUTH_SECRET', 'AUTH_SECRET_1', 'AUTH_SECRET_2', 'AUTH_SECRET_3', 'NEXTAUTH_SECRET'].filter((name) => env[name]);
	if (names.length === 0) {
		if (/\bsecret\s*:/.test(auth.source)) return [fine(`${auth.path} passes a secret (not checked: it is computed at run time)`)];
		return [problem('No AUTH_SECRET in the environment or .env: in production kitauth refuses to start (MissingSecretError)', 'npx kitauth secret (writes one to .env; set it in the production environment too)')];
	}
	const short = names.filter((name) => env[name]!.length < MIN_SECRET_LENGTH);
	if (short.length) return [problem(`${short.join(', ')} shorter than ${MIN_SECRET_LENGTH} characters`, 'npx kitauth secret --yes (a new secret signs everyone out)')];
	return [fine(`${names.join(', ')} set, at least ${MIN_SECRET_LENGTH} characters`)];
}

export function checkTrustedHost({ env, auth }: DoctorContext): Finding[] {
	if (envUrl(env)) return [fine(`AUTH_URL is ${env['AUTH_URL'] || env['NEXTAUTH_URL']}`)];
	if (trustFromEnv({ ...env, NODE_ENV: 'production' })) return [fine('the Host header is trusted (AUTH_TRUST_HOST, or a platform that sets it safely)')];
	if (/\btrustHost\s*:\s*true\b/.test(auth.source)) return [fine(`${auth.path} sets trustHost: true`)];
	return [
		problem(
			'Neither AUTH_URL nor AUTH_TRUST_HOST is set: in production kitauth answers every request with UntrustedHost',
			"set AUTH_URL=https://your.site in the production environment (or AUTH_TRUST_HOST=true when your platform or proxy sets the Host header)"
		)
	];
}

export function checkNodeOrigin({ project, env }: DoctorContext): Finding[] {
	if (!hasDependency(project, '@sveltejs/adapter-node')) return [];
	const config = [project.read('vite.config.ts'), project.read('vite.config.js'), project.read('svelte.config.js')].join('\n');
	if (project.kit === 2) {
		if (env['ORIGIN'] || (env['PROTOCOL_HEADER'] && env['HOST_HEADER'])) return [fine('adapter-node knows the origin (ORIGIN, or PROTOCOL_HEADER and HOST_HEADER)')];
		return [
			problem(
				'adapter-node without ORIGIN: it takes the origin from the request as http://<Host>, so behind an https proxy sign-in forms get 403 and URLs are wrong',
				'set ORIGIN=https://your.site where the server runs (or PROTOCOL_HEADER and HOST_HEADER behind a proxy)'
			)
		];
	}
	if (env['ORIGIN'] && !/\borigin\s*:/.test(config) && !env['PROTOCOL_HEADER']) {
		return [
			problem(
				'ORIGIN is set, but adapter-node 6 (SvelteKit 3) ignores it: the origin comes from the request, https unless PROTOCOL_HEADER says otherwise',
				"set paths: { origin: 'https://your.site' } in sveltekit({ … }) in vite.config.ts (or PROTOCOL_HEADER=x-forwarded-proto behind a proxy)"
			)
		];
	}
	return [];
}

export function checkFormPost({ project, auth }: DoctorContext): Finding[] {
	const presets = importedPresets(auth.source).filter((id) => id in FORM_POST_PRESETS);
	const generic = /response_mode['"]?\s*:\s*['"]form_post['"]/.test(auth.source);
	if (presets.length === 0 && !generic) return [];
	// SvelteKit 3 (and apps made by recent `sv create`) configure the kit in vite.config.ts.
	const file = project.kit === 3 || !project.exists('svelte.config.js') ? 'vite.config.ts' : 'svelte.config.js';
	const config = [project.read('vite.config.ts'), project.read('vite.config.js'), project.read('svelte.config.js')].join('\n');
	const trusted = /trustedOrigins\s*:\s*\[([^\]]*)\]/.exec(config)?.[1];
	const where =
		file === 'vite.config.ts' ? 'sveltekit({ csrf: { trustedOrigins: [...] } }) in vite.config.ts' : 'kit.csrf.trustedOrigins in svelte.config.js (SvelteKit 2.36 or later)';
	const findings: Finding[] = [];
	for (const id of presets) {
		const origin = FORM_POST_PRESETS[id]!;
		if (trusted?.includes(origin) || trusted?.includes("'*'")) findings.push(fine(`${id}'s form_post origin is in csrf.trustedOrigins`));
		else findings.push(problem(`${id} answers with a cross-site form POST (response_mode form_post), which SvelteKit refuses (403) unless ${origin} is in csrf.trustedOrigins`, `add '${origin}' to ${where}`));
	}
	if (generic) {
		if (trusted?.trim()) findings.push(fine(`csrf.trustedOrigins is set in ${file} (check that it has your IdP's origin)`));
		else findings.push(problem('A provider uses response_mode form_post, but csrf.trustedOrigins is empty: SvelteKit refuses its cross-site POST (403)', `add your IdP's origin to ${where}`));
	}
	return findings;
}

export function checkProviderCredentials({ env, auth }: DoctorContext): Finding[] {
	const findings: Finding[] = [];
	for (const id of importedPresets(auth.source).filter(isOAuthPreset)) {
		const names = [`${envPrefix(id)}_ID`, `${envPrefix(id)}_SECRET`];
		const missing = names.filter((name) => !env[name]);
		if (missing.length === 0) findings.push(fine(`${id}: ${names.join(' and ')} set`));
		else if (/\bclientId\s*:/.test(auth.source)) findings.push(fine(`${id}: ${auth.path} passes clientId (not checked: it is computed at run time)`));
		else findings.push(problem(`${id}: ${missing.join(' and ')} not set, so sign-in with ${id} fails`, `set ${missing.join(' and ')} (from the app registered with ${id}; callback URL https://your.site/auth/callback/${id})`));
	}
	return findings;
}

export async function checkMigrations({ project, auth, env }: DoctorContext): Promise<Finding[]> {
	const engine = engineInSource(auth.source);
	if (!engine) {
		const other = adapterIdInSource(auth.source);
		return other ? [fine(`kitauth/adapters/${other}: migrations not checked (the CLI does not know this engine yet)`)] : [];
	}
	try {
		const state = await engine.state(env, project.root);
		if (state.missing) return [problem(`The database ${state.where} does not exist yet`, 'npx kitauth migrate')];
		if (state.pending.length) return [problem(`${state.where} lacks ${state.pending.length} of kitauth's migrations: ${state.pending.join(', ')}`, 'npx kitauth migrate')];
		return [fine(`${state.where} has every migration of this kitauth`)];
	} catch (error) {
		return [problem(`The database could not be read: ${(error as Error).message}`, 'check DATABASE_URL (and DATABASE_AUTH_TOKEN), then npx kitauth migrate')];
	}
}
