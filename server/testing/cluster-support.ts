import { sql } from 'kysely';
import type { Db } from '../db/connect.ts';
import { Engine } from '../engine/runner.ts';
import { PaperExchange } from '../exchanges/paper.ts';
import type { ExchangePort, MarketOrderRequest } from '../exchanges/port.ts';
import type { ScriptedMarket } from './scripted.ts';
import { encodeMartin } from '../../strategy/martin/state-codec.ts';
import { initialMartinState } from '../../strategy/martin/strategy.ts';
import { botId } from '../../strategy/types.ts';
import type { Worker } from '../cluster/workers.ts';
import { bareUser } from './test-support.ts';

/**
 * Many engines, one book, in one test process: engines with different workers on one
 * database, as separate processes would be. They share one Paper exchange that records which worker
 * sent each order. Used by cluster.test.ts and commands.test.ts.
 */
export interface TestCluster {
  paper: PaperExchange;
  /** Every order request: [worker, client order id]. */
  sent: [string, string][];
  /** What the engines logged as errors. */
  errors: string[];
  /** Every engine made, halted by `close`. */
  engines: Engine[];
  /** An engine trading as `worker` (ticks and ownership rounds every `tickMs` / `claimMs`). */
  engineFor(worker: Worker, tickMs?: number, claimMs?: number, extra?: { commandDeadlineMs?: number }): Engine;
  /** `n` martin bots on BTC/USDT, each of a new trader unless `userId` is given (default parameters: SWING_PARAMS). */
  newBots(n: number, status: 'running' | 'stopped', options?: { params?: Record<string, unknown>; userId?: string }): Promise<string[]>;
  /** The workers that sent each bot's orders (from the `from`-th order on). */
  sendersOf(ids: string[], from?: number): Map<string, Set<string>>;
  /** The worker holding each bot's lease. */
  holders(ids: string[]): Promise<Map<string, string | null>>;
  /** Forgets every worker: a test starts on a cluster of its own (the workers an earlier test halted are gone). */
  fresh(): Promise<void>;
  /** Halts every engine and waits for their work. */
  close(): Promise<void>;
}

/** Martin parameters that open, add and take profit on a ±1 % swing, with room for 50 orders. */
export const SWING_PARAMS = { investment: '1000', firstOrder: '10', multiplier: '1', maxPositions: 50, addTrigger: '0.5', takeProfit: '0.5', repeat: true };

/** A test cluster on `db` over `market`'s prices; `name` keeps its traders' accounts apart from another file's. */
export function testCluster(db: Db, market: ScriptedMarket, name: string): TestCluster {
  const paper = new PaperExchange(market, { USDT: '1000000000' });
  const sent: [string, string][] = [];
  const errors: string[] = [];
  const engines: Engine[] = [];
  let users = 0;
  const venueOf = (worker: string): ExchangePort =>
    Object.assign(Object.create(paper) as ExchangePort, {
      placeMarketOrder: (request: MarketOrderRequest) => {
        sent.push([worker, request.clientOrderId]);
        return paper.placeMarketOrder(request);
      },
    });
  return {
    paper,
    sent,
    errors,
    engines,
    engineFor(worker, tickMs = 60, claimMs = 100, extra = {}) {
      const venue = venueOf(worker.id);
      const engine = new Engine({
        db,
        prices: { price: async (_e, s) => market.priceAt(s, 0) },
        venue: async () => venue,
        tickMs,
        claimMs,
        cluster: worker,
        ...extra,
        log: { error: (obj, msg) => errors.push(`${msg} ${String((obj as { err?: Error }).err?.message ?? '')}`) },
      });
      engines.push(engine);
      return engine;
    },
    async newBots(n, status, { params = SWING_PARAMS, userId } = {}) {
      const ids: string[] = [];
      for (let i = 0; i < n; i++) {
        users++;
        const user = userId
          ? { id: userId }
          : await db
              .insertInto('users')
              .values(bareUser(String(30000000 + users), `${name}${users}`))
              .returning('id')
              .executeTakeFirstOrThrow();
        const row = await db
          .insertInto('bots')
          .values({
            user_id: String(user.id),
            exchange_id: 1,
            symbol: 'BTC/USDT',
            type: 'martin',
            name: 'b',
            status,
            params: JSON.stringify(params),
            state: JSON.stringify(encodeMartin(initialMartinState(botId('x')))),
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        ids.push(String(row.id));
      }
      return ids;
    },
    sendersOf(ids, from = 0) {
      const by = new Map<string, Set<string>>(ids.map((id) => [id, new Set()]));
      for (const [worker, order] of sent.slice(from)) by.get(order.split('-')[0]!)?.add(worker);
      return by;
    },
    async holders(ids) {
      const { rows } = await sql<{ bot_id: string; worker_id: string | null }>`select bot_id, worker_id from bot_leases where bot_id in (${sql.join(ids.map((id) => sql`${id}::bigint`))})`.execute(db);
      return new Map(rows.map((r) => [String(r.bot_id), r.worker_id]));
    },
    async fresh() {
      await sql`delete from workers`.execute(db);
    },
    async close() {
      for (const e of engines) e.halt();
      for (const e of engines) await e.idle();
    },
  };
}
