/** The one-time code form of the verify-request page, where the email flow sends codes. */
export interface VerifyRequestCode {
	/** Where the code form posts (e.g. the email provider's callback). */
	action: string;
	/** Hidden fields it carries besides `csrfToken` (e.g. the address). */
	fields?: Record<string, string>;
	/** The message of a refused code, shown under the field. */
	error?: string;
}
