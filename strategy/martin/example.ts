import type { MartinParamsInput } from './params.ts';

/** A martin bot's parameters as its form sends them: 100 USDT first, doubling, five levels 2 % apart, 1.5 % take profit. The tests every type must pass read it (strategy/kit.test.ts, server/http/every-type.test.ts). */
export const example: MartinParamsInput = { investment: '3100', firstOrder: '100', multiplier: '2', maxPositions: 5, addTrigger: '2', takeProfit: '1.5', stopLoss: '', repeat: false };
