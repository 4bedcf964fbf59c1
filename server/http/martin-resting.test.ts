import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ScriptedMarket } from '../testing/scripted.ts';
import { openTestApp, registerUser, type TestApp } from '../testing/test-support.ts';
import { createTrading, type Trading } from '../trading.ts';
import { engineRounds } from '../testing/resting-grid.ts';
import { matchRestingOrders } from '../exchanges/paper-venue.ts';
import { money } from '../../strategy/money.ts';
import { PAPER_MAKER_FEE_RATE } from '../market/paper-rules.ts';

/**
 * A martin or DCA bot's add and take profit resting on Paper as limit orders (RESTING_ORDERS=martin,dca),
 * as its detail shows them: each with its price (the detail's next add and take-profit prices), amount
 * and state on the exchange, a refused one with the exchange's reason; another trader sees none of it.
 */
describe("a martin or DCA bot's resting orders on its detail", () => {
  let t: TestApp;
  let trading: Trading;
  const market = new ScriptedMarket();

  beforeAll(async () => {
    t = await openTestApp('pglite', { trading: (db) => (trading = createTrading({ db, feed: market, restingTypes: ['martin', 'dca'] })) });
  });
  afterAll(async () => {
    await trading.engine.stop();
    await t.close();
  });

  const rounds = (n = 3) => engineRounds(trading.engine, n);

  /** A trader with a Paper account and a running bot of `type`, opened at 2000. */
  const startBot = async (type: 'martin' | 'dca', params: object) => {
    const user = await registerUser(t.app);
    const headers = { authorization: `Bearer ${user.token}` };
    const call = (method: 'GET' | 'POST', url: string, payload?: object) => t.app.inject({ method, url, ...(payload ? { payload } : {}), headers }).then((r) => r.json());
    await call('POST', '/api/exchanges/bind', { exchangeId: 1, apiKey: 'paperkey01', secretKey: 'papersecret01' });
    market.set('ETH/USDT', '2000');
    const bot = await call('POST', '/api/user/botCreate', { type, exchangeId: 1, symbol: 'ETH/USDT', params });
    expect(bot.code).toBe(1);
    const id = bot.data.id as string;
    await call('GET', `/api/user/botOperation?id=${id}&action=start`);
    await trading.engine.idle();
    await rounds();
    const owner = await t.db.selectFrom('bots').select('user_id').where('id', '=', id).executeTakeFirstOrThrow();
    const detail = async () => (await call('GET', `/api/user/botDetail?id=${id}`)).data;
    return { id, call, detail, userId: String(owner.user_id) };
  };

  type Shown = { slot: string; side: string; price: string; amount: string; state: string; reason: string | null };
  const words = (resting: Shown[] | undefined) => (resting ?? []).map((o) => `${o.slot} ${o.side} ${o.price} ${o.amount} ${o.state}${o.reason ? ` (${o.reason})` : ''}`);

  it("martin: its add and take profit at the detail's prices, resting; a refused add says why; another trader sees nothing", async () => {
    const params = { investment: '1000', firstOrder: '50', multiplier: '2', maxPositions: 4, addTrigger: '2', takeProfit: '1.5', stopLoss: '', repeat: true };
    const { id, call, detail, userId } = await startBot('martin', params);
    const d = await detail();
    // The strategy types say which rest here (RESTING_ORDERS=martin,dca).
    const types = (await call('GET', '/api/market/botTypes')).data as { code: string; resting?: boolean }[];
    expect(types.filter((x) => x.resting).map((x) => x.code)).toEqual(['martin', 'dca']);
    // 0.025 bought at 2000: the add of 100 at 1960 buys 0.0510; the take profit at 2030 sells what the fee left.
    expect([d.nextAddPrice, d.takeProfitPrice]).toEqual(['1960', '2030']);
    expect(words(d.resting)).toEqual(['add buy 1960 0.051 resting', 'take_profit sell 2030 0.0249 resting']);
    // The cycle's orders are its fills and orders at market: the resting ones are on the exchange, not in it.
    const adds = (await call('GET', `/api/user/positionAdds?id=${id}`)).data as { reason: string; status: string }[];
    expect(adds.map((o) => `${o.reason} ${o.status}`)).toEqual(['open filled']);
    // The account's coin is what the books count, less the fee taken in it: the take profit holds 0.0249
    // of it and 0.000075 is free, under the books' 0.0001 beside it by the fee. The reconciliation and a
    // reload compare all of it, and the bot runs on.
    for (let i = 0; i < 2; i++) await trading.engine.reconcileAccounts();
    await trading.engine.serial(id, () => trading.engine.refresh(id));
    await trading.engine.idle();
    expect([(await detail()).status, (await detail()).error]).toEqual(['running', null]);
    const other = await registerUser(t.app);
    const theirs = await t.app.inject({ method: 'GET', url: `/api/user/botDetail?id=${id}`, headers: { authorization: `Bearer ${other.token}` } });
    expect(theirs.statusCode).toBeLessThan(500);
    expect([theirs.json().code !== 1, theirs.json().data?.resting]).toEqual([true, undefined]);
    // Paused, its quote spent elsewhere (1 USDT free): resumed, the exchange refuses the add; the take profit rests.
    await call('GET', `/api/user/botOperation?id=${id}&action=pause`);
    await trading.engine.idle();
    expect(words((await detail()).resting)).toEqual([]);
    await t.db.updateTable('paper_balances').set({ amount: '1' }).where('user_id', '=', userId).where('currency', '=', 'USDT').execute();
    await call('GET', `/api/user/botOperation?id=${id}&action=start`);
    await trading.engine.idle();
    await rounds();
    expect(words((await detail()).resting)).toEqual(['add buy 1960 0.051 refused (insufficient balance)', 'take_profit sell 2030 0.0249 resting']);
  });

  it('martin: an add the book filled after the take profit, before its cancel got there, opens the next cycle: nothing paused, nothing lost', async () => {
    const params = { investment: '1000', firstOrder: '50', multiplier: '2', maxPositions: 4, addTrigger: '2', takeProfit: '1.5', stopLoss: '', repeat: true };
    const { id, detail, userId } = await startBot('martin', params);
    expect(words((await detail()).resting)).toEqual(['add buy 1960 0.051 resting', 'take_profit sell 2030 0.0249 resting']);
    // A fast move between two looks of the engine: up through the take profit, then down through the add.
    const source = trading.simulatedSource('paper');
    await matchRestingOrders(t.db, source, 1, 'ETH/USDT', undefined, money('2031'));
    await matchRestingOrders(t.db, source, 1, 'ETH/USDT', undefined, money('1950'));
    market.set('ETH/USDT', '1950');
    await rounds(4);
    const d = await detail();
    // Cycle 1 closed at its take profit; the add's 0.051 at 1960 is cycle 2's open.
    expect([d.status, d.cycle, d.fills]).toEqual(['running', 2, [{ price: '1960', amount: '0.051' }]]);
    const cycles = await t.db.selectFrom('bot_cycles').select(['cycle', 'close_price']).where('bot_id', '=', id).execute();
    expect(cycles.map((c) => `${c.cycle} ${money(c.close_price!).toFixed()}`)).toEqual(['1 2030']);
    // The account holds what both fills left: the add's 0.051 less its maker fee, and the first buy's dust
    // (0.025 less its taker fee, 0.0249 sold); the books count the taker fee, a little under it, never over.
    const eth = await t.db.selectFrom('paper_balances').select(['amount']).where('user_id', '=', userId).where('currency', '=', 'ETH').executeTakeFirstOrThrow();
    expect(money(eth.amount).toFixed()).toBe(money('0.051').mul(money(1).minus(PAPER_MAKER_FEE_RATE)).plus(money('0.025').mul('0.999').minus('0.0249')).toFixed());
    expect(money(d.amount).mul('0.999').plus(d.dust).lte(money(eth.amount))).toBe(true);
  });

  it('dca: its next safety order and take profit, resting; after the take profit filled, the next deal’s', async () => {
    const params = {
      investment: '1000',
      baseOrder: '40',
      safetyOrder: '30',
      maxSafetyOrders: 5,
      deviation: '1',
      stepScale: '1.4',
      volumeScale: '1.6',
      takeProfit: '1.2',
      stopLoss: '',
      cooldown: 0,
      start: { kind: 'now' },
    };
    const { detail } = await startBot('dca', params);
    const d = await detail();
    // 0.02 bought at 2000: safety order 1 (30) at 1980 buys 0.0151; the take profit at 2024 sells 0.0199.
    expect([d.nextAddPrice, d.takeProfitPrice]).toEqual(['1980', '2024']);
    expect(words(d.resting)).toEqual(['add buy 1980 0.0151 resting', 'take_profit sell 2024 0.0199 resting']);
    // The price passes the take profit: the deal closes at 2024 as a maker, the next opens at 2030 at market
    // (0.0197 bought; with the 0.00008 the last sale left below the step, 0.0197 to sell).
    market.set('ETH/USDT', '2030');
    await rounds(4);
    const next = await detail();
    expect([next.cycle, next.takeProfitPrice]).toEqual([2, '2054.36']);
    expect(words(next.resting)).toEqual(['add buy 2009.7 0.0149 resting', 'take_profit sell 2054.36 0.0197 resting']);
  });
});
