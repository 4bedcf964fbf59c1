import { describe, expect, it } from 'vitest';
import Decimal from 'decimal.js';
import { money } from '../money.ts';
import { averagePremium, fundingPayment, fundingRate } from './funding.ts';
import { bankruptcyPrice, type IsolatedPosition, liquidatedAt, liquidationPrice, marginRatio, unrealisedPnl } from './margin.ts';
import { markPrice } from './mark.ts';
import { applyFill, leverageFits } from './position.ts';
import { LiquidationBook, liquidate } from './liquidation.ts';
import { breakEvenIntervals, carryApr, hedgedLegs } from './carry.ts';
import { BTCUSDT_TIERS, maintenanceMargin, maxLeverage, tierOf } from './tiers.ts';

/** A price as the screens show it: to the cent, half up. */
const cents = (d: Decimal | null) => d?.toDecimalPlaces(2, Decimal.ROUND_HALF_UP).toFixed(2) ?? null;
/** A position opened at `leverage`: its margin is its notional over the leverage. */
const opened = (side: 'long' | 'short', size: string, entry: string, leverage: number): IsolatedPosition => ({
  side,
  size: money(size),
  entry: money(entry),
  margin: money(size).mul(entry).div(leverage),
});

describe('the maintenance margin ladder (README.md "Tiers")', () => {
  it("derives each tier's maintenance amount from the rates, so the maintenance margin never jumps at a floor", () => {
    expect(BTCUSDT_TIERS.slice(0, 5).map((t) => `${t.rate.mul(100).toFixed()}% ${t.amount.toFixed()}`)).toEqual(['0.4% 0', '0.5% 50', '1% 1300', '2.5% 16300', '5% 266300']);
    for (const t of BTCUSDT_TIERS.slice(1)) {
      const below = tierOf(BTCUSDT_TIERS, t.floor);
      expect(t.floor.mul(t.rate).minus(t.amount).toFixed(), `at ${t.floor}`).toBe(t.floor.mul(below.rate).minus(below.amount).toFixed());
    }
    expect(maintenanceMargin(BTCUSDT_TIERS, money(6000)).toFixed()).toBe('24');
    expect([maxLeverage(BTCUSDT_TIERS, money(50000)), maxLeverage(BTCUSDT_TIERS, money('50000.01')), maxLeverage(BTCUSDT_TIERS, money(10_000_000_000))]).toEqual([125, 100, 1]);
  });
});

describe('isolated margin (README.md worked examples)', () => {
  it('a 10x long of 0.1 BTC at 60,000 liquidates at 54,216.87; a 5x short at 71,713.15 (tier 1: 0.40 %, amount 0)', () => {
    const long = opened('long', '0.1', '60000', 10);
    // (600 + 0 - 0.1 x 60,000) / (0.1 x 0.004 - 0.1) = -5,400 / -0.0996
    expect(cents(liquidationPrice(long, BTCUSDT_TIERS))).toBe('54216.87');
    const short = opened('short', '0.1', '60000', 5);
    // (1,200 + 0 + 0.1 x 60,000) / (0.1 x 0.004 + 0.1) = 7,200 / 0.1004
    expect(cents(liquidationPrice(short, BTCUSDT_TIERS))).toBe('71713.15');
    // Bankrupt where the margin is gone: 54,000 and 72,000.
    expect([bankruptcyPrice(long).toFixed(), bankruptcyPrice(short).toFixed()]).toEqual(['54000', '72000']);
  });

  it('takes the tier of the notional at the liquidation price, not at the entry', () => {
    // 4.5 BTC at 60,000 (270,000: tier 3) at 10x. At tier 3's rate the price would be 54,253.6, a notional
    // of 244,141 in tier 2; with tier 2's rate it is 54,260.19 (244,170.85, in tier 2).
    const p = opened('long', '4.5', '60000', 10);
    expect(tierOf(BTCUSDT_TIERS, p.size.mul(p.entry)).rate.toFixed()).toBe('0.01');
    const at = liquidationPrice(p, BTCUSDT_TIERS)!;
    expect(cents(at)).toBe('54260.19');
    expect(tierOf(BTCUSDT_TIERS, p.size.mul(at)).rate.toFixed()).toBe('0.005');
  });

  it('is liquidated once the mark is at its liquidation price, not a cent before; its margin ratio reaches 100 % there', () => {
    const long = opened('long', '0.1', '60000', 10);
    const at = liquidationPrice(long, BTCUSDT_TIERS)!;
    // 54,216.8674..: the mark 54,216.87 leaves it open, 54,216.86 liquidates it.
    expect(liquidatedAt(long, money('54216.87'), BTCUSDT_TIERS)).toBe(false);
    expect(liquidatedAt(long, money('54216.86'), BTCUSDT_TIERS)).toBe(true);
    const short = opened('short', '0.1', '60000', 5);
    expect([liquidatedAt(short, money('71713.14'), BTCUSDT_TIERS), liquidatedAt(short, money('71713.15'), BTCUSDT_TIERS)]).toEqual([false, true]);
    expect(marginRatio(long, at, BTCUSDT_TIERS)!.toDecimalPlaces(12).toFixed()).toBe('1');
    expect(marginRatio(long, money(60000), BTCUSDT_TIERS)!.toFixed()).toBe('0.04');
    expect(marginRatio(long, money(53000), BTCUSDT_TIERS)).toBeNull();
    expect(unrealisedPnl(opened('short', '0.1', '60000', 5), money(59000)).toFixed()).toBe('100');
  });

  it('never liquidates a long whose margin covers its notional', () => {
    expect(liquidationPrice(opened('long', '0.1', '60000', 1), BTCUSDT_TIERS)).toBeNull();
  });
});

