import { z } from 'zod';

/** A non-negative decimal as a string (money and percentages: "2" is 2 %), up to 18 digits and 18 decimals. */
export const decimal = z.string().regex(/^(0|[1-9]\d{0,17})(\.\d{1,18})?$/, 'format');

/** An optional decimal a form leaves empty ('') when the field is off. */
export const optionalDecimal = z.union([z.literal(''), decimal]).optional();

/** A parameter's words in a refusal (zh / en), for a field no other type names: kept beside its schema, out of its JSON Schema. */
export const paramWordsRegistry = z.registry<{ zh: string; en: string }>();

/** `schema` as a field named by `words` (contract/field-words.ts reads them). */
export function named<T extends z.ZodType>(schema: T, words: { zh: string; en: string }): T {
  const own = schema.clone() as T;
  paramWordsRegistry.add(own, words);
  return own;
}
