import type { BotInfo, BuiltBotType, ParamsInputOf } from '../../../contract/bots.ts';

/**
 * What a new bot starts from when it is a copy (as on Pionex: clone a bot, copy a ranked one): a ranked bot's pair
 * and parameters with its figures (from /rank), one of the trader's own bots (clone, from its detail),
 * or only a pair (create from the pair's chart). It travels in the create screen's address as
 * `?copy=<JSON>`; whatever does not parse is ignored and the form starts as usual. The parameters are the
 * screen's type's only once that type's own check took them (StrategyUi `copied`).
 */
export interface BotCopy<P = Record<string, unknown>> {
  symbol?: string;
  params?: P;
  /** The original's figures, shown beside the form (a ranked bot's). */
  from?: { roiPct: string; maxDrawdownPct: string; runtime: number; cycles: number };
}

const SYMBOL = /^[A-Z0-9]{2,20}\/[A-Z0-9]{2,20}$/;
const plain = (v: unknown) => typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';
const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/** The copy an address carries, its parameters not yet checked as any type's. */
export function copyOf(search: Record<string, unknown>): BotCopy | undefined {
  // The router reads a search value that is JSON as what it says (an object here); a hand-made link may bring the text.
  let raw: unknown = search.copy;
  if (typeof raw === 'string') {
    try {
      raw = JSON.parse(raw);
    } catch {
      return undefined;
    }
  }
  if (!isObject(raw)) return undefined;
  const out: BotCopy = {};
  if (typeof raw.symbol === 'string' && SYMBOL.test(raw.symbol)) out.symbol = raw.symbol;
  if (isObject(raw.params)) out.params = raw.params;
  const f = raw.from;
  if (isObject(f) && typeof f.roiPct === 'string' && typeof f.maxDrawdownPct === 'string' && typeof f.runtime === 'number' && typeof f.cycles === 'number')
    out.from = { roiPct: f.roiPct, maxDrawdownPct: f.maxDrawdownPct, runtime: f.runtime, cycles: f.cycles };
  return out;
}

/** The copy with its parameters as the type's (`check`: the type's own), or without them when they are not. */
export function copyAs<P>(copy: BotCopy | undefined, check: (params: Record<string, unknown>) => P | undefined): BotCopy<P> | undefined {
  if (!copy) return undefined;
  const { params, ...rest } = copy;
  const own = params ? check(params) : undefined;
  return own === undefined ? rest : { ...rest, params: own };
}

/**
 * A copied parameter set of plain values (the usual form) as a type's: taken when it has the type's
 * `own` fields and every value is plain, but those `nested` names, each taken when its check passes.
 */
export function flatParams<P>(params: Record<string, unknown>, own: readonly string[], nested: Record<string, (v: unknown) => boolean> = {}): P | undefined {
  if (!own.every((key) => key in params)) return undefined;
  const ok = Object.entries(params).every(([key, v]) => plain(v) || (Object.hasOwn(nested, key) && nested[key]!(v)));
  return ok ? (params as P) : undefined;
}

/** The parameters of the bot being edited, when it is of the screen's type (its `type` says so). */
export function ownParams<T extends BuiltBotType>(bot: BotInfo | undefined, type: T): ParamsInputOf<T> | undefined {
  return bot?.type === type ? (bot.params as ParamsInputOf<T>) : undefined;
}

/** The address value of a copy. */
export const copyParam = (copy: BotCopy) => JSON.stringify(copy);
