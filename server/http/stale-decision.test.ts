import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ScriptedMarket } from '../testing/scripted.ts';
import { openTestApp, registerUser, type TestApp } from '../testing/test-support.ts';
import { createTrading, type Trading } from '../trading.ts';
import type { MartinState } from '../../strategy/martin/strategy.ts';
import { money } from '../../strategy/money.ts';

/**
 * A price round that decides while another decision of the same bot is being committed decides on the
 * state the bot had before that one: the book still holds it. Committed after it, that decision would undo
 * the one before (its fill unbooked, a cycle closed twice). The round's decision is dropped instead, and the
 * next round asks the bot's new state. PostgreSQL, where a second connection can hold the bot's row and so
 * keep the first decision's commit waiting while the round runs.
 */
describe('a price round while a decision of the same bot commits (postgres)', () => {
  let t: TestApp;
  let trading: Trading;
  const market = new ScriptedMarket();
  const params = { investment: '1000', firstOrder: '100', multiplier: '2', maxPositions: 3, addTrigger: '2', takeProfit: '1', repeat: true };

  beforeAll(async () => {
    t = await openTestApp('postgres', { trading: (db) => (trading = createTrading({ db, feed: market })) });
  });
  afterAll(async () => {
    await trading.engine.stop();
    await t.close();
  });

  it('drops an add decided on the state before a manual close that commits meanwhile: the close is booked, the cycle closes once', async () => {
    const user = await registerUser(t.app);
    const headers = { authorization: `Bearer ${user.token}` };
    const call = (url: string, payload?: object) => t.app.inject({ method: payload ? 'POST' : 'GET', url, ...(payload ? { payload } : {}), headers }).then((r) => r.json());
    await call('/api/exchanges/bind', { exchangeId: 1, apiKey: 'paperkey01', secretKey: 'papersecret01' });
    market.set('BTC/USDT', '50000');
    const id = (await call('/api/user/botCreate', { type: 'martin', exchangeId: 1, symbol: 'BTC/USDT', params })).data.id as string;
    await call(`/api/user/botOperation?id=${id}&action=start`);
    await trading.engine.idle();
    expect(trading.engine.stateOf<MartinState>(id)!.targets!.nextAdd!.toFixed()).toBe('49000');

    // Past the next add, with no round yet. Another connection holds the bot's row, so the trader's close
    // waits in its commit; a round runs meanwhile, on the book's state from before the close.
    market.set('BTC/USDT', '48900');
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let locked = () => {};
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    const holder = t.db.transaction().execute(async (tx) => {
      await sql`select id from bots where id = ${id} for update`.execute(tx);
      locked();
      await held;
    });
    await isLocked;
    const closed = call(`/api/user/botOperation?id=${id}&action=close`);
    const waiting = async () => Number((await sql<{ n: string }>`select count(*) as n from pg_locks where not granted`.execute(t.db)).rows[0]!.n);
    await expect.poll(waiting, { timeout: 15_000 }).toBeGreaterThan(0);
    let during: string | undefined;
    try {
      await trading.engine.tick();
      during = trading.engine.stateOf<MartinState>(id)!.pending?.reason;
    } finally {
      release();
      await holder;
    }
    expect((await closed).code).toBe(1);
    await trading.engine.idle();

    // The close closed cycle 1, once; the next rounds open cycle 2 (repeat on) at the market.
    for (let i = 0; i < 3; i++) {
      await trading.engine.tick();
      await trading.engine.idle();
    }
    const cycles = await t.db.selectFrom('bot_cycles').select('cycle').where('bot_id', '=', id).execute();
    expect(cycles.map((c) => c.cycle)).toEqual([1]);
    const orders = await t.db.selectFrom('bot_orders').select(['reason', 'status', 'side', 'filled', 'fee', 'fee_currency']).where('bot_id', '=', id).orderBy('id').execute();
    expect(orders.map((o) => `${o.reason} ${o.status}`)).toEqual(['open filled', 'manual_close filled', 'open filled']);
    const state = trading.engine.stateOf<MartinState>(id)!;
    expect([state.cycle, state.fills.length, state.pending]).toEqual([2, 1, null]);
    // The stored state is the one in memory: a restart carries on from it.
    const stored = await t.db.selectFrom('bots').select('state').where('id', '=', id).executeTakeFirstOrThrow();
    expect((stored.state as { cycle: number }).cycle).toBe(2);
    // The account holds what the venue's fills left it: what the books hold.
    const owner = await t.db.selectFrom('bots').select('user_id').where('id', '=', id).executeTakeFirstOrThrow();
    const btc = await t.db.selectFrom('paper_balances').select('amount').where('user_id', '=', owner.user_id).where('exchange_id', '=', 1).where('currency', '=', 'BTC').executeTakeFirstOrThrow();
    const left = orders.reduce((sum, o) => {
      const base = money(o.filled ?? '0');
      const fee = o.fee_currency === 'BTC' ? money(o.fee ?? '0') : money(0);
      return o.side === 'buy' ? sum.plus(base).minus(fee) : sum.minus(base).minus(fee);
    }, money(0));
    expect(money(btc.amount).toFixed()).toBe(left.toFixed());
    expect(left.gt(0)).toBe(true);
    // The round's add, decided on the state the close was replacing, never was the bot's state.
    expect(during).toBe('manual_close');
  });
});
