import { describe, expect, it } from 'vitest';
import { money, toPlain } from '../money.ts';
import type { MartinParams } from './rules.ts';
import type { MarketRules } from '../core/market.ts';
import { nextAddPrice, planLevels, requiredInvestment, validateMartin } from './plan.ts';
import { averagePrice, closeCycle, reducePosition, sellableAmount, sizeClose, stopLossPrice, takeProfitPrice } from '../core/position.ts';

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

  it('closes at take profit with fees: base fee on buys, quote fee on the sale; the profit is the quote received less the quote spent', () => {
    const r = closeCycle(levels, money('58158.49'), btc);
    // Held 0.0025974 after the base fees; 0.00259 sells, 0.0000074 stays below the step.
    expect(toPlain(r.sellAmount)).toBe('0.00259');
    expect(toPlain(r.dust)).toBe('0.0000074');
    expect(toPlain(r.cost)).toBe('148.9774032');
    expect(toPlain(r.proceeds)).toBe('150.4798586109');
    // The books are in the quote: the cycle spent 148.9774032 and received 150.4798586109. The dust is the
    // bot's coin, carried at no cost: the close that sells it counts it then.
    expect(toPlain(r.costSold)).toBe('148.9774032');
    expect(toPlain(r.profit)).toBe('1.5024554109');
    expect(toPlain(r.dustCost)).toBe('0');
  });

  it('sells the dust with the next close once it adds up to a step: that close receives the quote for it', () => {
    // Next cycle: one buy of 0.00017 BTC at 59000 (10.03 USDT); alone it would sell 0.00016 (0.00016983 held).
    const carry = { amount: money('0.0000074'), cost: money(0) };
    const next = closeCycle([{ price: money('59000'), amount: money('0.00017') }], money('60000'), btc, carry);
    expect(toPlain(next.sellAmount)).toBe('0.00017');
    expect(toPlain(next.dust)).toBe('0.00000723');
    expect(toPlain(next.proceeds)).toBe('10.1898');
    // 10.1898 received for 10.03 spent; the 0.00000723 left is carried at no cost again.
    expect(toPlain(next.costSold)).toBe('10.03');
    expect(toPlain(next.profit)).toBe('0.1598');
    expect(toPlain(next.dustCost)).toBe('0');
    // Over both cycles, the quote received less the quote spent: 160.6696586109 - 159.0074032.
    expect(toPlain(next.profit.plus('1.5024554109'))).toBe('1.6622554109');
  });
});

describe('the books are in the quote (../README.md "Books in the quote")', () => {
  const xrp: MarketRules = { tickSize: money('0.0001'), stepSize: money('0.1'), minAmount: money('0.1'), minCost: money('5'), feeRate: money('0.001') };

  it('books an XRP cycle that bought 14.5 for 19.87805 and sold 14.4 for 19.79314704 at -0.08490296, not at +0.0324', () => {
    const r = closeCycle([{ price: money('1.3709'), amount: money('14.5') }], money('1.3759'), xrp);
    expect([toPlain(r.sellAmount), toPlain(r.dust), toPlain(r.proceeds), toPlain(r.cost)]).toEqual(['14.4', '0.0855', '19.79314704', '19.87805']);
    // The quote went down by 0.08490296: that is the cycle's profit, whatever the 0.0855 XRP left is worth.
    expect(toPlain(r.profit)).toBe(toPlain(r.proceeds.minus(r.cost)));
    expect(toPlain(r.profit)).toBe('-0.08490296');
    // The next cycle sells the carried coin with its own: 14.5 bought at 1.37 (19.865), 14.5 x 0.999 + 0.0855 = 14.571 held, 14.5 sold for 19.98999.
    const next = closeCycle([{ price: money('1.37'), amount: money('14.5') }], money('1.38'), xrp, { amount: r.dust, cost: money(0) });
    expect([toPlain(next.sellAmount), toPlain(next.dust), toPlain(next.profit)]).toEqual(['14.5', '0.071', '0.12499']);
  });
});

