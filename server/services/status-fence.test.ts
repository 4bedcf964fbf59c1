import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../db/connect.ts';
import { Engine } from '../engine/runner.ts';
import { PaperExchange } from '../exchanges/paper.ts';
import type { ExchangePort, MarketOrderRequest } from '../exchanges/port.ts';
import { ScriptedMarket } from '../testing/scripted.ts';
import { dbKinds, openTestDb } from '../testing/test-support.ts';
import type { Trading } from '../trading.ts';
import { encodeMartin } from '../../strategy/martin/state-codec.ts';
import { initialMartinState } from '../../strategy/martin/strategy.ts';
import { botId } from '../../strategy/types.ts';
import { BotListCache } from './bot-list-cache.ts';
import { operateBot } from './bots.ts';

/**
 * The status fence: a bot paused or stopped through the API while an engine
 * holds it in memory gets no new order from that engine. The API here runs beside another engine (as
 * on a second process), so the engine that trades the bot is never told: only the database says so.
 */
describe.each(dbKinds)('the status fence on %s', (kind) => {
  let db: Db;
  let drop: () => Promise<void>;
  const market = new ScriptedMarket();
  const requests: string[] = [];
  let exchange: ExchangePort;
  let holder: Engine;
  let api: Engine;
  let userId: string;

  const newBot = async () => {
    const row = await db
      .insertInto('bots')
      .values({
        user_id: userId,
        exchange_id: 1,
        symbol: 'BTC/USDT',
        type: 'martin',
        name: 'b',
        status: 'running',
        params: JSON.stringify({ investment: '1000', firstOrder: '100', multiplier: '2', maxPositions: 3, addTrigger: '2', takeProfit: '1', repeat: true }),
        state: JSON.stringify(encodeMartin(initialMartinState(botId('x')))),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return String(row.id);
  };
  const orders = (id: string) => db.selectFrom('bot_orders').select(['client_order_id', 'status']).where('bot_id', '=', id).orderBy('seq').execute();

  beforeAll(async () => {
    ({ db, drop } = await openTestDb(kind));
    const user = await db
      .insertInto('users')
      .values({ sn: '11113333', account: 'fence01', password_hash: null, payment_hash: null, nickname: 'n', email: '', mobile: '', address: null, avatar: '', referrer_id: null })
      .returning('id')
      .executeTakeFirstOrThrow();
    userId = String(user.id);
    market.set('BTC/USDT', '50000');
    const paper = new PaperExchange(market, { USDT: '10000' });
    exchange = Object.assign(Object.create(paper) as ExchangePort, {
      placeMarketOrder: (request: MarketOrderRequest) => {
        requests.push(request.clientOrderId);
        return paper.placeMarketOrder(request);
      },
    });
    const deps = { db, prices: { price: async (_e: string, s: string) => market.priceAt(s, 0) }, venue: async () => exchange };
    holder = new Engine(deps);
    api = new Engine(deps);
  });
  afterAll(async () => {
    await holder.stop();
    await api.stop();
    await drop();
  });

  for (const action of ['pause', 'stop'] as const) {
    it(`sends no add for a bot ${action === 'pause' ? 'paused' : 'stopped'} through the API while the engine holds it`, async () => {
      market.set('BTC/USDT', '50000');
      const id = await newBot();
      await holder.serial(id, () => holder.refresh(id)); // its first order, filled at 50,000
      expect((await orders(id)).map((o) => o.status)).toEqual(['filled']);
      const trading = { engine: api, listCache: new BotListCache() } as unknown as Trading;
      expect(await operateBot({ db, trading }, userId, id, action)).toBe(id);
      const sent = requests.length;
      market.set('BTC/USDT', '48000'); // past the 2 % add trigger
      await holder.tick();
      await holder.idle();
      expect((await orders(id)).map((o) => o.status)).toEqual(['filled']);
      expect(requests.length).toBe(sent);
      // The engine dropped it from its book: the next rounds do not try again.
      await holder.tick();
      await holder.idle();
      expect(requests.length).toBe(sent);
      const row = await db.selectFrom('bots').select('status').where('id', '=', id).executeTakeFirstOrThrow();
      expect(row.status).toBe(action === 'pause' ? 'paused' : 'stopped');
    });
  }
});
