import { describe, expect, it } from 'vitest';
import { fieldText } from '../../contract/field-words.ts';
import { engineRound } from '../engine-round.test-support.ts';
import { holdsPosition } from '../kit.ts';
import { walkKit } from '../backtest.ts';
import type { MarketRules } from '../core/market.ts';
import { money } from '../money.ts';
import { botId } from '../types.ts';
import { dipKit } from './kit.ts';
import { validateDip } from './plan.ts';
import type { DipParams } from './plan.ts';

const market: MarketRules = { tickSize: money('0.01'), stepSize: money('0.00001'), minAmount: money('0.00001'), minCost: money('5'), feeRate: money('0.001') };
/** The README's example: 100 USDT, 3 % below the start, 2 % take profit. */
const params: DipParams = { investment: '100', dip: '3', takeProfit: '2' };
const view = { params, market };

describe('buy the dip, once', () => {
  it('buys at its line 3 % below the start, sells at its take profit and is done (the README example)', () => {
    let state = dipKit.initial(botId('d'));
    state = engineRound(dipKit, state, view, money('60000'), market.stepSize).state;
    expect(state.phase).toBe('armed');
    // floor(60000 x 0.97, 0.01): its buy line.
    expect(dipKit.triggers(state, view).downAt?.toFixed()).toBe('58200');
    expect(engineRound(dipKit, state, view, money('58500'), market.stepSize).fills).toEqual([]);
    const bought = engineRound(dipKit, state, view, money('58100'), market.stepSize);
    // The buy rests at its line: 100 / 58200 floored to the step.
    expect(bought.fills.map((f) => `${f.reason} ${f.side} ${f.amount.toFixed()} @ ${f.price.toFixed()}`)).toEqual(['open buy 0.00171 @ 58200']);
    state = bought.state;
    expect(holdsPosition(dipKit.encode(state))).toBe(true);
    // ceil(58200 x 1.02, 0.01).
    expect(dipKit.triggers(state, view).upAt?.toFixed()).toBe('59364');
    const sold = engineRound(dipKit, state, view, money('59500'), market.stepSize);
    // 0.00171 less the 0.1 % fee in the coin is 0.00170829: 0.0017 sells, 0.00000829 is carried at no cost.
    expect(sold.fills.map((f) => `${f.reason} ${f.side} ${f.amount.toFixed()} @ ${f.price.toFixed()}`)).toEqual(['close sell 0.0017 @ 59364']);
    state = sold.state;
    expect(state.phase).toBe('done');
    // 0.0017 x 59364 x 0.999 = 100.8178812 received, less the 99.522 its buy spent.
    expect(state.realized.toFixed()).toBe('1.2958812');
    expect(state.carry.toFixed()).toBe('0.00000829');
    expect(dipKit.reserved(state, view).toFixed()).toBe('0');
  });

  it('reserves its one buy until it is made, and survives a restart between any two rounds', () => {
    let state = dipKit.initial(botId('d'));
    expect(dipKit.reserved(state, view).toFixed()).toBe('100');
    for (const price of ['60000', '59000', '58100', '59000', '59500']) {
      state = engineRound(dipKit, state, view, money(price), market.stepSize).state;
      const again = dipKit.decode('d', JSON.parse(JSON.stringify(dipKit.encode(state))), view);
      expect(dipKit.encode(again)).toEqual(dipKit.encode(state));
    }
    expect(state.phase).toBe('done');
  });

  it('refuses percentages out of bounds and a buy below the market’s minimum', () => {
    const at = money('60000');
    expect(validateDip(params, market, at)).toEqual([]);
    expect(validateDip({ ...params, dip: '60' }, market, at)[0]).toEqual({ field: 'dip', reason: 'range' });
    expect(validateDip({ ...params, takeProfit: '0' }, market, at)[0]).toEqual({ field: 'takeProfit', reason: 'range' });
    expect(validateDip({ ...params, investment: '4' }, market, at)[0]).toEqual({ field: 'investment', reason: 'belowMinimum' });
    expect(validateDip({ ...params, investment: '' }, market, at)[0]).toEqual({ field: 'investment', reason: 'required' });
    expect(dipKit.problem({ ...params, dip: '60' }, market, at)).toEqual({ code: 'StrategyInvalidParams', field: 'dip' });
    // A refusal names the field in its schema's words, never by its path.
    expect([fieldText('params.dip', 'zh'), fieldText('params.dip', 'en')]).toEqual(['下跌幅度', 'dip']);
  });

  it('backtests through the kit walker the same fills as the engine’s rounds', () => {
    const rows: [number, number, number, number][] = [
      [60000, 60100, 59900, 60000],
      [60000, 60000, 58000, 58300], // through the line at 58200: bought there
      [58300, 59500, 58300, 59400], // through the take profit at 59364: sold there
      [59400, 59400, 50000, 50000], // done: nothing more
    ];
    const candles = { open: Float64Array.from(rows, (r) => r[0]), high: Float64Array.from(rows, (r) => r[1]), low: Float64Array.from(rows, (r) => r[2]), close: Float64Array.from(rows, (r) => r[3]) };
    const run = walkKit(dipKit, view, candles, { slippage: '0' });
    expect(run.fills.map((f) => `${f.candle} ${f.reason} ${f.side} ${f.amount} @ ${f.price}`)).toEqual(['1 open buy 0.00171 @ 58200', '2 close sell 0.0017 @ 59364']);
    expect(run.realized).toBe('1.2958812');
    expect(run.cycles).toBe(1);
  });
});
