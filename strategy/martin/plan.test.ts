import { describe, expect, it } from 'vitest';
import { money, toPlain } from '../money.ts';
import type { MarketRules, MartinParams } from './rules.ts';
import { averagePrice, closeCycle, nextAddPrice, planLevels, requiredInvestment, stopLossPrice, takeProfitPrice, validateMartin } from './plan.ts';

// Worked examples computed by hand (README.md beside this file shows the arithmetic).
const btc: MarketRules = { tickSize: money('0.01'), stepSize: money('0.00001'), minAmount: money('0.00001'), minCost: money('5'), feeRate: money('0.001') };
const btcBot: MartinParams = { investment: '150', firstOrder: '10', multiplier: '2', maxPositions: 4, addTrigger: '2', takeProfit: '1.5', stopLoss: '5', repeat: true };
const plain = (levels: ReturnType<typeof planLevels>) => levels.map((l) => ({ price: toPlain(l.price), quote: toPlain(l.quote), amount: toPlain(l.amount), cost: toPlain(l.cost) }));

describe('martin example 1: BTC/USDT from 60000, 10 USDT doubling, 4 orders, adds every 2%', () => {
  const levels = planLevels(btcBot, btc, money('60000'));

  it('plans every order: trigger prices floored to the tick, amounts floored to the step', () => {
    expect(plain(levels)).toEqual([
      { price: '60000', quote: '10', amount: '0.00016', cost: '9.6' },
      { price: '58800', quote: '20', amount: '0.00034', cost: '19.992' },
      { price: '57624', quote: '40', amount: '0.00069', cost: '39.76056' },
      { price: '56471.52', quote: '80', amount: '0.00141', cost: '79.6248432' },
    ]);
    expect(toPlain(requiredInvestment(btcBot))).toBe('150');
  });

  it('averages the entries and sets take profit (rounded up) and stop loss (rounded down)', () => {
    const avg2 = averagePrice(levels.slice(0, 2));
    expect(toPlain(avg2)).toBe('59184');
    expect(toPlain(takeProfitPrice(avg2, '1.5', btc.tickSize))).toBe('60071.76');
    const avg = averagePrice(levels);
    expect(avg.toSignificantDigits(20).toFixed()).toBe('57299.001230769230769');
    expect(toPlain(takeProfitPrice(avg, '1.5', btc.tickSize))).toBe('58158.49');
    expect(toPlain(stopLossPrice(avg, '5', btc.tickSize))).toBe('54434.05');
  });

  it('closes at take profit with fees: base fee on buys, quote fee on the sale, dust kept at its cost', () => {
    const r = closeCycle(levels, money('58158.49'), btc);
    // Held 0.0025974 after the base fees; 0.00259 sells, 0.0000074 stays below the step.
    expect(toPlain(r.sellAmount)).toBe('0.00259');
    expect(toPlain(r.dust)).toBe('0.0000074');
    expect(toPlain(r.cost)).toBe('148.9774032');
    expect(toPlain(r.proceeds)).toBe('150.4798586109');
    // What was sold carries 0.00259 / 0.0025974 of the cost: 148.9774032 x 0.99715... = 148.55296615 (8 places).
    expect(toPlain(r.costSold)).toBe('148.55296615');
    expect(toPlain(r.profit)).toBe('1.9268924609');
    // The dust is not a loss: it keeps the rest of the cost, 148.9774032 - 148.55296615.
    expect(toPlain(r.dustCost)).toBe('0.42443705');
  });

  it('sells the dust with the next close once it adds up to a step, counting its cost then', () => {
    // Next cycle: one buy of 0.00017 BTC at 59000 (10.03 USDT); alone it would sell 0.00016 (0.00016983 held).
    const carry = { amount: money('0.0000074'), cost: money('0.42443705') };
    const next = closeCycle([{ price: money('59000'), amount: money('0.00017') }], money('60000'), btc, carry);
    expect(toPlain(next.sellAmount)).toBe('0.00017');
    expect(toPlain(next.dust)).toBe('0.00000723');
    expect(toPlain(next.proceeds)).toBe('10.1898');
    // Basis 10.45443705 x 0.00017 / 0.00017723 = 10.02795406; the 0.00000723 left keeps 0.42648299.
    expect(toPlain(next.costSold)).toBe('10.02795406');
    expect(toPlain(next.profit)).toBe('0.16184594');
    expect(toPlain(next.dustCost)).toBe('0.42648299');
  });
});

describe('martin example 2: ETH/USDT from 3000.37, 25 USDT x1.5, 3 orders, adds every 1.25%', () => {
  const eth: MarketRules = { tickSize: money('0.01'), stepSize: money('0.0001'), minAmount: money('0.0001'), minCost: money('5'), feeRate: money('0.001') };
  const bot: MartinParams = { investment: '118.75', firstOrder: '25', multiplier: '1.5', maxPositions: 3, addTrigger: '1.25', takeProfit: '2', repeat: false };

  it('plans non-integer multipliers and odd prices exactly', () => {
    expect(plain(planLevels(bot, eth, money('3000.37')))).toEqual([
      { price: '3000.37', quote: '25', amount: '0.0083', cost: '24.903071' },
      { price: '2962.86', quote: '37.5', amount: '0.0126', cost: '37.332036' },
      { price: '2925.82', quote: '56.25', amount: '0.0192', cost: '56.175744' },
    ]);
    expect(toPlain(requiredInvestment(bot))).toBe('118.75');
    const avg = averagePrice(planLevels(bot, eth, money('3000.37')));
    expect(toPlain(takeProfitPrice(avg, '2', eth.tickSize))).toBe('3011.95');
    expect(validateMartin(bot, eth, money('3000.37'))).toEqual([]);
  });

  it('moves the next add from the actual last fill, not the plan', () => {
    expect(toPlain(nextAddPrice(money('2950.00'), '1.25', eth.tickSize))).toBe('2913.12');
  });
});

describe('martin example 3: what validation refuses', () => {
  it('an investment that cannot pay for every order', () => {
    expect(validateMartin({ ...btcBot, investment: '149.99' }, btc, money('60000'))).toEqual([{ field: 'investment', reason: 'insufficient' }]);
  });
  it('a first order below the market minimum cost (5 USDT buys 0.00008 BTC = 4.8 USDT)', () => {
    expect(validateMartin({ ...btcBot, firstOrder: '5', investment: '75' }, btc, money('60000'))).toEqual([{ field: 'firstOrder', reason: 'belowMinimum' }]);
  });
  it('missing fields, bad formats and values out of bounds', () => {
    const problems = validateMartin({ firstOrder: '1e3', multiplier: '0.5', maxPositions: 0, addTrigger: '2', takeProfit: '0', stopLoss: '' }, btc, money('60000'));
    expect(problems).toEqual([
      { field: 'investment', reason: 'required' },
      { field: 'firstOrder', reason: 'format' },
      { field: 'multiplier', reason: 'range' },
      { field: 'takeProfit', reason: 'range' },
      { field: 'maxPositions', reason: 'range' },
    ]);
  });
  it('refuses float money outright', () => {
    expect(() => money(0.1)).toThrow(TypeError);
  });
});
