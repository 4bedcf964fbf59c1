import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../db/connect.ts';
import { FakeBinance } from '../testing/fake-binance/server.ts';
import { openTestDb } from '../testing/test-support.ts';
import { encodeGrid } from '../../strategy/grid/state-codec.ts';
import type { GridState } from '../../strategy/grid/strategy.ts';
import { money } from '../../strategy/money.ts';
import type { Engine } from './runner.ts';
import { unownedBots } from '../store/bot-leases.ts';
import { fakeBinanceEngine, gridOf } from '../testing/resting-grid.ts';
import { botsToResume } from '../store/bot-lists.ts';

/**
 * A grid's resting limit orders on a live venue end to end: the real ccxt binance client through
 * LiveExchange against the fake Binance, which matches a resting order at its limit when the price
 * reaches it (maker fee). The engine learns the fill from its lookups, books it at the level, places the
 * counter-order; the coin its resting sells hold is not "missing" to the reconciliation; a pause cancels
 * them, and a cancel the fill beat is booked as the fill, once.
 */
describe('resting limit orders on a live exchange (fake Binance, real ccxt)', () => {
  let db: Db;
  let drop: () => Promise<void>;
  let fake: FakeBinance;
  let engine: Engine;
  let id = '';

  beforeAll(async () => {
    ({ db, drop } = await openTestDb('pglite'));
    fake = await FakeBinance.start();
    engine = fakeBinanceEngine(db, fake);
    ({ id } = await gridOf(db, 'restinglive', '41414141'));
  });
  afterAll(async () => {
    await engine.stop();
    await fake.close();
    await drop();
  });

  const rounds = async (n = 5) => {
    for (let i = 0; i < n; i++) await engine.tick();
    await engine.idle();
  };
  const resting = () => db.selectFrom('bot_orders').selectAll().where('bot_id', '=', id).where('slot', 'is not', null).orderBy('id').execute();
  const openOnVenue = () => fake.book.openOrders(null).map((o) => `${o.side} ${o.type} ${o.price.toFixed()}`);
  const coinOnVenue = () => {
    const b = fake.book.balance('BTC');
    return b.free.plus(b.locked);
  };

  it('rests the levels on Binance, books a fill at its level as a maker, and keeps the coin its sells hold counted', async () => {
    await engine.serial(id, () => engine.refresh(id));
    await rounds();
    expect(engine.stateOf<GridState>(id)?.phase).toBe('running');
    // Levels 60,000 to 70,000 by 2,500, started at 65,000: the level at the price left empty; maker-only orders.
    expect(openOnVenue().sort()).toEqual(['BUY LIMIT_MAKER 60000', 'BUY LIMIT_MAKER 62500', 'SELL LIMIT_MAKER 67500', 'SELL LIMIT_MAKER 70000']);
    expect((await resting()).map((o) => o.status)).toEqual(['open', 'open', 'open', 'open']);

    // The price falls through 62,500 to 61,000: Binance fills the buy at its limit, as a maker.
    fake.setPrice('BTC/USDT', '61000');
    await rounds();
    const l1 = (await resting()).find((o) => o.slot === 'L1')!;
    expect([l1.status, money(l1.price!).toFixed()]).toEqual(['filled', '62500']);
    expect(fake.book.trades.filter((t) => t.price.eq(62500)).map((t) => t.isMaker)).toEqual([true]);
    const state = engine.stateOf<GridState>(id)!;
    expect(state.orders[1]).toBeNull();
    expect(state.orders[2]?.side).toBe('sell');
    expect(openOnVenue().sort()).toEqual(['BUY LIMIT_MAKER 60000', 'SELL LIMIT_MAKER 65000', 'SELL LIMIT_MAKER 67500', 'SELL LIMIT_MAKER 70000']);

    // The coin is on the account, most of it held by the resting sells: a reconciliation round finds it all.
    expect(fake.book.balance('BTC').free.lt(coinOnVenue())).toBe(true);
    await engine.reconcileAccounts();
    const row = await db.selectFrom('bots').select(['status', 'sync_problem']).where('id', '=', id).executeTakeFirstOrThrow();
    expect([row.status, row.sync_problem]).toEqual(['running', null]);
  });

  it('a pause cancels every resting order; the one Binance filled before the cancel reached it is booked, once', async () => {
    const before = engine.stateOf<GridState>(id)!;
    expect(before.orders[0]?.side).toBe('buy');
    // The first cancel finds its order filled first (Binance answers "unknown order" to the cancel).
    fake.faults.add({ kind: 'fillBeforeCancel', times: 1 });
    await db.updateTable('bots').set({ status: 'paused' }).where('id', '=', id).execute();
    await engine.serial(id, () => engine.refresh(id));
    await engine.idle();
    expect(openOnVenue()).toEqual([]);
    const rows = await resting();
    const l0 = rows.find((o) => o.slot === 'L0')!;
    expect([l0.status, money(l0.price!).toFixed()]).toEqual(['filled', '60000']);
    expect(rows.every((o) => ['filled', 'cancelled'].includes(o.status))).toBe(true);
    expect(fake.book.trades.filter((t) => t.price.eq(60000))).toHaveLength(1);
    // Taken into the books: level 0 empty, its sell one level up; nothing rests for a paused bot.
    const after = engine.stateOf<GridState>(id)!;
    expect(after.orders[0]).toBeNull();
    expect(after.orders[1]?.side).toBe('sell');
    // The books hold what the account holds (the maker fee taken in the coin is less than the books count).
    const held = after.orders.reduce((sum, o) => (o?.side === 'sell' ? sum.plus(o.amount) : sum), after.dust);
    expect(coinOnVenue().gte(held)).toBe(true);
  });

  it('a bot stopped while no engine ran, its orders still resting: the next start cancels them and books the fill among them', async () => {
    await db.updateTable('bots').set({ status: 'running' }).where('id', '=', id).execute();
    await engine.serial(id, () => engine.refresh(id));
    await rounds();
    const resumed = engine.stateOf<GridState>(id)!;
    const sells = openOnVenue().filter((o) => o.startsWith('SELL'));
    expect(sells.length).toBeGreaterThan(0);
    // The process goes (its work done), and the bot is stopped before any engine could cancel its orders.
    await engine.stop();
    await db.updateTable('bots').set({ status: 'stopped' }).where('id', '=', id).execute();
    // Meanwhile the price rises through the lowest sell: Binance fills it at its limit.
    const lowest = resumed.orders.findIndex((o) => o?.side === 'sell');
    fake.setPrice('BTC/USDT', '66000');
    engine = fakeBinanceEngine(db, fake);
    await engine.start();
    await engine.idle();
    // Nothing of the stopped bot's rests any more, and the sell that filled is in its books.
    expect(openOnVenue()).toEqual([]);
    const rows = await resting();
    expect(rows.every((o) => ['filled', 'cancelled', 'rejected'].includes(o.status))).toBe(true);
    const filled = rows.filter((o) => o.status === 'filled' && o.side === 'sell');
    expect(filled.length).toBeGreaterThan(0);
    // Each sell Binance filled is one trade more in the books and one sell level fewer (66,000 is past 62,500 and 65,000).
    const after = engine.stateOf<GridState>(id)!;
    const sellsOf = (state: GridState) => state.orders.filter((o) => o?.side === 'sell').length;
    expect(filled.every((o) => money(o.price!).lte(66000))).toBe(true);
    expect(after.trades - resumed.trades).toBe(filled.length);
    expect(sellsOf(resumed) - sellsOf(after)).toBe(filled.length);
    expect(after.orders[lowest]?.side).not.toBe('sell');
    const row = await db.selectFrom('bots').select('status').where('id', '=', id).executeTakeFirstOrThrow();
    expect(row.status).toBe('stopped');
  });

  it('a bot deleted while no engine ran, its orders still resting: still wanted by a process, the next start cancels them', async () => {
    await db.updateTable('bots').set({ status: 'running' }).where('id', '=', id).execute();
    await engine.serial(id, () => engine.refresh(id));
    await rounds();
    expect(openOnVenue().length).toBeGreaterThan(0);
    // The process goes, and the trader deletes the bot (stopped, as a delete leaves it) before any engine could cancel.
    await engine.stop();
    await db.updateTable('bots').set({ status: 'stopped', deleted_at: new Date() }).where('id', '=', id).execute();
    const wanted = async () => ({
      leased: (await unownedBots(db, { ttlMs: 3000, limit: 100 })).map((b) => String(b.id)).includes(id),
      resumed: (await botsToResume(db)).map((b) => String(b.id)).includes(id),
    });
    // A cluster's processes lease it, and a start resumes it, while its orders may rest.
    expect(await wanted()).toEqual({ leased: true, resumed: true });
    engine = fakeBinanceEngine(db, fake);
    await engine.start();
    await engine.idle();
    expect(openOnVenue()).toEqual([]);
    expect((await resting()).every((o) => ['filled', 'cancelled', 'rejected'].includes(o.status))).toBe(true);
    // Its orders ended: nothing wants it any more.
    expect(await wanted()).toEqual({ leased: false, resumed: false });
  });
});

