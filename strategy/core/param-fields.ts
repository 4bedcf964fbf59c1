import { z } from 'zod';

/** A non-negative decimal as a string (money and percentages: "2" is 2 %), up to 18 digits and 18 decimals. */
export const decimal = z.string().regex(/^(0|[1-9]\d{0,17})(\.\d{1,18})?$/, 'format');

/** An optional decimal a form leaves empty ('') when the field is off. */
export const optionalDecimal = z.union([z.literal(''), decimal]).optional();
