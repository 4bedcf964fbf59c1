import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Code } from '../../contract/codes.ts';
import { ScriptedMarket } from '../testing/scripted.ts';
import { dbKinds, newAccount, openTestApp, type Answer, type DataAt, type TestApp, registerPayload } from '../testing/test-support.ts';
import { createTrading, type Trading } from '../trading.ts';

const martin = { investment: '1000', firstOrder: '100', multiplier: '2', maxPositions: 3, addTrigger: '2', takeProfit: '1', stopLoss: '', repeat: true };
const grid = { investment: '1000', lower: '45000', upper: '55000', grids: 4, spacing: 'arithmetic', stopLoss: '', takeProfit: '' };

interface Trader {
  account: string;
  auth: Record<string, string>;
  userId: string;
  /** Every bot the trader made, deleted ones included. */
  bots: string[];
  deleted: string[];
  taskId: string;
}

/**
 * Every query of user data starts from its owner. Two traders run bots of every
 * type (martin, grid, one grid deleted while holding a position); every list, count, bill, log,
 * position, notice and by-id call answers each of them only their own rows, and the other's ids are
 * refused as not found.
 */
describe.each(dbKinds)('two traders never see each other’s data (%s)', (kind) => {
  let t: TestApp;
  let trading: Trading;
  const market = new ScriptedMarket();
  const call = <M extends 'GET' | 'POST' | 'PUT', U extends string>(who: Trader, method: M, url: U, payload?: object) =>
    t.app.inject({ method, url, ...(payload ? { payload } : {}), headers: { ...who.auth, lang: 'en' } }).then((r) => r.json() as Answer<DataAt<M, U>>);
  const step = async (price: string) => {
    market.set('BTC/USDT', price);
    for (let i = 0; i < 4; i++) {
      await trading.engine.tick();
      await trading.engine.idle();
    }
  };
  const a: Trader = { account: newAccount(), auth: {}, userId: '', bots: [], deleted: [], taskId: '' };
  const b: Trader = { account: newAccount(), auth: {}, userId: '', bots: [], deleted: [], taskId: '' };

  async function open(who: Trader) {
    const r = await t.app.inject({ method: 'POST', url: '/api/login/register', payload: await registerPayload(t.app, { account: who.account }) });
    who.auth = { authorization: `Bearer ${r.json().data.token}` };
    who.userId = String((await t.db.selectFrom('users').select('id').where('sn', '=', r.json().data.sn).executeTakeFirstOrThrow()).id);
    expect((await call(who, 'POST', '/api/exchanges/bind', { exchangeId: 1, apiKey: 'paperkey01', secretKey: 'papersecret01' })).code).toBe(1);
    const make = async (type: string, params: object) => {
      const created = await call(who, 'POST', '/api/user/botCreate', { type, exchangeId: 1, symbol: 'BTC/USDT', params });
      expect(created.code).toBe(1);
      who.bots.push(created.data.id);
      expect((await call(who, 'GET', `/api/user/botOperation?id=${created.data.id}&action=start`)).code).toBe(1);
      return created.data.id as string;
    };
    await make('martin', martin);
    await make('grid', grid);
    const doomed = await make('grid', grid);
    await trading.engine.idle();
    await step('50000');
    expect((await call(who, 'GET', `/api/user/botOperation?id=${doomed}&action=stop`)).code).toBe(1);
    const gone = await call(who, 'GET', `/api/user/botOperation?id=${doomed}&action=delete`);
    expect(gone.code).toBe(1);
    who.deleted.push(doomed);
    const batch = await call(who, 'GET', `/api/user/botBatch?action=pause&ids=${who.bots[0]}`);
    expect(batch.code).toBe(1);
    who.taskId = batch.data.task_id;
    expect((await call(who, 'GET', `/api/user/botOperation?id=${who.bots[0]}&action=resume`)).code).not.toBe(Code.StrategyNotFound);
  }

  beforeAll(async () => {
    t = await openTestApp(kind, { trading: (db) => (trading = createTrading({ db, feed: market })) });
    market.set('BTC/USDT', '50000');
    await open(a);
    await open(b);
    // Both martin bots add at 49000 and take profit at 49900: a closed cycle each, in the bills and the rank.
    await step('49000');
    await step('49900');
    await step('51000');
  });
  afterAll(async () => {
    await trading.engine.stop();
    await t.close();
  });

  for (const [me, other, name] of [
    [a, b, 'A'],
    [b, a, 'B'],
  ] as const) {
    const live = () => me.bots.filter((id) => !me.deleted.includes(id));

    it(`lists only ${name}’s own bots, counts and positions`, async () => {
      for (const mode of ['', '&mode=simulation', '&mode=live']) {
        const list = await call(me, 'GET', `/api/user/botList?page=1&page_size=50${mode}`);
        expect(list.code).toBe(1);
        for (const bot of list.data.list) expect(live()).toContain(bot.id);
      }
      expect((await call(me, 'GET', '/api/user/botList?page=1&page_size=50')).data.total).toBe(live().length);
      expect((await call(me, 'GET', '/api/user/botCount')).data.total).toBe(live().length);
      const positions = await call(me, 'GET', '/api/user/positions?page=1&page_size=50');
      expect(positions.code).toBe(1);
      expect(positions.data.list.length).toBeGreaterThan(0);
      for (const p of positions.data.list) expect(live()).toContain(p.botId);
      expect(positions.data.total).toBe(positions.data.list.length);
    });

    it(`bills and rank of ${name} hold only ${name}’s cycles`, async () => {
      const logs = await call(me, 'GET', '/api/user/billLogs?page=1&page_size=50&mode=simulation');
      expect(logs.data.list.length).toBeGreaterThan(0);
      for (const l of logs.data.list) expect(me.bots).toContain(l.botId);
      const group = await call(me, 'GET', '/api/user/billGroup?mode=simulation');
      for (const g of group.data.byBot) expect(me.bots).toContain(g.botId);
      const mine = await t.db.selectFrom('bot_cycles').select(['profit']).where('user_id', '=', me.userId).execute();
      const total = mine.reduce((s, c) => s + Number(c.profit), 0);
      expect((await call(me, 'GET', '/api/user/bill?mode=simulation')).data.total).toBeCloseTo(total, 6);
      const rank = await call(me, 'GET', '/api/market/userRank?page=1&limit=50&mode=simulation&period=all');
      expect(rank.code).toBe(1);
      // The rank shows every trader, masked: never a login name.
      expect(JSON.stringify(rank.data)).not.toContain(other.account);
      expect(JSON.stringify(rank.data)).not.toContain(me.account);
    });

    it(`account logs, notices and bindings of ${name} are ${name}’s own`, async () => {
      const logs = await call(me, 'GET', '/api/user/accountLogs?page=1&page_size=50');
      const ownLogs = await t.db
        .selectFrom('account_logs')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('user_id', '=', me.userId)
        .executeTakeFirstOrThrow();
      expect(logs.data.total).toBe(Number(ownLogs.n));
      const notices = await call(me, 'GET', '/api/notice/list?page=1&page_size=50');
      const ownNotices = await t.db
        .selectFrom('notices')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('user_id', '=', me.userId)
        .executeTakeFirstOrThrow();
      expect(notices.data.total).toBe(Number(ownNotices.n));
      const keys = await call(me, 'GET', '/api/user/api');
      expect(keys.data).toHaveLength(1);
      const referrals = await call(me, 'GET', '/api/user/referrals?page=1&limit=50');
      expect(referrals.data.total).toBe(0);
    });

    it(`the all-bots log, PnL and portfolio of ${name} hold only ${name}’s bots and accounts`, async () => {
      const log = await call(me, 'GET', '/api/user/actions?page=1&page_size=100');
      expect(log.code).toBe(1);
      expect(log.data.list.length).toBeGreaterThan(0);
      for (const line of log.data.list) expect(me.bots).toContain(line.botId);
      const own = await t.db
        .selectFrom('bot_actions')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('bot_id', 'in', me.bots)
        .executeTakeFirstOrThrow();
      expect(log.data.total).toBe(Number(own.n));
      for (const kind of ['start', 'success', 'delete']) {
        for (const line of (await call(me, 'GET', `/api/user/actions?kind=${kind}&page_size=100`)).data.list) expect(me.bots).toContain(line.botId);
      }
      const pnl = await call(me, 'GET', '/api/user/pnl?mode=simulation');
      // Deleted bots included, as in the bill (docs/engine.md "Returns").
      const realized = await t.db.selectFrom('bots').select(['realized', 'params']).where('user_id', '=', me.userId).execute();
      expect(Number(pnl.data.realized)).toBeCloseTo(
        realized.reduce((s, b) => s + Number(b.realized), 0),
        8,
      );
      expect(Number(pnl.data.investment)).toBe(realized.reduce((s, b) => s + Number((b.params as { investment: string }).investment), 0));
      const portfolio = await call(me, 'GET', '/api/user/portfolio');
      expect(portfolio.data.accounts.map((a) => a.exchange)).toEqual(['paper']);
      const paper = await t.db.selectFrom('paper_balances').select(['currency', 'amount']).where('user_id', '=', me.userId).where('exchange_id', '=', 1).execute();
      const usdt = paper.find((p) => p.currency === 'USDT')!;
      // Available: the free USDT less what this trader's own running bots reserve, the asset answer's figure.
      const asset = (await call(me, 'GET', '/api/user/asset?exchange=paper')).data.balances.find((b) => b.currency === 'USDT')!;
      expect(asset.free).toBe(String(Number(usdt.amount)));
      expect(portfolio.data.accounts[0]!.available).toBe(asset.available);
      for (const coin of portfolio.data.accounts[0]!.coins) expect(paper.map((p) => p.currency)).toContain(coin.currency);
    });

    it(`refuses ${name} every call on the other trader’s bots and batch task`, async () => {
      for (const id of other.bots) {
        for (const url of [
          `/api/user/botInfo?id=${id}`,
          `/api/user/botDetail?id=${id}`,
          `/api/user/botPositions?id=${id}&page=1&page_size=10`,
          `/api/user/positionAdds?id=${id}`,
          `/api/user/botActions?id=${id}&page=1&page_size=10`,
          `/api/user/actions?bot=${id}`,
          `/api/user/pnl?id=${id}`,
        ]) {
          expect((await call(me, 'GET', url)).code, url).toBe(Code.StrategyNotFound);
        }
        for (const action of ['pause', 'stop', 'delete', 'add', 'close']) {
          expect((await call(me, 'GET', `/api/user/botOperation?id=${id}&action=${action}`)).code, action).toBe(Code.StrategyNotFound);
        }
        expect((await call(me, 'PUT', `/api/user/botUpdate?id=${id}`, { name: 'mine now' })).code).not.toBe(1);
      }
      const batch = await call(me, 'GET', `/api/user/botBatch?action=stop&ids=${other.bots.join(',')}`);
      if (batch.code === 1) {
        await new Promise((r) => setTimeout(r, 200));
        const status = await call(me, 'GET', `/api/user/botBatchStatus?task_id=${batch.data.task_id}`);
        for (const r of status.data.results) expect(r.ok).toBe(false);
      }
      expect((await call(me, 'GET', `/api/user/botBatchStatus?task_id=${other.taskId}`)).code).not.toBe(1);
      // Nothing the attempts did reached the other trader's bots.
      const theirs = await t.db.selectFrom('bots').select(['id', 'name', 'status']).where('user_id', '=', other.userId).where('deleted_at', 'is', null).execute();
      for (const bot of theirs) expect(bot.name).not.toBe('mine now');
    });
  }
});
