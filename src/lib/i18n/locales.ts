/**
 * The catalogues kitauth ships, by BCP 47 tag. English is complete by definition (the source);
 * TypeScript (`Catalogue`) and the completeness test hold the others to its keys and parameters.
 */
import { ar } from './ar.js';
import { de } from './de.js';
import { en } from './en.js';
import { es } from './es.js';
import { fr } from './fr.js';
import { ja } from './ja.js';
import { ptBR } from './pt-BR.js';
import type { Messages } from './types.js';

export const CATALOGUES: Readonly<Record<string, Messages>> = Object.freeze({ en, de, fr, es, 'pt-BR': ptBR, ja, ar });

/** The tags of the shipped catalogues, English first. */
export const SHIPPED_LOCALES: readonly string[] = Object.freeze(Object.keys(CATALOGUES));
