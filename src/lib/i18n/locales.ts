/**
 * The catalogues kitauth ships, by BCP 47 tag. English is complete by definition (the source);
 * the others are checked against it by the completeness test.
 */
import { en } from './en.js';
import type { Messages } from './types.js';

export const CATALOGUES: Readonly<Record<string, Messages>> = Object.freeze({ en });

/** The tags of the shipped catalogues, English first. */
export const SHIPPED_LOCALES: readonly string[] = Object.freeze(Object.keys(CATALOGUES));
