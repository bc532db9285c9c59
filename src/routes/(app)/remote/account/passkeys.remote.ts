import { passkeyForms } from '#lib/remote/server.js';
import { reauthenticateAge } from '../../../../demo/auth.js';

/** The passkey list's forms with the demo's window for removing (its end-to-end tests shorten it). */
export const { renamePasskey, removePasskey } = passkeyForms({ maxAge: reauthenticateAge });
