import type { AnyParamsInput } from '../../../contract/bots.ts';
import { validateCustom } from '../../../strategy/custom/rules.ts';
import { startRuleProblems } from '../../../strategy/dca/plan.ts';

/**
 * What a new bot starts from when it is a copy (as on Pionex: clone a bot, copy a ranked one): a ranked bot's pair
 * and parameters with its figures (from /rank), one of the trader's own bots (clone, from its detail),
 * or only a pair (create from the pair's chart). It travels in the create screen's address as
 * `?copy=<JSON>`; whatever does not parse is ignored and the form starts as usual.
 */
export interface BotCopy {
  symbol?: string;
  params?: AnyParamsInput;
  /** The original's figures, shown beside the form (a ranked bot's). */
  from?: { roiPct: string; maxDrawdownPct: string; runtime: number; cycles: number };
}

const SYMBOL = /^[A-Z0-9]{2,20}\/[A-Z0-9]{2,20}$/;
const plain = (v: unknown) => typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';
/** A DCA bot's start: an object of plain values, or an indicator start whose rule the strategy finds nothing wrong with. */
const start = (v: unknown) => {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return false;
  const s = v as Record<string, unknown>;
  return s.kind === 'indicator' ? Object.keys(s).length === 2 && startRuleProblems(s.rule).length === 0 : Object.values(s).every(plain);
};
/** A parameter: a plain value, or a DCA bot's start. */
const param = ([key, v]: [string, unknown]) => plain(v) || (key === 'start' && start(v));

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
  if (!raw || typeof raw !== 'object') return undefined;
  const r = raw as Record<string, unknown>;
  const out: BotCopy = {};
  if (typeof r.symbol === 'string' && SYMBOL.test(r.symbol)) out.symbol = r.symbol;
  if (r.params && typeof r.params === 'object' && Object.entries(r.params).every(param)) out.params = r.params as AnyParamsInput;
  // A custom bot's rules are nested: taken only when the strategy finds nothing wrong with them (a null exit: none).
  else if (r.params && typeof r.params === 'object' && 'entry' in r.params) {
    const { exit, takeProfit, stopLoss, ...rest } = r.params as Record<string, unknown>;
    const params = { ...rest, ...(exit ? { exit } : {}), ...(takeProfit ? { takeProfit } : {}), ...(stopLoss ? { stopLoss } : {}) };
    if (validateCustom(params).length === 0) out.params = params as AnyParamsInput;
  }
  const f = r.from as Record<string, unknown> | undefined;
  if (f && typeof f.roiPct === 'string' && typeof f.maxDrawdownPct === 'string' && typeof f.runtime === 'number' && typeof f.cycles === 'number')
    out.from = { roiPct: f.roiPct, maxDrawdownPct: f.maxDrawdownPct, runtime: f.runtime, cycles: f.cycles };
  return out;
}

/** The address value of a copy. */
export const copyParam = (copy: BotCopy) => JSON.stringify(copy);
