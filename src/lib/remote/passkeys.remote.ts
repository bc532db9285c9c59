/**
 * `<PasskeyList>`'s forms as remote forms (`kitauth/remote`): `renamePasskey` and `removePasskey`,
 * the code of `passkeys.actions()` with its default window for removing (a sign-in within 10
 * minutes). Only remote functions may be exported here; the factory lives in `./passkeys.ts`.
 */
import { passkeyForms } from './passkeys.js';

export const { renamePasskey, removePasskey } = passkeyForms();
