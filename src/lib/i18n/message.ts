/** One text per plural category; `other` is always there (CLDR's fallback category). */
export type PluralMessage = { readonly other: string } & { readonly [C in Exclude<Intl.LDMLPluralRule, 'other'>]?: string };

/** A message: text with `{name}` placeholders, or a plural message chosen by its `count`. */
export type Message = string | PluralMessage;
