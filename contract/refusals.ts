/**
 * What an exchange's refusal of an order was about, from its text (every refusal in the
 * trader's language). The engine keeps the exchange's own words (Paper's fixed reasons, a live
 * exchange's message, a refused key marked `api-key: `); the screens word each kind in zh and en and
 * show the exchange's words only for a refusal of no known kind.
 */
export type RefusalKind = 'funds' | 'size' | 'key' | 'pair' | 'other';

/** The prefix the engine puts before the message of an exchange that refused the API key itself. */
export const API_KEY_REFUSED = 'api-key: ';

const kinds: [RefusalKind, RegExp][] = [
  ['funds', /insufficient|not enough|balance (is )?(too )?(low|not sufficient)|margin is insufficient/i],
  ['size', /too small|min(imum)?[ _-]?(notional|amount|qty|quantity|order|size|cost)|lot_size|notional|precision|below the minimum/i],
  ['pair', /invalid symbol|unknown symbol|symbol (is )?(not|in)valid|market (is )?(closed|not found)|trading (is )?(halted|suspended)|bad symbol/i],
];

export function refusalKind(reason: string): RefusalKind {
  if (reason.startsWith(API_KEY_REFUSED)) return 'key';
  for (const [kind, pattern] of kinds) if (pattern.test(reason)) return kind;
  return 'other';
}
