import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../db/connect.ts';
import { FakeBinance } from '../testing/fake-binance/server.ts';
import { fakeBinanceEngine, gridOf } from '../testing/resting-grid.ts';
import { openTestDb } from '../testing/test-support.ts';
import type { GridState } from '../../strategy/grid/strategy.ts';
import { floorTo, money } from '../../strategy/money.ts';
import type { Engine } from './runner.ts';

/**
 * A resting order the venue fills in part (the fake Binance offers 0.001 BTC at each price update, the
 * real ccxt client reads it): the engine cancels the rest at the look-up that finds the part, books what
 * filled, and rests the counter-order for that amount (docs/engine.md "A partial fill"). A fill that
 * beats the cancel is booked whole, once: the exposure is never doubled.
 */
describe('a resting order filled in part (fake Binance, real ccxt)', () => {
  let db: Db;
  let drop: () => Promise<void>;
  let fake: FakeBinance;
  let engine: Engine;
  let id = '';

  beforeAll(async () => {
    ({ db, drop } = await openTestDb('pglite'));
    fake = await FakeBinance.start({ volume: { perUpdate: '0.001' } });
    engine = fakeBinanceEngine(db, fake);
    ({ id } = await gridOf(db, 'restingpartial', '45454545'));
    await engine.serial(id, () => engine.refresh(id));
    await rounds();
  });
  afterAll(async () => {
    await engine.stop();
    await fake.close();
    await drop();
  });

  async function rounds(n = 5) {
    for (let i = 0; i < n; i++) await engine.tick();
    await engine.idle();
  }
  const record = async (slot: string, price: string) =>
    (await db.selectFrom('bot_orders').selectAll().where('bot_id', '=', id).where('slot', '=', slot).execute()).filter((o) => money(o.at_price!).eq(price));
  const open = () =>
    fake.book
      .openOrders(null)
      .map((o) => `${o.side} ${o.price.toFixed()} ${o.origQty.minus(o.executedQty).toFixed()}`)
      .sort();
  const tradedAt = (price: number) => fake.book.trades.filter((t) => t.price.eq(price)).reduce((sum, t) => sum.plus(t.qty), money(0));
  const sellAt = (state: GridState, level: number) => (state.orders[level]?.side === 'sell' ? state.orders[level]!.amount.toFixed() : null);

  it('books the part at once, cancels the rest and rests the counter-sell for the part; the account holds what the books count', async () => {
    const start = engine.stateOf<GridState>(id)!;
    expect(start.phase).toBe('running');
    expect(start.orders[1]?.side).toBe('buy');
    // The price falls through the buy at 62,500: the update offers 0.001 of its 0.00370 (gross).
    fake.setPrice('BTC/USDT', '61000');
    await rounds(1);
    expect(tradedAt(62500).toFixed()).toBe('0.001');
    const [l1] = await record('L1', '62500');
    expect([l1!.status, money(l1!.filled!).toFixed()]).toEqual(['filled', '0.001']);
    // In the books at once: level 1 empty, and one level up a sell of what the part left after the maker's
    // fee (0.000999), floored to the step with the dust the grid held.
    const state = engine.stateOf<GridState>(id)!;
    expect(state.orders[1]).toBeNull();
    const left = money('0.001').mul(money(1).minus('0.001')).plus(start.dust);
    expect(sellAt(state, 2)).toBe(floorTo(left, money('0.00001')).toFixed());
    expect(state.dust.toFixed()).toBe(left.minus(state.orders[2]!.amount).toFixed());
    // On Binance: the rest of the buy is gone, the counter-sell rests at 65,000 for the part, nothing more.
    const [l0] = await record('L0', '60000');
    expect(open()).toEqual([`BUY 60000 ${money(l0!.amount!).toFixed()}`, `SELL 65000 ${sellAt(state, 2)}`, `SELL 67500 ${sellAt(state, 3)}`, `SELL 70000 ${sellAt(state, 4)}`]);
    // The reconciliation finds the coin the books count on the account.
    await engine.reconcileAccounts();
    const row = await db.selectFrom('bots').select(['status', 'sync_problem']).where('id', '=', id).executeTakeFirstOrThrow();
    expect([row.status, row.sync_problem]).toEqual(['running', null]);
  });

  it('a fill between the cancel and its answer is booked whole, once: one sell for all the buy got, no buy left', async () => {
    const before = engine.stateOf<GridState>(id)!;
    const buy = (await record('L0', '60000')).find((o) => o.status === 'open')!;
    const whole = money(buy.amount!);
    // The price falls through 60,000: a part fills; the cancel the engine sends for the rest finds the order
    // filled in full first (Binance answers "unknown order").
    fake.faults.add({ kind: 'fillBeforeCancel', times: 1 });
    fake.setPrice('BTC/USDT', '59000');
    await rounds(1);
    expect(tradedAt(60000).toFixed()).toBe(whole.toFixed());
    const [l0] = await record('L0', '60000');
    expect([l0!.status, money(l0!.filled!).toFixed()]).toEqual(['filled', whole.toFixed()]);
    // Booked once, whole: level 0 empty, one sell at 62,500 for what the whole buy left; no buy rests anywhere.
    const state = engine.stateOf<GridState>(id)!;
    expect(state.orders[0]).toBeNull();
    const left = whole.mul(money(1).minus('0.001')).plus(before.dust);
    expect(sellAt(state, 1)).toBe(floorTo(left, money('0.00001')).toFixed());
    expect(open().filter((o) => o.startsWith('BUY'))).toEqual([]);
    expect(open()).toContain(`SELL 62500 ${sellAt(state, 1)}`);
  });
});
