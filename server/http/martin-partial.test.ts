import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ScriptedMarket } from '../testing/scripted.ts';
import { openTestApp, registerUser, type TestApp } from '../testing/test-support.ts';
import { createTrading, type Trading } from '../trading.ts';
import { engineRounds } from '../testing/resting-grid.ts';
import { matchRestingOrders } from '../exchanges/paper-venue.ts';
import { money } from '../../strategy/money.ts';

/**
 * A martin bot's take profit resting on Paper, filled in part (a volume model gives 0.01 of its 0.0249):
 * the engine's next look-up cancels the rest and books the part as a partial close. The cycle goes on,
 * the take profit rests again at its price for what is left, and the account holds what the books count.
 */
describe("a martin bot's take profit filled in part on Paper", () => {
  let t: TestApp;
  let trading: Trading;
  const market = new ScriptedMarket();

  beforeAll(async () => {
    // Every bot's resting orders looked up at each round's sweep, not once a reconciliation period.
    t = await openTestApp('pglite', { trading: (db) => (trading = createTrading({ db, feed: market, restingTypes: ['martin'], reconcileEveryMs: 1 })) });
  });
  afterAll(async () => {
    await trading.engine.stop();
    await t.close();
  });

  const rounds = (n = 3) => engineRounds(trading.engine, n);

  it('books the part sold as a partial close, and rests the take profit again for the rest', async () => {
    const user = await registerUser(t.app);
    const headers = { authorization: `Bearer ${user.token}` };
    const call = (method: 'GET' | 'POST', url: string, payload?: object) => t.app.inject({ method, url, ...(payload ? { payload } : {}), headers }).then((r) => r.json());
    await call('POST', '/api/exchanges/bind', { exchangeId: 1, apiKey: 'paperkey01', secretKey: 'papersecret01' });
    market.set('ETH/USDT', '2000');
    const params = { investment: '1000', firstOrder: '50', multiplier: '2', maxPositions: 4, addTrigger: '2', takeProfit: '1.5', stopLoss: '', repeat: true };
    const bot = await call('POST', '/api/user/botCreate', { type: 'martin', exchangeId: 1, symbol: 'ETH/USDT', params });
    const id = bot.data.id as string;
    await call('GET', `/api/user/botOperation?id=${id}&action=start`);
    await trading.engine.idle();
    await rounds();
    const detail = async () => (await call('GET', `/api/user/botDetail?id=${id}`)).data;
    const words = (d: { resting?: { slot: string; side: string; price: string; amount: string; state: string }[] }) =>
      (d.resting ?? []).map((o) => `${o.slot} ${o.side} ${o.price} ${o.amount} ${o.state}`);
    expect(words(await detail())).toEqual(['add buy 1960 0.051 resting', 'take_profit sell 2030 0.0249 resting']);

    // The price touches 2,030 between two rounds and trades 0.01 of the take profit; it is back at 2,000.
    await matchRestingOrders(t.db, trading.simulatedSource('paper'), 1, 'ETH/USDT', () => money('0.01'), money('2030'));
    await rounds(2);
    const d = await detail();
    expect([d.status, d.cycle, d.error]).toEqual(['running', 1, null]);
    expect(words(d)).toEqual(['add buy 1960 0.051 resting', 'take_profit sell 2030 0.0149 resting']);
    // The part's profit is realised; no cycle closed.
    expect(await t.db.selectFrom('bot_cycles').select('cycle').where('bot_id', '=', id).execute()).toEqual([]);
    const orders = await t.db.selectFrom('bot_orders').select(['slot', 'status', 'filled']).where('bot_id', '=', id).where('slot', '=', 'take_profit').orderBy('id').execute();
    expect(orders.map((o) => `${o.status} ${money(o.filled ?? '0').toFixed()}`)).toEqual(['filled 0.01', 'open 0']);
    expect(money(d.profit).gt(0)).toBe(true);
    // The account holds what the books count: 0.025 less the taker's fee, 0.01 sold.
    const owner = await t.db.selectFrom('bots').select('user_id').where('id', '=', id).executeTakeFirstOrThrow();
    const eth = await t.db.selectFrom('paper_balances').select('amount').where('user_id', '=', String(owner.user_id)).where('currency', '=', 'ETH').executeTakeFirstOrThrow();
    expect(money(eth.amount).toFixed()).toBe(money('0.025').mul('0.999').minus('0.01').toFixed());
  });
});