describe('funding (README.md "Funding")', () => {
  it('is the interest (0.01 % per 8 h) while the premium stays within 0.05 % of it, the premium beyond, scaled to the interval and capped', () => {
    const cap = money('0.003');
    expect(fundingRate(money('0.0003'), 8, cap).toFixed()).toBe('0.0001');
    expect(fundingRate(money('-0.0002'), 8, cap).toFixed()).toBe('0.0001');
    // 0.1 %: 0.1 % - 0.05 % = 0.05 % per 8 h; half of it on a 4 h contract.
    expect(fundingRate(money('0.001'), 8, cap).toFixed()).toBe('0.0005');
    expect(fundingRate(money('0.001'), 4, cap).toFixed()).toBe('0.00025');
    expect(fundingRate(money('-0.001'), 8, cap).toFixed()).toBe('-0.0005');
    expect(fundingRate(money('0.02'), 8, cap).toFixed()).toBe('0.003');
    // Later samples weigh more: (1 x 0 + 2 x 0 + 3 x 0.0006) / 6.
    expect(averagePremium([money(0), money(0), money('0.0006')]).toFixed()).toBe('0.0003');
  });

  it('is paid on mark x size by longs to shorts when positive', () => {
    expect(fundingPayment('long', money('0.1'), money('60000'), money('0.0001')).toFixed()).toBe('-0.6');
    expect(fundingPayment('short', money('0.1'), money('60000'), money('0.0001')).toFixed()).toBe('0.6');
    expect(fundingPayment('long', money('0.1'), money('60000'), money('-0.0005')).toFixed()).toBe('3');
  });
});

describe('the mark price (README.md "Three prices")', () => {
  it('is the median of three: a last price past the liquidation price liquidates nothing while the mark stays inside', () => {
    const long = opened('long', '0.1', '60000', 10);
    // The index at 60,000, the last funding 0.01 % with half the interval left, a basis of 5 on average; a trade at 50,000.
    const mark = markPrice({ index: money(60000), lastFunding: money('0.0001'), untilFunding: money('0.5'), basisAverage: money(5), last: money(50000) });
    expect(mark.toFixed()).toBe('60003');
    expect(money(50000).lt(liquidationPrice(long, BTCUSDT_TIERS)!)).toBe(true);
    expect(liquidatedAt(long, mark, BTCUSDT_TIERS)).toBe(false);
    // When the index falls too, two of three are past it: the mark follows.
    expect(markPrice({ index: money(54000), lastFunding: money(0), untilFunding: money(0), basisAverage: money(0), last: money(50000) }).toFixed()).toBe('54000');
  });
});

describe('a position\'s fills (README.md "A position\'s fills")', () => {
  const fill = (side: 'buy' | 'sell', amount: string, price: string) => ({ side, amount: money(amount), price: money(price) });
  const shown = (c: ReturnType<typeof applyFill>) =>
    [
      c.position ? `${c.position.side} ${c.position.size} @ ${c.position.entry} margin ${c.position.margin}` : 'flat',
      `realised ${c.realised}`,
      `in ${c.marginIn}`,
      `out ${c.marginOut}`,
      `unfilled ${c.unfilled}`,
    ].join(', ');

  it('grows at the average entry, closes a part realising its profit and freeing its margin, and opens the other side past flat', () => {
    const a = applyFill(null, fill('buy', '0.1', '60000'), 10);
    expect(shown(a)).toBe('long 0.1 @ 60000 margin 600, realised 0, in 600, out 0, unfilled 0');
    const b = applyFill(a.position, fill('buy', '0.1', '58000'), 10);
    expect(shown(b)).toBe('long 0.2 @ 59000 margin 1180, realised 0, in 580, out 0, unfilled 0');
    const c = applyFill(b.position, fill('sell', '0.05', '61000'), 10);
    expect(shown(c)).toBe('long 0.15 @ 59000 margin 885, realised 100, in 0, out 295, unfilled 0');
    // A sell of 0.3 closes the 0.15 (150 realised) and opens a short of the other 0.15.
    const d = applyFill(c.position, fill('sell', '0.3', '60000'), 10);
    expect(shown(d)).toBe('short 0.15 @ 60000 margin 900, realised 150, in 900, out 885, unfilled 0');
    // Reduce-only: it closes, never opens; the rest is not filled.
    const e = applyFill(c.position, fill('sell', '0.3', '60000'), 10, true);
    expect(shown(e)).toBe('flat, realised 150, in 0, out 885, unfilled 0.15');
    expect(shown(applyFill(c.position, fill('buy', '0.1', '60000'), 10, true))).toBe('long 0.15 @ 59000 margin 885, realised 0, in 0, out 0, unfilled 0.1');
    // A short's profit is the fall.
    expect(applyFill(d.position, fill('buy', '0.15', '59000'), 10).realised.toFixed()).toBe('150');
  });

  it('caps the leverage by the tier of the notional the order would leave: 125x up to 50,000, 100x past it', () => {
    const small = applyFill(null, fill('buy', '0.5', '60000'), 100).position;
    expect(leverageFits(BTCUSDT_TIERS, null, fill('buy', '0.8', '60000'), 125)).toEqual({ fits: true, max: 125 });
    // 0.5 held and 0.5 more: 60,000 of notional, tier 2.
    expect(leverageFits(BTCUSDT_TIERS, small, fill('buy', '0.5', '60000'), 125)).toEqual({ fits: false, max: 100 });
    expect(leverageFits(BTCUSDT_TIERS, small, fill('buy', '0.5', '60000'), 100).fits).toBe(true);
    // An order that only reduces fits at any leverage.
    expect(leverageFits(BTCUSDT_TIERS, small, fill('sell', '0.2', '60000'), 125).fits).toBe(true);
  });
});

