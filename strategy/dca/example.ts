import type { DcaParamsInput } from './params.ts';

/** A DCA bot's parameters as its form sends them (README.md's example): 320 USDT a deal. The tests every type must pass read it (strategy/kit.test.ts, server/http/every-type.test.ts). */
export const example: DcaParamsInput = {
  investment: '320',
  baseOrder: '20',
  safetyOrder: '20',
  maxSafetyOrders: 4,
  deviation: '1.5',
  stepScale: '1.5',
  volumeScale: '2',
  takeProfit: '1.5',
  stopLoss: '15',
  cooldown: 0,
  start: { kind: 'now' },
};