describe('martin example 1b: half of the first two orders closed by hand at 59500 (README.md "Partial close")', () => {
  // 0.00016 BTC at 60000 and 0.00034 at 58800: 29.592 USDT, average 59184, take profit 60071.76.
  const fills = planLevels(btcBot, btc, money('60000')).slice(0, 2);
  const none = { amount: money(0), cost: money(0) };

  it('sizes 50 % of the 0.00049 that can be sold: 0.000245 rounded down to the step', () => {
    const size = sizeClose(fills, btc, none, money('59500'), { percent: money('50') });
    if (!size.ok) throw new Error(size.problem);
    expect([size.all, toPlain(size.amount), size.share, toPlain(size.rest)]).toEqual([false, '0.00024', '50', '0.00025']);
    // proceeds 0.00024 x 59500 x 0.999 = 14.26572; cost sold 29.592 x 0.00024 / 0.0004995 = 14.21837838.
    expect([toPlain(size.close.proceeds), toPlain(size.close.costSold), toPlain(size.close.profit)]).toEqual(['14.26572', '14.21837838', '0.04734162']);
  });

  it('keeps the rest at the same average, so the take profit does not move, with held and cost exact', () => {
    const part = reducePosition(fills, money('59500'), btc, none, money('0.00024'));
    expect(toPlain(part.close.profit)).toBe('0.04734162');
    // Each fill x 0.51951951 (0.0002595 / 0.0004995 to 8 digits, rounded down): the proportions, hence the average, unchanged.
    expect(part.fills.map((f) => toPlain(f.amount))).toEqual(['0.0000831231216', '0.0001766366334']);
    expect(toPlain(averagePrice(part.fills))).toBe('59184');
    expect(toPlain(takeProfitPrice(averagePrice(part.fills), '1.5', btc.tickSize))).toBe('60071.76');
    // The factor's rounding is carried: held 0.0002595 and cost 29.592 - 14.21837838 = 15.37362162, exactly.
    const held = part.fills.reduce((s, f) => s.plus(f.amount.mul(money(1).minus(btc.feeRate))), part.carry.amount);
    const cost = part.fills.reduce((s, f) => s.plus(f.amount.mul(f.price)), part.carry.cost);
    expect([toPlain(held), toPlain(cost)]).toEqual(['0.0002595', '15.37362162']);
    expect(toPlain(sellableAmount(part.fills, btc, part.carry.amount))).toBe('0.00025');
    // The rest closes at the take profit: 15.00292206 received for the 15.37362162 of cost it kept, and
    // 0.0000095 BTC below the step stays the bot's coin. The cycle made 0.04734162 - 0.37069956: exactly
    // the quote received (14.26572 + 15.00292206) less the quote spent (29.592).
    const rest = closeCycle(part.fills, money('60071.76'), btc, part.carry);
    expect([toPlain(rest.sellAmount), toPlain(rest.dust), toPlain(rest.profit), toPlain(rest.dustCost)]).toEqual(['0.00025', '0.0000095', '-0.37069956', '0']);
    expect(toPlain(part.close.profit.plus(rest.profit))).toBe(toPlain(part.close.proceeds.plus(rest.proceeds).minus('29.592')));
  });

  it('refuses 0 and 101 %, more than held, a sale below the minimum, and a rest too small to sell on its own', () => {
    const ask = (a: { percent: string } | { amount: string }) => sizeClose(fills, btc, none, money('59500'), 'percent' in a ? { percent: money(a.percent) } : { amount: money(a.amount) });
    expect(ask({ percent: '0' })).toMatchObject({ ok: false, problem: 'share' });
    expect(ask({ percent: '101' })).toMatchObject({ ok: false, problem: 'share' });
    expect(ask({ amount: '0.0005' })).toMatchObject({ ok: false, problem: 'aboveHeld' });
    expect(ask({ percent: '10' })).toMatchObject({ ok: false, problem: 'belowMinimum' }); // 0.00004 BTC = 2.38 USDT < 5
    const dust = ask({ percent: '90' }); // 0.00044 sold leaves 0.00005 = 2.98 USDT
    expect(dust.ok ? null : [dust.problem, toPlain(dust.rest)]).toEqual(['restBelowMinimum', '0.00005']);
    // 100 %, or the whole amount, is the full close as it always was.
    const all = ask({ percent: '100' });
    expect(all.ok && [all.all, toPlain(all.amount), toPlain(all.close.profit)]).toEqual([true, '0.00049', toPlain(closeCycle(fills, money('59500'), btc).profit)]);
    expect(ask({ amount: '0.00049' })).toMatchObject({ ok: true, all: true });
    // A base amount: its share of what can be sold, to 2 decimals, rounded down.
    expect(ask({ amount: '0.0001' })).toMatchObject({ ok: true, all: false, share: '20.4' });
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
