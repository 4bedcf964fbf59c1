/**
 * The zod pieces the calls' definitions share: what an answer's fields are (money as exact decimal
 * strings, ids as strings, ISO times) and what an input's fields may be. Query values arrive as strings
 * and are parsed explicitly; JSON bodies are never coerced. Objects are strict everywhere: an input with
 * a key the contract does not name is refused, and an answer with one is a leak or a drift.
 */
import { z } from 'zod';
import { PAGE_SIZE_MAX } from './rules.ts';

// ---- Answers ----

/** An exact decimal string as the server writes money, prices and percentages: no exponent, sign only when negative. */
export const decimal = z.string().regex(/^-?(0|[1-9]\d*)(\.\d+)?$/, 'decimal');
/** A database id, as a string (bigint ids do not fit a JSON number). */
export const id = z.string().regex(/^[1-9]\d*$/, 'id');
/** Every server time is `Date.prototype.toISOString()`: UTC with a Z. */
export const time = z.iso.datetime();
export const count = z.number().int().min(0);
/** A notice's or a log line's figures, which the screen words. */
export const detail = z.record(z.string(), z.string());
export const tradingMode = z.enum(['live', 'simulation']);
/** The platform's balances. */
export const assets = ['usdt', 'fuel', 'points', 'rewards'] as const;
export const asset = z.enum(assets);

/** The fields of a page of a list (`Page` of envelope.ts), for answers that add fields beside them. */
export const pageShape = <T extends z.ZodType>(item: T) => ({ list: z.array(item), total: count, page: z.number().int().min(1), page_size: z.number().int().min(1) });
/** One page of a list: every list answer has this shape. */
export const page = <T extends z.ZodType>(item: T) => z.strictObject(pageShape(item));

// ---- Inputs ----

/** A whole number from 1 to max, sent as a query string. */
export const positiveInt = (max: number) =>
  z
    .string()
    .regex(/^[1-9]\d{0,8}$/, 'format')
    .transform(Number)
    .pipe(z.number().int().min(1).max(max));
export const pageQuery = positiveInt(1_000_000).optional();
export const pageSizeQuery = positiveInt(PAGE_SIZE_MAX).optional();
/** An id as a caller sends it. */
export const idInput = z.string().regex(/^[1-9]\d{0,17}$/, 'format');
/** An exchange's code (binance, paper, ...). */
export const exchangeCode = z.string().regex(/^[a-z0-9]{2,20}$/, 'format');
/** An amount a trader types: a plain decimal, at most 18 places. */
export const decimalInput = z.string().regex(/^(0|[1-9]\d{0,17})(\.\d{1,18})?$/, 'format');
/** A wallet address on chain 56. */
export const address = z.string().regex(/^0x[0-9a-fA-F]{40}$/, 'format');
export const signature = z
  .string()
  .regex(/^0x[0-9a-fA-F]+$/, 'format')
  .max(2000);
/** Chain 56 by its usual names; the service refuses other networks with NetworkUnsupported. */
export const network = z.string().regex(/^[A-Za-z0-9-]{2,20}$/, 'format');
/** A second factor: 6 digits from the authenticator app, or a recovery code (K7Q2-MX9D). */
export const secondFactor = z.string().regex(/^(\d{6}|[2-9A-HJKMNP-Za-hjkmnp-z]{4}-?[2-9A-HJKMNP-Za-hjkmnp-z]{4})$/, 'format');
/** A UTC day, YYYY-MM-DD, that exists on the calendar (2026-02-30 does not). */
export const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'format')
  .refine((d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)) && new Date(`${d}T00:00:00Z`).toISOString().startsWith(d), 'format');
/** The trader's time zone, minutes east of UTC (-720 to 840; UTC+8 is 480), so a day is theirs, not UTC's. */
export const utcOffset = z
  .string()
  .regex(/^-?\d{1,3}$/, 'format')
  .transform(Number)
  .pipe(z.number().int().min(-720).max(840));
/** A body that carries nothing (or is left out). */
export const emptyBody = z.strictObject({}).optional();