/** A trader with a running grid (60,000 to 70,000 by 2,500, stop 55,000) on BTC/USDT of Binance, in the books of `db`. */
describe('a resting order that never reaches Binance (its receive window passes unseen)', () => {
  it('is sent again under its id twice at most, then lost: its bot pauses, told', async () => {
    const { db, drop } = await openTestDb('pglite');
    const fake = await FakeBinance.start();
    // Every bot's resting orders looked up at every sweep (5 rounds), not once a reconciliation period.
    const engine = fakeBinanceEngine(db, fake, { timeout: 400, orderWindowMs: 1000, reconcileEveryMs: 1 });
    try {
      const { userId, id } = await gridOf(db, 'restingwindow', '42424242');
      const rounds = async (n = 5) => {
        for (let i = 0; i < n; i++) await engine.tick();
        await engine.idle();
      };
      await engine.serial(id, () => engine.refresh(id));
      await rounds();
      // Every order Binance gets from here dies before it is carried out (a 504 after the gateway gave up).
      fake.faults.add({ kind: 'serverError', status: 504, body: 'html', times: 3, match: { method: 'POST', path: '/api/v3/order' } });
      const from = fake.requests.length;
      // The buy at 62,500 fills; its counter-order, the sell at 65,000, never reaches Binance.
      fake.setPrice('BTC/USDT', '61000');
      await rounds();
      const counter = await db.selectFrom('bot_orders').select(['client_order_id', 'status']).where('bot_id', '=', id).where('slot', '=', 'L2').executeTakeFirstOrThrow();
      expect(counter.status).toBe('submitted');
      const steps = async () => (await db.selectFrom('bot_order_steps').select('to_phase').where('client_order_id', '=', counter.client_order_id).orderBy('id').execute()).map((s) => s.to_phase);
      // Each send's window over (moved into the past rather than waited for), then three misses and the targeted query.
      for (let i = 0; i < 3; i++) {
        await db
          .updateTable('bot_orders')
          .set({ not_after: new Date(Date.now() - 60_000) })
          .where('client_order_id', '=', counter.client_order_id)
          .execute();
        for (let k = 0; k < 4; k++) await rounds();
      }
      expect(await steps()).toEqual(['new', 'submitted', 'new', 'submitted', 'new', 'submitted', 'lost']);
      // Sent three times in all, once and again twice, and nothing more.
      expect(fake.requests.slice(from).filter((r) => r.method === 'POST' && r.path === '/api/v3/order')).toHaveLength(3);
      expect(await db.selectFrom('bots').select(['status', 'error']).where('id', '=', id).executeTakeFirstOrThrow()).toEqual({ status: 'paused', error: 'order_lost' });
      const notice = await db.selectFrom('notices').select(['code']).where('user_id', '=', userId).orderBy('id', 'desc').executeTakeFirst();
      expect(notice?.code).toBe('order_lost');
    } finally {
      await engine.stop();
      await fake.close();
      await drop();
    }
  });
});

