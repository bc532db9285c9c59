/**
 * The passkey and two-factor parts on remote forms (`remote`, a binding the `kitauth/components`
 * wrappers make from kit's form objects): each form gets its remote form's attributes (kit's
 * `?/remote=` action), and every input the name kit gave it (`field.as(…)`), so kit accepts the
 * post; without `remote` they post to the form actions as before.
 */
import { describe, expect, test } from 'vitest';
import BackupCodes from '../../../src/lib/components/parts/BackupCodes.svelte';
import PasskeyList from '../../../src/lib/components/parts/PasskeyList.svelte';
import TwoFactorChallenge from '../../../src/lib/components/parts/TwoFactorChallenge.svelte';
import TwoFactorSetup from '../../../src/lib/components/parts/TwoFactorSetup.svelte';
import type { RemoteFormBinding } from '../../../src/lib/components/parts/types.js';
import type { PasskeyInfo } from '../../../src/lib/core/index.js';
import { renderDom } from './dom.js';

/** A remote form as kit names it: `<hash>/<name>`, its inputs `<field>/<hash>/<name>`. */
const binding = (id: string): RemoteFormBinding => ({ attributes: { method: 'POST', action: `?/remote=${id}` }, name: (field) => `${field}/${id}`, pending: false });

/** Each form's action and the names of its inputs. */
const forms = (all: (selector: string) => Element[]) =>
	all('form').map((form) => ({ action: form.getAttribute('action'), names: [...form.querySelectorAll('input')].map((input) => input.getAttribute('name')) }));

const passkey = (id: string, name: string): PasskeyInfo => ({ id, provider: 'passkey', name, createdAt: null, lastUsedAt: null, deviceType: 'multiDevice', backedUp: true, transports: [] });

describe('PasskeyList', () => {
	test("each passkey's rename and remove post to that passkey's remote forms, the passkey's id in kit's field", () => {
		const remote = { rename: (id: string) => binding(`h1/renamePasskey/${id}`), remove: (id: string) => binding(`h1/removePasskey/${id}`) };
		const { $$ } = renderDom(PasskeyList, { passkeys: [passkey('bGFwdG9w', 'Laptop'), passkey('a2V5', 'Key')], remote });
		expect(forms($$)).toEqual([
			{ action: '?/remote=h1/renamePasskey/bGFwdG9w', names: ['id/h1/renamePasskey/bGFwdG9w', 'name/h1/renamePasskey/bGFwdG9w'] },
			{ action: '?/remote=h1/removePasskey/bGFwdG9w', names: ['id/h1/removePasskey/bGFwdG9w'] },
			{ action: '?/remote=h1/renamePasskey/a2V5', names: ['id/h1/renamePasskey/a2V5', 'name/h1/renamePasskey/a2V5'] },
			{ action: '?/remote=h1/removePasskey/a2V5', names: ['id/h1/removePasskey/a2V5'] }
		]);
		expect($$('input[type="hidden"]').map((input) => input.getAttribute('value'))).toEqual(['bGFwdG9w', 'bGFwdG9w', 'a2V5', 'a2V5']);
	});

	test('without remote: the form actions and plain names', () => {
		const { $$ } = renderDom(PasskeyList, { passkeys: [passkey('a2V5', 'Key')] });
		expect(forms($$)).toEqual([
			{ action: '?/renamePasskey', names: ['id', 'name'] },
			{ action: '?/removePasskey', names: ['id'] }
		]);
	});
});

describe('the two-factor parts', () => {
	test('TwoFactorChallenge: the code, the remember checkbox and hidden fields named by kit', () => {
		const { $$ } = renderDom(TwoFactorChallenge, { remote: binding('h2/verifyTwoFactor'), rememberDays: 30, fields: { next: '/notes' } });
		expect(forms($$)).toEqual([{ action: '?/remote=h2/verifyTwoFactor', names: ['next/h2/verifyTwoFactor', 'code/h2/verifyTwoFactor', 'remember/h2/verifyTwoFactor'] }]);
	});

	test('TwoFactorSetup: turning on posts to its form; once on, turning off and forgetting browsers to theirs (forget shown with its form)', () => {
		const setup = { secret: 'JBSWY3DPEHPK3PXP', uri: 'otpauth://totp/x?secret=JBSWY3DPEHPK3PXP', issuer: 'x', accountName: 'a@example.com' };
		const off = renderDom(TwoFactorSetup, { setup, remote: { enable: binding('h2/enableTwoFactor') } });
		expect(forms(off.$$)).toEqual([{ action: '?/remote=h2/enableTwoFactor', names: ['code/h2/enableTwoFactor'] }]);
		const on = renderDom(TwoFactorSetup, { enabled: true, remote: { disable: binding('h2/disableTwoFactor'), forgetDevices: binding('h2/forgetTwoFactorDevices') } });
		expect(forms(on.$$)).toEqual([
			{ action: '?/remote=h2/forgetTwoFactorDevices', names: [] },
			{ action: '?/remote=h2/disableTwoFactor', names: [] }
		]);
		expect(forms(renderDom(TwoFactorSetup, { enabled: true }).$$)).toEqual([{ action: '?/disableTwoFactor', names: [] }]);
	});

	test('BackupCodes: the form making new codes is shown with a remote form alone', () => {
		expect(forms(renderDom(BackupCodes, { remaining: 3, remote: binding('h2/regenerateBackupCodes') }).$$)).toEqual([{ action: '?/remote=h2/regenerateBackupCodes', names: [] }]);
		expect(forms(renderDom(BackupCodes, { remaining: 3 }).$$)).toEqual([]);
	});
});
