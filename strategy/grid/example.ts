import type { GridParamsInput } from './params.ts';

/** A grid bot's parameters as its form sends them: 1,000 USDT on ten levels from 55,000 to 65,000. The tests every type must pass read it (strategy/kit.test.ts, server/http/every-type.test.ts). */
export const example: GridParamsInput = { investment: '1000', lower: '55000', upper: '65000', grids: 10, spacing: 'arithmetic', stopLoss: '', takeProfit: '' };