describe('a resting fill the books cannot take', () => {
  it('pauses its bot with the reason and tells the trader once; the fill stays for a later look-up', async () => {
    const { db, drop } = await openTestDb('pglite');
    const fake = await FakeBinance.start();
    const engine = fakeBinanceEngine(db, fake);
    try {
      const { userId, id } = await gridOf(db, 'restingunbooked', '43434343');
      await engine.serial(id, () => engine.refresh(id));
      for (let i = 0; i < 5; i++) await engine.tick();
      await engine.idle();
      expect(fake.book.openOrders(null).filter((o) => o.side === 'SELL')).toHaveLength(2);
      // The books lose their sells (a state no code of ours writes; a database restored from an older copy would):
      // the plan cancels the sells resting on Binance, and the first cancel finds its order filled first.
      const state = engine.stateOf<GridState>(id)!;
      const stripped = { ...state, orders: state.orders.map((o) => (o?.side === 'sell' ? null : o)) };
      await db
        .updateTable('bots')
        .set({ state: JSON.stringify(encodeGrid(stripped)) })
        .where('id', '=', id)
        .execute();
      fake.faults.add({ kind: 'fillBeforeCancel', times: 1 });
      await engine.serial(id, () => engine.refresh(id));
      await engine.idle();
      expect(await db.selectFrom('bots').select(['status', 'error']).where('id', '=', id).executeTakeFirstOrThrow()).toEqual({ status: 'paused', error: 'fill_unbooked' });
      const notices = await db.selectFrom('notices').select(['code', 'detail']).where('user_id', '=', userId).execute();
      expect(notices.map((n) => n.code)).toEqual(['fill_unbooked']);
      // Still unbooked (a filled record would be booked), and looked up again: the trader is not told twice.
      const filled = fake.book.trades.filter((t) => t.isMaker);
      expect(filled).toHaveLength(1);
      await engine.serial(id, () => engine.refresh(id));
      await engine.idle();
      expect((await db.selectFrom('notices').select('code').where('user_id', '=', userId).execute()).map((n) => n.code)).toEqual(['fill_unbooked']);
    } finally {
      await engine.stop();
      await fake.close();
      await drop();
    }
  });
});
