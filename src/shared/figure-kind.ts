/**
 * What a figure on screen is, for its `data-figure` attribute: the rule its digits follow (format.ts),
 * which tests/number-formats checks on every main screen. quote: a USDT sum at exactly 2 decimals;
 * price: at the pair's tick; amount: at the pair's step (the pair: the nearest data-symbol around it);
 * percent: 2 decimals and "%".
 */
export type FigureKind = 'quote' | 'price' | 'amount' | 'percent';