describe('liquidation (README.md "Liquidation")', () => {
  it("closes the trader's position at its bankruptcy price, all its margin lost, and books the rest to insurance", () => {
    const long = opened('long', '0.1', '60000', 10);
    const at = liquidate(long, money('54216.86'));
    expect([at.closePrice.toFixed(), at.realised.toFixed(), at.insurance.toFixed()]).toEqual(['54000', '-600', '21.686']);
    // The fee is the maintenance margin left at the liquidation price: 0.40 % of 0.1 x 54,216.87.
    expect(at.insurance.minus(money('0.004').mul('0.1').mul('54216.87')).abs().lt('0.01')).toBe(true);
    // A gap past the bankruptcy price: the insurance pays the difference, the trader never more than the margin.
    expect([liquidate(long, money('53000')).realised.toFixed(), liquidate(long, money('53000')).insurance.toFixed()]).toEqual(['-600', '-100']);
    expect(liquidate(opened('short', '0.1', '60000', 5), money('71713.15')).insurance.toFixed()).toBe('28.685');
  });

  it('finds the positions a mark liquidates from the head of each side, and forgets them', () => {
    const book = new LiquidationBook();
    const lp = (p: IsolatedPosition) => liquidationPrice(p, BTCUSDT_TIERS);
    book.put('a', 'long', lp(opened('long', '0.1', '60000', 10))); // 54,216.87
    book.put('b', 'long', lp(opened('long', '0.1', '60000', 20))); // higher: 57,228.92
    book.put('c', 'long', lp(opened('long', '0.1', '60000', 1))); // none: never liquidated
    book.put('d', 'short', lp(opened('short', '0.1', '60000', 5))); // 71,713.15
    book.put('e', 'short', lp(opened('short', '0.1', '60000', 20))); // lower: 62,749.00
    expect(book.size).toBe(4);
    expect(book.crossed(money(58000))).toEqual([]);
    expect(book.crossed(money(57000))).toEqual(['b']);
    expect(book.crossed(money(57000))).toEqual([]);
    expect(book.crossed(money(63000))).toEqual(['e']);
    // Moved (margin added): the long at 10x is put at its new price, and a fall to 54,000 no longer reaches it.
    book.put('a', 'long', lp({ ...opened('long', '0.1', '60000', 10), margin: money(1000) }));
    expect(book.crossed(money(54000))).toEqual([]);
    book.remove('d');
    expect([book.crossed(money(80000)), book.size]).toEqual([[], 1]);
  });
});

describe('carry (README.md "Carry")', () => {
  it("annualises 3 days' funding as Binance's arbitrage list does, and counts the intervals that pay the four fills", () => {
    // Nine 8 h intervals at 0.01 %: 0.09 % in 3 days, 0.03 % a day, 10.95 % a year, halved: 5.475 %.
    expect(carryApr(Array.from({ length: 9 }, () => money('0.0001'))).toFixed()).toBe('0.05475');
    expect(carryApr([money('-0.0002'), money('-0.0001')]).toFixed()).toBe('0.01825');
    // Spot and perpetual at 0.1 % and 0.05 %, both legs in and out: 0.3 % of the notional, 30 intervals at 0.01 %.
    expect(breakEvenIntervals(money('0.001'), money('0.0005'), money('0.0001'))!.toFixed()).toBe('30');
    expect(breakEvenIntervals(money('0.001'), money('0.0005'), money(0))).toBeNull();
  });

  it('hedges what both lots allow and shows the rest of the spot leg as unhedged', () => {
    const legs = hedgedLegs(money('0.123456'), money('0.00001'), money('0.001'));
    expect([legs.spot.toFixed(), legs.perpetual.toFixed(), legs.residual.toFixed()]).toEqual(['0.12345', '0.123', '0.00045']);
    expect(hedgedLegs(money('0.5'), money('0.0001'), money('0.001')).residual.toFixed()).toBe('0');
  });
});
