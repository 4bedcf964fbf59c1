import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { Db } from '../db/connect.ts';
import { bareUser, dbKinds, openTestDb } from '../testing/test-support.ts';
import { kitOf } from '../../strategy/kit.ts';
import { encodeMartin } from '../../strategy/martin/state-codec.ts';
import { initialMartinState } from '../../strategy/martin/strategy.ts';
import { money } from '../../strategy/money.ts';
import { botId } from '../../strategy/types.ts';
import { lockBalance, post } from '../ledger.ts';
import { commitDecision } from './persist.ts';

/**
 * Two live bots of one trader close a profitable cycle at the same moment with the last of the trader's
 * fuel: each decision pays its fee, and the one that empties the fuel pauses the other bot in the same
 * transaction. With the bot's row locked before the fuel, each held its own row and waited for the fuel
 * the other held (then for the other's row): PostgreSQL broke the deadlock by failing one decision.
 */
describe.each(dbKinds)('fuel paid by two bots of one trader at once on %s', (kind) => {
  let db: Db;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    ({ db, drop } = await openTestDb(kind));
  });
  afterAll(() => drop());

  it('commits both decisions (no deadlock), empties the fuel and pauses both bots', { timeout: 20_000 }, async () => {
    const user = await db.insertInto('users').values(bareUser('40000001', 'fuellock')).returning('id').executeTakeFirstOrThrow();
    const userId = String(user.id);
    await post(db, { userId, asset: 'fuel', amount: money('0.01'), reason: 'adjust' });
    const bots: { id: string; userId: string; exchangeId: number }[] = [];
    for (const name of ['a', 'b']) {
      const row = await db
        .insertInto('bots')
        .values({ user_id: userId, exchange_id: 2, symbol: 'BTC/USDT', type: 'martin', name, status: 'running', params: '{}', state: JSON.stringify(encodeMartin(initialMartinState(botId('x')))) })
        .returning('id')
        .executeTakeFirstOrThrow();
      bots.push({ id: String(row.id), userId, exchangeId: 2 });
    }
    const decide = (bot: (typeof bots)[number]) => {
      const state = initialMartinState(botId(bot.id));
      return commitDecision(db, {
        bot,
        kit: kitOf('martin'),
        event: { type: 'PriceTicked', price: money(50_000), at: 0 },
        before: state,
        state,
        intents: [{ type: 'CycleClosed', cycle: 1, profit: money('1') }],
      });
    };

    // Both decisions start while a third transaction holds the fuel, so they wait at the same point; then it lets go.
    let release!: () => void;
    const released = new Promise<void>((r) => {
      release = r;
    });
    let held!: () => void;
    const holding = new Promise<void>((r) => {
      held = r;
    });
    const holder = db.transaction().execute(async (tx) => {
      await lockBalance(tx, userId, 'fuel');
      held();
      await released;
    });
    await holding;
    const both = Promise.allSettled(bots.map(decide));
    await new Promise((r) => setTimeout(r, 300));
    release();
    await holder;
    const results = await both;

    expect(results.map((r) => (r.status === 'rejected' ? String((r.reason as Error).message) : 'committed'))).toEqual(['committed', 'committed']);
    const fuel = await db.selectFrom('user_balances').select('amount').where('user_id', '=', userId).where('asset', '=', 'fuel').executeTakeFirstOrThrow();
    expect(money(fuel.amount).toFixed()).toBe('0');
    const statuses = await db.selectFrom('bots').select('status').where('user_id', '=', userId).execute();
    expect(statuses.map((s) => s.status)).toEqual(['paused', 'paused']);
    const cycles = await sql<{ n: string }>`select count(*) as n from bot_cycles where user_id = ${userId}`.execute(db);
    expect(Number(cycles.rows[0]!.n)).toBe(2);
  });
});
