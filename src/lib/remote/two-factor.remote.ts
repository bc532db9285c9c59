/**
 * The two-factor components' forms as remote forms (`kitauth/remote`): the code of
 * `twoFactor.actions()` with its default window for turning two-factor off and making new backup
 * codes (a sign-in within 10 minutes). Only remote functions may be exported here; the factory
 * lives in `./two-factor.ts`.
 */
import { twoFactorForms } from './two-factor.js';

export const { verifyTwoFactor, enableTwoFactor, disableTwoFactor, regenerateBackupCodes, forgetTwoFactorDevices } = twoFactorForms();
