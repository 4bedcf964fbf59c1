import type { CustomParamsInput } from './params.ts';

/** A custom bot's parameters as its form sends them: 100 USDT when the price crosses below 59,000, a 2 % take profit. The tests every type must pass read it (strategy/kit.test.ts, server/http/every-type.test.ts). */
export const example: CustomParamsInput = {
  investment: '1000',
  size: { kind: 'fixed', quote: '100' },
  entry: { join: 'and', conditions: [{ left: { kind: 'price' }, op: 'crossesBelow', right: { kind: 'value', value: '59000' } }] },
  exit: null,
  takeProfit: '2',
  stopLoss: '',
  repeat: true,
};
