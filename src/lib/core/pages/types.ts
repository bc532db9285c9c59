/** A credentials form field as the sign-in page renders it (attributes already filtered). */
export interface PageField {
	name: string;
	label: string;
	attributes: Record<string, string | number | boolean>;
}

/** A provider as the sign-in page renders it. */
export interface PageProvider {
	id: string;
	name: string;
	type: string;
	signinUrl: string;
	callbackUrl: string;
	fields?: PageField[];
	/** WebAuthn providers: the form's fields and whether passkeys are offered in autofill. */
	webauthn?: { fields: PageField[]; autofill: boolean };
	style?: { logo?: string; bg?: string; text?: string };
}
