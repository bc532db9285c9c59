/**
 * `kitauth doctor`: checks an app's kitauth set-up for production and prints each finding with its
 * fix; exit code 1 when something is wrong.
 */
import { findAuthModule } from './auth-module.js';
import { type Command, COMMON_HELP, COMMON_OPTIONS } from './command.js';
import {
	checkFormPost,
	checkHook,
	checkMigrations,
	checkNodeOrigin,
	checkProviderCredentials,
	checkSecret,
	checkTrustedHost,
	type DoctorContext,
	type Finding
} from './doctor-checks.js';
import { projectEnv } from './env-file.js';
import { openProject } from './project.js';
import type { Terminal } from './terminal.js';

const CHECKS = [checkHook, checkSecret, checkTrustedHost, checkNodeOrigin, checkFormPost, checkProviderCredentials, checkMigrations];

/** Every finding about the app in `cwd`. */
export async function diagnose(cwd: string, env: Record<string, string | undefined>, mode: string): Promise<Finding[]> {
	const project = openProject(cwd);
	const auth = findAuthModule(project);
	if (!auth) return [{ ok: false, what: 'No kitauth configuration (SvelteKitAuth in src/auth.ts or src/hooks.server.ts)', fix: 'npx kitauth init' }];
	const context: DoctorContext = { project, auth, env: projectEnv(project, mode, env) };
	const findings: Finding[] = [];
	for (const check of CHECKS) findings.push(...(await check(context)));
	return findings;
}

export function report(findings: Finding[], terminal: Terminal): number {
	for (const finding of findings) {
		if (finding.ok) terminal.say(`  ok    ${finding.what}`);
		else terminal.say(`  FIX   ${finding.what}\n        → ${finding.fix!.replace(/\n/g, '\n          ')}`);
	}
	const problems = findings.filter((f) => !f.ok).length;
	terminal.say(problems ? `${problems} problem${problems > 1 ? 's' : ''} found.` : 'No problems found.');
	return problems ? 1 : 0;
}

export const doctorCommand: Command = {
	name: 'doctor',
	summary: "check the app's kitauth set-up for production",
	help: `Usage: kitauth doctor [--mode <mode>]

Checks the app as its production server would see it (the environment, over the .env files Vite
reads for the mode) and prints each finding with its fix; exits with 1 when something is wrong:
  - kitauth's handle in src/hooks.server.ts
  - a secret (AUTH_SECRET, at least 32 characters)
  - a trusted host: AUTH_URL or AUTH_TRUST_HOST (and with adapter-node, where the origin comes from)
  - csrf.trustedOrigins for IdPs that answer with a form POST (Apple, response_mode form_post)
  - AUTH_<ID>_ID and AUTH_<ID>_SECRET for each OAuth provider
  - the database has every migration of this kitauth
The configuration is read as written in src/auth.ts (a static read): what it computes at run time,
a provider with a custom id or credentials passed in code are not checked.

  --mode <mode>       which .env files to read (default: production)
${COMMON_HELP}`,
	options: { ...COMMON_OPTIONS, mode: { type: 'string' } },
	async run(values, { terminal, cwd, env }) {
		terminal.say(`kitauth doctor: ${cwd}`);
		return report(await diagnose(cwd, env, typeof values.mode === 'string' ? values.mode : 'production'), terminal);
	}
};
