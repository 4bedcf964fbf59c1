import type { DipParamsInput } from './params.ts';

/** A buy-the-dip bot's parameters as its form sends them (README.md's example). The tests every type must pass read it (strategy/kit.test.ts, server/http/every-type.test.ts). */
export const example: DipParamsInput = { investment: '100', dip: '3', takeProfit: '2' };
