import type { Db } from '../db/connect.ts';
import { Engine } from '../engine/runner.ts';
import { LiveExchange } from '../exchanges/live.ts';
import { fakeBinanceClient } from './fake-binance/client.ts';
import type { FakeBinance } from './fake-binance/server.ts';
import { encodeGrid } from '../../strategy/grid/state-codec.ts';
import { initialGridState } from '../../strategy/grid/strategy.ts';
import { botId } from '../../strategy/types.ts';

/**
 * A trader and their running grid on the fake Binance (exchange 2, BTC/USDT): levels 60,000 to 70,000
 * by 2,500, 1,000 USDT, a stop at 55,000; not started (the engine's first round opens it at the price).
 */
export async function gridOf(db: Db, account: string, sn: string): Promise<{ userId: string; id: string }> {
  const user = await db
    .insertInto('users')
    .values({ sn, account, password_hash: null, payment_hash: null, nickname: 'n', email: '', mobile: '', address: null, avatar: '', referrer_id: null })
    .returning('id')
    .executeTakeFirstOrThrow();
  const { id } = await db
    .insertInto('bots')
    .values({
      user_id: String(user.id),
      exchange_id: 2,
      symbol: 'BTC/USDT',
      type: 'grid',
      name: `${account} grid`,
      status: 'running',
      params: JSON.stringify({ investment: '1000', lower: '60000', upper: '70000', grids: 4, spacing: 'arithmetic', stopLoss: '55000' }),
      state: JSON.stringify(encodeGrid(initialGridState(botId('x')))),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { userId: String(user.id), id: String(id) };
}

/**
 * An engine resting grids' orders on the fake Binance through the real ccxt client (LiveExchange), its
 * prices read off the fake's book: a client timeout of 2 s unless given, and a receive window or a
 * reconciliation period where a test needs one.
 */
export function fakeBinanceEngine(db: Db, fake: FakeBinance, options: { timeout?: number; orderWindowMs?: number; reconcileEveryMs?: number } = {}): Engine {
  const venue = new LiveExchange(fakeBinanceClient(fake, { timeout: options.timeout ?? 2000 }), {
    salt: 'e2e0ab',
    confirmDelaysMs: [0],
    ...(options.orderWindowMs !== undefined ? { orderWindowMs: options.orderWindowMs } : {}),
  });
  return new Engine({
    db,
    prices: { price: async (_e, s) => fake.book.price(s).toFixed() },
    venue: async () => venue,
    restingTypes: ['grid'],
    ...(options.reconcileEveryMs !== undefined ? { reconcileEveryMs: options.reconcileEveryMs } : {}),
  });
}

/** `n` price rounds of an engine, each waited for to its end (its decisions, orders and look-ups). */
export async function engineRounds(engine: Engine, n: number): Promise<void> {
  for (let i = 0; i < n; i++) {
    await engine.tick();
    await engine.idle();
  }
}
