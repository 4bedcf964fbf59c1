// A reconciliation round of one exchange account holding 1,000 resting orders: the real ccxt binance
// client through LiveExchange against the fake Binance (server/testing/fake-binance/), the books in
// PGlite. 100 bots with 10 resting buys each (their records in bot_orders), plus 50 orders of ours that
// no record knows (orphans). The first round cancels the orphans; the next ones find nothing to do.
// Alone: `node bench/reconciliation-round.ts`.
import { sql } from 'kysely';
import { migrate, openDatabase } from '../server/db/connect.ts';
import { cancelOrphans, findShortfalls, type BookedBot } from '../server/engine/reconciliation.ts';
import { LiveExchange } from '../server/exchanges/live.ts';
import { fakeBinanceClient } from '../server/testing/fake-binance/client.ts';
import { FakeBinance } from '../server/testing/fake-binance/server.ts';
import { money } from '../strategy/money.ts';
import type { ClientOrderId } from '../strategy/types.ts';
import { median, round } from './stats.ts';

export interface ReconciliationRoundFigures {
  openOrders: number;
  orphans: number;
  /** The first round: every open order read, the orphans cancelled. */
  firstMs: number;
  firstRequests: number;
  /** The rounds after it (nothing to cancel): median and each. */
  steadyMedianMs: number;
  steadyMs: number[];
  steadyRequests: number;
  /** Statements the round ran on the database (the steady one). */
  steadyStatements: number;
}

export async function measureReconciliationRound(bots = 100, perBot = 10, orphans = 50, rounds = 7): Promise<ReconciliationRoundFigures> {
  // Binance's order limit (100 per 10 s) would make the setup take minutes: raised here (the round itself places nothing).
  const fake = await FakeBinance.start({ balances: { USDT: '1000000', BTC: '10' }, limits: { ordersPer10s: 1_000_000, weightPerMinute: 1_000_000 } });
  let statements = 0;
  const db = await openDatabase();
  // Every statement the round runs, counted on its way (a Kysely plugin).
  const counted = db.withPlugin({
    transformQuery: (args) => {
      statements++;
      return args.node;
    },
    transformResult: async (args) => args.result,
  });
  try {
    await migrate(db);
    const venue = new LiveExchange(fakeBinanceClient(fake), { salt: 'bench0' });
    const user = await db
      .insertInto('users')
      .values({ sn: '52525252', account: 'benchrecon', password_hash: null, payment_hash: null, nickname: 'n', email: '', mobile: '', address: null, avatar: '', referrer_id: null })
      .returning('id')
      .executeTakeFirstOrThrow();
    const limit = (id: string, i: number) => ({
      clientOrderId: id as ClientOrderId,
      symbol: 'BTC/USDT',
      side: 'buy' as const,
      price: money(String(50_000 + (i % 500) * 10)),
      amount: money('0.0002'),
    });
    const booked: BookedBot[] = [];
    let placed = 0;
    for (let b = 0; b < bots; b++) {
      const bot = await db
        .insertInto('bots')
        .values({ user_id: String(user.id), exchange_id: 2, symbol: 'BTC/USDT', type: 'grid', name: `b${b}`, status: 'running', params: '{}', state: '{}' })
        .returning('id')
        .executeTakeFirstOrThrow();
      const id = String(bot.id);
      booked.push({ id, symbol: 'BTC/USDT', status: 'running', held: money('0.001'), pending: null });
      for (let s = 1; s <= perBot; s++) {
        const clientOrderId = `${id}-1-${s}`;
        await venue.placeLimitOrder(limit(clientOrderId, placed++));
        await db
          .insertInto('bot_orders')
          .values({ bot_id: id, client_order_id: clientOrderId, cycle: 1, seq: s, side: 'buy', reason: 'open', quote: null, amount: '0.0002', at_price: null, status: 'open' })
          .execute();
      }
    }
    for (let o = 0; o < orphans; o++) await venue.placeLimitOrder(limit(`${900_000 + o}-1-1`, placed++));
    const roundOnce = async () => {
      const requests = fake.requests.length;
      statements = 0;
      const began = performance.now();
      // As the engine runs it (runner.ts reconcileAccounts): the orphans, then the balances.
      const cancelled = await cancelOrphans(counted, venue, booked, { now: Date.now() + 10_000 });
      await findShortfalls(venue, booked);
      return { ms: performance.now() - began, requests: fake.requests.length - requests, statements, cancelled: cancelled?.length ?? -1 };
    };
    const first = await roundOnce();
    if (first.cancelled !== orphans) throw new Error(`the first round cancelled ${first.cancelled} orphans, not ${orphans}`);
    const steady = [];
    for (let r = 0; r < rounds; r++) steady.push(await roundOnce());
    const open = (await sql<{ n: number }>`select count(*)::int as n from bot_orders where status = 'open'`.execute(db)).rows[0]!.n;
    return {
      openOrders: open,
      orphans,
      firstMs: round(first.ms),
      firstRequests: first.requests,
      steadyMedianMs: round(median(steady.map((s) => s.ms))),
      steadyMs: steady.map((s) => round(s.ms)),
      steadyRequests: steady[0]!.requests,
      steadyStatements: steady[0]!.statements,
    };
  } finally {
    await db.destroy();
    await fake.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(JSON.stringify(await measureReconciliationRound(), null, 2));
