import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Code } from '../../contract/codes.ts';
import type { AnswerOf } from '../../contract/calls.ts';
import { ScriptedMarket } from '../testing/scripted.ts';
import { dbKinds, openTestApp, type Answer, type DataAt, type TestApp, registerPayload } from '../testing/test-support.ts';
import { createTrading, type Trading } from '../trading.ts';
import { money, toPlain } from '../../strategy/money.ts';
import { sizeClose } from '../../strategy/core/position.ts';
import type { MarketRules } from '../../strategy/core/market.ts';

/** The market rules a bot's detail carries for its close estimate. */
const marketRules = (c: NonNullable<AnswerOf<'userBotDetail'>['close']>): MarketRules => ({
  tickSize: money(c.tickSize),
  stepSize: money(c.stepSize),
  minAmount: money(c.minAmount),
  minCost: money(c.minCost),
  feeRate: money(c.feeRate),
});

const params = { investment: '1000', firstOrder: '100', multiplier: '2', maxPositions: 3, addTrigger: '2', takeProfit: '1', repeat: true };

describe.each(dbKinds)('bots on the engine with the Paper exchange (%s)', (kind) => {
  let t: TestApp;
  let trading: Trading;
  const market = new ScriptedMarket();
  /** The trader the calls are made as: each test has its own (a new one with Paper bound, `trader()`). */
  let auth: Record<string, string>;

  const register = async () => {
    const r = await t.app.inject({ method: 'POST', url: '/api/login/register', payload: await registerPayload(t.app) });
    return { authorization: `Bearer ${r.json().data.token}` };
  };
  const call = <M extends 'GET' | 'POST' | 'PUT', U extends string>(method: M, url: U, payload?: object, headers = auth, lang = 'en') =>
    t.app.inject({ method, url, ...(payload ? { payload } : {}), headers: { ...headers, lang } }).then((r) => r.json() as Answer<DataAt<M, U>>);
  const create = (body: object = {}, headers = auth) => call('POST', '/api/user/botCreate', { type: 'martin', exchangeId: 1, symbol: 'BTC/USDT', params, ...body }, headers);
  const op = (id: string, action: string, headers = auth) => call('GET', `/api/user/botOperation?id=${id}&action=${action}`, undefined, headers);
  /** A new trader with Paper bound, the one the calls are made as from now on. */
  const newTrader = async () => {
    auth = await register();
    expect((await call('POST', '/api/exchanges/bind', { exchangeId: 1, apiKey: 'paperkey01', secretKey: 'papersecret01' })).code).toBe(1);
  };
  /** One engine round at `price`, then everything it set off. */
  const step = async (price: string) => {
    market.set('BTC/USDT', price);
    await trading.engine.tick();
    await trading.engine.idle();
  };

  beforeAll(async () => {
    t = await openTestApp(kind, { trading: (db) => (trading = createTrading({ db, feed: market })) });
    market.set('BTC/USDT', '50000');
  });
  afterAll(async () => {
    await trading.engine.stop();
    await t.close();
  });

  it('refuses a bot on an exchange that is not bound, and bad parameters with the field named', async () => {
    auth = await register();
    expect((await create()).code).toBe(Code.ApiNotBound);
    const bind = await call('POST', '/api/exchanges/bind', { exchangeId: 1, apiKey: 'paperkey01', secretKey: 'papersecret01' });
    expect(bind.code).toBe(1);
    const cases: [object, number, RegExp][] = [
      [{ params: { ...params, investment: '299' } }, Code.StrategyInvalidInvestment, /cover the first order/],
      [{ params: { ...params, maxPositions: 0 } }, Code.StrategyInvalidMaxPositions, /max positions/],
      [{ params: { ...params, multiplier: '11' } }, Code.StrategyInvalidMultiplier, /multiplier/],
      [{ params: { ...params, firstOrder: '1', investment: '1000' } }, Code.StrategyOrderBelowMinimum, /minimum/],
      [{ params: { ...params, takeProfit: undefined } }, Code.RequiredFieldMissing, /^A required field is missing: take profit$/],
      [{ params: { ...params, takeProfit: '' } }, Code.ValidationError, /^Validation failed: take profit$/],
      [{ params: { ...params, addTrigger: '1e2' } }, Code.ValidationError, /^Validation failed: add trigger$/],
      [{ symbol: 'NOPE/USDT' }, Code.OrderInvalidPair, /pair/i],
      [{ leverage: 10 }, Code.ValidationError, /^Validation failed: unknown field leverage$/],
    ];
    for (const [body, code, msg] of cases) {
      const r = await create(body);
      expect([r.code, r.msg]).toEqual([code, expect.stringMatching(msg)]);
    }
    const zh = await call('POST', '/api/user/botCreate', { type: 'martin', exchangeId: 1, symbol: 'BTC/USDT', params: { ...params, investment: '299' } }, auth, 'zh');
    expect(zh.msg).toBe('投资金额无效：需覆盖首单和每次补仓');
    expect((await call('GET', '/api/user/botList')).data.total).toBe(0);
  });

  it('names an unnamed bot by its pair and type in the language of the request (never "Martin" in the zh UI)', async () => {
    await newTrader();
    const grid = { investment: '1000', lower: '45000', upper: '55000', grids: 4, spacing: 'arithmetic', stopLoss: '', takeProfit: '' };
    const zh = await call('POST', '/api/user/botCreate', { type: 'martin', exchangeId: 1, symbol: 'BTC/USDT', params }, auth, 'zh');
    const en = await call('POST', '/api/user/botCreate', { type: 'martin', exchangeId: 1, symbol: 'BTC/USDT', params }, auth, 'en');
    const gridZh = await call('POST', '/api/user/botCreate', { type: 'grid', exchangeId: 1, symbol: 'BTC/USDT', params: grid }, auth, 'zh');
    const gridEn = await call('POST', '/api/user/botCreate', { type: 'grid', exchangeId: 1, symbol: 'BTC/USDT', params: grid }, auth, 'en');
    const named = await call('POST', '/api/user/botCreate', { type: 'martin', exchangeId: 1, symbol: 'BTC/USDT', name: 'Mine', params }, auth, 'zh');
    expect([zh, en, gridZh, gridEn, named].map((r) => r.data.name)).toEqual(['BTC/USDT 马丁格尔', 'BTC/USDT Martingale', 'BTC/USDT 网格', 'BTC/USDT Grid', 'Mine']);
  });

  it('runs a martin cycle: first order at start, an add at the trigger, take profit with fees, and the next cycle', async () => {
    await newTrader();
    const created = await create({ name: 'Cycle' });
    expect(created.code).toBe(1);
    expect(created.data).toMatchObject({ status: 'stopped', positions: 0, name: 'Cycle', params: { ...params, stopLoss: '' } });
    const id: string = created.data.id;

    market.set('BTC/USDT', '50000');
    const started = await op(id, 'start');
    expect(started.data).toMatchObject({ status: 'running', positions: 1, invested: '100', averagePrice: '50000' });

    await step('49500'); // above the add trigger (49000): nothing
    expect((await call('GET', `/api/user/botInfo?id=${id}`)).data.positions).toBe(1);
    await step('49000'); // 2% below the fill: add 200 USDT -> 0.00408 BTC
    const detail = await call('GET', `/api/user/botDetail?id=${id}`);
    expect(detail.data).toMatchObject({
      positions: 2,
      invested: '299.92',
      fills: [
        { price: '50000', amount: '0.002' },
        { price: '49000', amount: '0.00408' },
      ],
      takeProfitPrice: '49822.24',
      nextAddPrice: '48020',
      amount: '0.00607',
      price: '49000',
    });

    await step('49822.23'); // a cent under take profit
    expect((await call('GET', `/api/user/botInfo?id=${id}`)).data.cycle).toBe(1);
    // The round's price 49900 is past the take profit: sold at 49822.24, where the order waited,
    // 0.00607 of 0.00607392 BTC held (0.1% fee in USDT): 0.00607 x 49822.24 x 0.999 = 302.1185757968, less the
    // 299.92 spent: 2.1985758032 (the books are in the quote; the 0.00000392 BTC left stays the bot's).
    await step('49900');
    const info = await call('GET', `/api/user/botInfo?id=${id}`);
    expect(info.data).toMatchObject({ cycle: 2, positions: 0, profit: '2.1985758032', todayProfit: '2.1985758032' });
    const bill = await call('GET', '/api/user/bill');
    // Flat after the take profit: nothing floating, the total is the realised profit.
    expect(bill.data).toEqual({ today: 2.1985758, total: 2.1985758, unrealized: 0, totalPnl: 2.1985758, unpriced: 0 });

    await step('49950'); // repeat: the next cycle opens on the next price
    const positions = await call('GET', `/api/user/botPositions?id=${id}`);
    expect(positions.data.total).toBe(2);
    expect(positions.data.list.map((p) => [p.cycle, p.status, p.profit])).toEqual([
      [2, 'open', null],
      [1, 'closed', '2.1985758032'],
    ]);
    expect(positions.data.list[1]).toMatchObject({ entries: 2, amount: '0.00608', cost: '299.92', closePrice: '49822.24' });

    const adds = await call('GET', `/api/user/positionAdds?id=${id}&cycle=1`);
    expect(adds.data.map((o) => [o.seq, o.reason, o.status, o.price, o.amount])).toEqual([
      [1, 'open', 'filled', '50000', '0.002'],
      [2, 'add', 'filled', '49000', '0.00408'],
      [3, 'close', 'filled', '49822.24', '0.00607'],
    ]);
    expect(adds.data[2]).toMatchObject({ fee: '0.3024209968', feeCurrency: 'USDT', clientOrderId: `${id}-1-3` });

    const actions = await call('GET', `/api/user/botActions?id=${id}&page_size=20`);
    expect(actions.data.list.map((a) => a.kind).reverse()).toEqual(['create', 'start', 'open', 'add', 'close', 'success', 'open']);
    expect(actions.data.list.find((a) => a.kind === 'success')!.detail).toEqual({ cycle: '1', profit: '2.1985758032', how: 'take_profit' });

    const logs = await call('GET', '/api/user/billLogs');
    expect(logs.data).toMatchObject({ total: 1, list: [{ botId: id, botName: 'Cycle', symbol: 'BTC/USDT', cycle: 1, profit: '2.1985758032' }] });
    const group = await call('GET', '/api/user/billGroup');
    expect(group.data.byDay).toHaveLength(30);
    expect(group.data.byDay.at(-1)!.profit).toBe('2.1985758032');
    expect(group.data.byBot).toEqual([{ botId: id, botName: 'Cycle', symbol: 'BTC/USDT', profit: '2.1985758032' }]);
    expect(group.data.bySymbol).toEqual([{ symbol: 'BTC/USDT', profit: '2.1985758032' }]);

    const open = await call('GET', '/api/user/positions');
    expect(open.data.list).toEqual([expect.objectContaining({ botId: id, entries: 1, price: '49950' })]);
    expect((await op(id, 'stop')).data!.status).toBe('stopped');
  });

  it('follows the lifecycle of docs/product.md §4 and refuses each wrong move with its message', async () => {
    await newTrader();
    const id: string = (await create()).data.id;
    expect((await op(id, 'stop')).code).toBe(Code.StrategyAlreadyStopped);
    expect((await op(id, 'resume')).code).toBe(Code.StrategyAlreadyStopped);
    expect((await op(id, 'add')).code).toBe(Code.StrategyStoppedNoAdd);
    expect((await op(id, 'start')).data!.status).toBe('running');
    const again = await op(id, 'start');
    expect([again.code, again.msg]).toEqual([Code.StrategyAlreadyRunning, 'Strategy already running']);
    const edit = await call('PUT', `/api/user/botUpdate?id=${id}`, { params: { ...params, takeProfit: '2' } });
    expect([edit.code, edit.msg]).toEqual([Code.StrategyRunningNoEdit, 'A running strategy cannot be edited']);
    expect((await op(id, 'delete')).code).toBe(Code.StrategyRunningNoDelete);
    expect((await op(id, 'pause')).data!.status).toBe('paused');
    expect((await op(id, 'pause')).code).toBe(Code.StrategyAlreadyPaused);

    const edited = await call('PUT', `/api/user/botUpdate?id=${id}`, { name: 'Edited', params: { ...params, takeProfit: '2' } });
    expect(edited.data).toMatchObject({ name: 'Edited', params: { takeProfit: '2' }, status: 'paused' });
    // A paused bot does not trade: a price at its add trigger changes nothing.
    await step('40000');
    expect((await call('GET', `/api/user/botInfo?id=${id}`)).data.positions).toBe(1);
    expect((await op(id, 'resume')).data!.status).toBe('running');
    expect((await op(id, 'stop')).data!.status).toBe('stopped');
    expect((await op(id, 'delete')).data).toBeNull();
    expect((await call('GET', `/api/user/botInfo?id=${id}`)).code).toBe(Code.StrategyNotFound);
    const kinds = (await call('GET', `/api/user/botActions?id=${id}&page_size=50`)).data.list.map((a) => a.kind).reverse();
    expect(kinds).toEqual(['create', 'start', 'open', 'pause', 'update', 'resume', 'add', 'stop', 'delete']);
    market.set('BTC/USDT', '50000');
  });

  it('adds and closes by hand, and says why when it cannot', async () => {
    await newTrader();
    market.set('BTC/USDT', '50000');
    const id: string = (await create()).data.id;
    expect((await op(id, 'close')).code).toBe(Code.StrategyNoPosition);
    await op(id, 'start');
    market.set('BTC/USDT', '49800');
    expect((await op(id, 'add')).data!.positions).toBe(2);
    expect((await op(id, 'add')).data!.positions).toBe(3);
    const full = await op(id, 'add');
    expect([full.code, full.msg]).toEqual([Code.StrategyMaxPositionsReached, 'The maximum number of positions has been reached']);
    const closed = await op(id, 'close');
    expect(closed.data).toMatchObject({ positions: 0, cycle: 2 });
    const kinds = (await call('GET', `/api/user/botActions?id=${id}&page_size=50`)).data.list.map((a) => a.kind).reverse();
    expect(kinds).toEqual(['create', 'start', 'open', 'manual', 'manual_add', 'manual', 'manual_add', 'manual', 'manual_close', 'success']);
    // The end of the cycle says it was a manual close, not a take profit.
    const end = (await call('GET', `/api/user/botActions?id=${id}`)).data.list.find((a) => a.kind === 'success');
    expect(end!.detail).toMatchObject({ cycle: '1', how: 'manual_close' });
    await op(id, 'stop');
  });

  it('adds the amount the trader chose, and stops either keeping the coins or selling them first (Pionex)', async () => {
    await newTrader();
    market.set('BTC/USDT', '50000');
    const id: string = (await create()).data.id;
    await op(id, 'start');
    await trading.engine.idle();
    const add = (amount: string) => call('GET', `/api/user/botOperation?id=${id}&action=add&amount=${amount}`);
    // Below the market's minimum order, more than the account holds, or on another action: refused, nothing placed.
    expect((await add('1')).code).toBe(Code.StrategyOrderBelowMinimum);
    expect((await add('20000')).code).toBe(Code.StrategyInsufficientBalance);
    expect((await call('GET', `/api/user/botOperation?id=${id}&action=pause&amount=50`)).code).toBe(Code.ValidationError);
    const added = await add('250');
    expect(added.data).toMatchObject({ positions: 2 });
    const adds = await call('GET', `/api/user/positionAdds?id=${id}&cycle=1`);
    expect(adds.data.map((o) => [o.reason, o.amount])).toEqual([
      ['open', '0.002'],
      ['manual_add', '0.005'], // 250 USDT at 50,000
    ]);
    // Stop and sell: the position is sold at market as a manual close, then the bot stops with nothing held.
    market.set('BTC/USDT', '50100');
    const stopped = await call('GET', `/api/user/botOperation?id=${id}&action=stop&sell=1`);
    expect(stopped.data).toMatchObject({ status: 'stopped', positions: 0, cycle: 2 });
    const kinds = (await call('GET', `/api/user/botActions?id=${id}&page_size=50`)).data.list.map((a) => a.kind);
    expect(kinds.slice(0, 3)).toEqual(['stop', 'success', 'manual_close']);
    // Stop and keep (the default): the coins stay, the position shows on the stopped bot.
    const kept: string = (await create()).data.id;
    await op(kept, 'start');
    await trading.engine.idle();
    expect((await op(kept, 'stop')).data).toMatchObject({ status: 'stopped', positions: 1 });
  });

  it('books on a manual close at a loss exactly what the confirmation estimated, fees and lot-size dust included', async () => {
    await newTrader();
    market.set('BTC/USDT', '50000');
    const id: string = (await create()).data.id;
    await op(id, 'start');
    await trading.engine.idle();
    market.set('BTC/USDT', '49800');
    expect((await op(id, 'add')).data!.positions).toBe(2);
    market.set('BTC/USDT', '49123.45');
    // What the close confirmation shows (bot-action-page: "sell {amount} at market, PnL at the current price about {unrealized}").
    const detail = (await call('GET', `/api/user/botDetail?id=${id}`)).data;
    const held = detail.fills.reduce((sum, f) => sum + Number(f.amount), 0);
    expect(Number(detail.amount)).toBeLessThan(held); // the buy fees, taken in BTC, and the lot size leave dust
    expect(Number(detail.unrealized)).toBeLessThan(0);
    // The old estimate, (price - average) x amount held, left out the fees and the dust: it was off.
    const naive = (49123.45 - Number(detail.averagePrice)) * held;
    expect(Math.abs(naive - Number(detail.unrealized))).toBeGreaterThan(0.1);
    expect((await op(id, 'close')).data).toMatchObject({ positions: 0, cycle: 2 });
    const booked = (await call('GET', `/api/user/botPositions?id=${id}`)).data.list.find((p) => p.cycle === 1)!;
    expect(booked).toMatchObject({ status: 'closed', closePrice: '49123.45' });
    // The confirmation's estimate (a sale of what the step allows, less all the cycle spent) is what is booked;
    // the floating PnL values the coin the step leaves too, so it is a little higher.
    const estimate = sizeClose(
      detail.fills.map((f) => ({ price: money(f.price), amount: money(f.amount) })),
      marketRules(detail.close!),
      { amount: money(detail.close!.carry), cost: money(detail.close!.carryCost) },
      money('49123.45'),
      { percent: money('100') },
    );
    expect(estimate.ok && toPlain(estimate.close.profit)).toBe(booked.profit);
    expect(Number(detail.unrealized)).toBeGreaterThan(Number(booked.profit));
    await op(id, 'stop');
  });

  it('closes part of a position by hand: 50 % sells half, books that half’s profit, and the bot runs on at the same average', async () => {
    await newTrader();
    market.set('BTC/USDT', '50000');
    const id: string = (await create()).data.id;
    await op(id, 'start');
    await trading.engine.idle();
    const close = (query: string, headers = auth, lang = 'en') => call('GET', `/api/user/botOperation?id=${id}&action=close&${query}`, undefined, headers, lang);
    const paper = async () => (await call('GET', '/api/user/asset?exchange=paper')).data.balances.find((b) => b.currency === 'BTC')?.total;
    // 100 USDT at 50,000: 0.002 BTC, 0.001998 after the fee, 0.00199 to sell.
    const before = (await call('GET', `/api/user/botDetail?id=${id}`)).data;
    expect([before.amount, before.averagePrice, before.takeProfitPrice]).toEqual(['0.00199', '50000', '50500']);
    expect(await paper()).toBe('0.001998');
    market.set('BTC/USDT', '51000');
    const kinds = async () => (await call('GET', `/api/user/botActions?id=${id}&page_size=50`)).data.list.map((a) => a.kind);
    const logged = await kinds();

    // Refused with what is wrong, nothing sent: 0 and 101 %, no number, more than held, a sale or a rest below the market's minimum.
    const refusals: [string, number, string][] = [
      ['share=0', Code.StrategyCloseShareInvalid, 'The share to close must be a number from 1 to 100 (%)'],
      ['share=101', Code.StrategyCloseShareInvalid, 'The share to close must be a number from 1 to 100 (%)'],
      ['share=half', Code.StrategyCloseShareInvalid, 'The share to close must be a number from 1 to 100 (%)'],
      ['baseAmount=0.002', Code.StrategyCloseAboveHeld, 'More than the position: at most 0.00199 BTC can be sold'],
      ['share=1', Code.StrategyOrderBelowMinimum, 'Each order must be at least the market minimum size'],
      ['share=99', Code.StrategyCloseRestBelowMinimum, 'The 0.00002 BTC left would be below the market’s minimum order and could not be sold on its own: sell less, or close all'],
      ['share=50&baseAmount=0.001', Code.ValidationError, 'Validation failed: amount to sell'],
    ];
    for (const [query, code, msg] of refusals) expect([query, (await close(query)).code, (await close(query)).msg]).toEqual([query, code, msg]);
    expect((await close('share=99', auth, 'zh')).msg).toBe('剩余持仓 0.00002 BTC 将低于市场最小下单量，之后无法单独卖出：请少卖一些，或全部平仓');
    expect((await close('share=0', auth, 'zh')).msg).toBe('平仓比例须为 1 到 100 之间的数（%）');
    expect((await call('GET', `/api/user/botOperation?id=${id}&action=add&share=50`)).code).toBe(Code.ValidationError);
    // Only the owner: another trader's call finds no such bot and changes nothing.
    const stranger = await register();
    expect((await close('share=50', stranger)).code).toBe(Code.StrategyNotFound);
    expect(await kinds()).toEqual(logged);
    expect(await paper()).toBe('0.001998');

    // 50 %: 0.000995 rounded down to 0.00099 sold at 51,000 for 50.43951 USDT, against its share of the
    // cost 100 x 0.00099 / 0.001998 = 49.54954955: 0.88996045 realised, as the confirmation estimates it.
    const estimate = sizeClose(
      before.fills.map((f) => ({ price: money(f.price), amount: money(f.amount) })),
      marketRules(before.close!),
      { amount: money(before.close!.carry), cost: money(before.close!.carryCost) },
      money('51000'),
      { percent: money('50') },
    );
    expect(estimate.ok && [toPlain(estimate.amount), toPlain(estimate.close.profit)]).toEqual(['0.00099', '0.88996045']);
    const half = await close('share=50');
    expect(half.data).toMatchObject({ status: 'running', positions: 1, cycle: 1, profit: '0.88996045', pending: false });
    const after = (await call('GET', `/api/user/botDetail?id=${id}`)).data;
    // The rest: 0.001008 held, 0.001 to sell; the average and so the take profit unchanged.
    expect([after.amount, after.averagePrice, after.takeProfitPrice, after.nextAddPrice]).toEqual(['0.001', '50000', '50500', before.nextAddPrice]);
    expect(await paper()).toBe('0.001008');
    const [sale, manual] = (await call('GET', `/api/user/botActions?id=${id}&page_size=2`)).data.list;
    expect(sale).toMatchObject({ kind: 'manual_close', detail: { reason: 'manual_close', share: '50', amount: '0.00099', price: '51000', profit: '0.88996045', order: `${id}-1-2` } });
    expect(manual).toMatchObject({ kind: 'manual', detail: { command: 'close', share: '50' } });
    // No cycle closed yet: the open cycle goes on, nothing in the bill.
    expect((await call('GET', `/api/user/botPositions?id=${id}`)).data.list.map((p) => p.status)).toEqual(['open']);
    // The rest closes at its take profit; the cycle's profit counts the half sold before: 0.88996045 - 0.00095045,
    // the quote received (50.43951 + 50.4495) less the 100 spent; 0.000008 BTC stays the bot's.
    await step('50500');
    const cycle = (await call('GET', `/api/user/botPositions?id=${id}`)).data.list.find((p) => p.cycle === 1)!;
    expect(cycle).toMatchObject({ status: 'closed', profit: '0.88901' });
    expect((await call('GET', `/api/user/botInfo?id=${id}`)).data.profit).toBe('0.88901');
    await op(id, 'stop');
    market.set('BTC/USDT', '50000');
  });

  it('closes 100 % as the full close always did, and refuses a part on a grid bot (its coins sit on its sell levels)', async () => {
    await newTrader();
    market.set('BTC/USDT', '50000');
    const id: string = (await create()).data.id;
    await op(id, 'start');
    await trading.engine.idle();
    expect((await call('GET', `/api/user/botOperation?id=${id}&action=close&share=100`)).data).toMatchObject({ positions: 0, cycle: 2 });
    const kinds = (await call('GET', `/api/user/botActions?id=${id}&page_size=4`)).data.list;
    expect(kinds.map((a) => a.kind)).toEqual(['success', 'manual_close', 'manual', 'open']);
    expect(kinds[1]!.detail.share).toBeUndefined();
    await op(id, 'stop');
    const grid = await create({ type: 'grid', params: { investment: '1000', lower: '45000', upper: '55000', grids: 4, spacing: 'arithmetic', stopLoss: '', takeProfit: '' } });
    const refused = await call('GET', `/api/user/botOperation?id=${grid.data.id}&action=close&share=50`);
    expect([refused.code, refused.msg]).toEqual([Code.StrategyPartCloseGrid, 'A grid bot cannot close part of its position: its coins sit on its sell levels']);
  });

  it('refuses to start a bot the account cannot fund in its worst case, saying how much is free', async () => {
    await newTrader();
    market.set('BTC/USDT', '50000');
    // 5,000 + 10,000 + 20,000 = 35,000 USDT at most, on a Paper account of 10,000.
    const big = await create({ params: { ...params, investment: '35000', firstOrder: '5000', multiplier: '2', maxPositions: 3 } });
    expect(big.code).toBe(1);
    const refused = await op(big.data.id, 'start');
    expect(refused.code).toBe(Code.StrategyInsufficientBalance);
    expect(refused.msg).toMatch(/^The account has [\d.]+ USDT free, less than the 35000 USDT this bot can need/);
    const zh = await call('GET', `/api/user/botOperation?id=${big.data.id}&action=start`, undefined, auth, 'zh');
    expect(zh.msg).toMatch(/^账户可用 [\d.]+ USDT，不足以支付该策略最多需要的 35000 USDT/);
    expect((await call('GET', `/api/user/botInfo?id=${big.data.id}`)).data.status).toBe('stopped');
    expect((await call('GET', `/api/user/botActions?id=${big.data.id}`)).data.list.map((a) => a.kind)).toEqual(['create']);
    await op(big.data.id, 'delete');
  });

  it('pauses a bot whose order the exchange refuses, with the reason logged', async () => {
    // 3 x 3000 USDT at multiplier 1 is funded at its start (10,000 USDT on Paper) and its adds are
    // reserved: another bot of the trader cannot take 4000 of them. The trader then spends the money by
    // hand on the exchange, and the third order outruns what is left.
    const poor = await register();
    await call('POST', '/api/exchanges/bind', { exchangeId: 1, apiKey: 'paperkey02', secretKey: 'papersecret02' }, poor);
    market.set('BTC/USDT', '50000');
    const id: string = (await create({ params: { ...params, investment: '9000', firstOrder: '3000', multiplier: '1', maxPositions: 3 } }, poor)).data.id;
    expect((await op(id, 'start', poor)).code).toBe(1);
    await trading.engine.idle();
    const other: string = (await create({ params: { ...params, investment: '4000', firstOrder: '4000', multiplier: '1', maxPositions: 1 } }, poor)).data.id;
    expect((await op(other, 'start', poor)).code).toBe(Code.StrategyCapitalReserved);
    const { user_id: poorId } = await t.db.selectFrom('bots').select('user_id').where('id', '=', id).executeTakeFirstOrThrow();
    await t.db.updateTable('paper_balances').set({ amount: '4000' }).where('user_id', '=', poorId).where('currency', '=', 'USDT').execute();
    await step('49000');
    await step('48020');
    const info = await call('GET', `/api/user/botInfo?id=${id}`, undefined, poor);
    expect(info.data).toMatchObject({ status: 'paused', positions: 2, error: 'insufficient balance', pending: false });
    const kinds = (await call('GET', `/api/user/botActions?id=${id}`, undefined, poor)).data.list.map((a) => a.kind);
    expect(kinds.slice(0, 2)).toEqual(['pause', 'failed']);
  });

  it('runs batch operations as a task with per-bot results, and keeps users apart', async () => {
    await newTrader();
    const other = await register();
    const a: string = (await create()).data.id;
    const b: string = (await create()).data.id;
    const theirs = await call('GET', `/api/user/botInfo?id=${a}`, undefined, other);
    expect(theirs.code).toBe(Code.StrategyNotFound);
    expect((await op(a, 'start', other)).code).toBe(Code.StrategyNotFound);

    // The list is cached between changes, and a change shows at once.
    const before = await call('GET', '/api/user/botList?page_size=2');
    expect(before.data.list.map((x) => [x.id, x.status])).toEqual([
      [b, 'stopped'],
      [a, 'stopped'],
    ]);
    expect(await call('GET', '/api/user/botList?page_size=2')).toEqual(before);
    const batch = await call('GET', `/api/user/botBatch?action=start&ids=${a},${b},999999`);
    expect(batch.data.task_id).toMatch(/^[0-9a-f-]{36}$/);
    let status: Answer<AnswerOf<'userBotBatchStatus'>>;
    do status = await call('GET', `/api/user/botBatchStatus?task_id=${batch.data.task_id}`);
    while (status.data.status !== 'done');
    expect(status.data).toMatchObject({ action: 'start', total: 3, done: 3 });
    expect(status.data.results).toEqual([
      { id: a, ok: true, code: 1, msg: expect.any(String) },
      { id: b, ok: true, code: 1, msg: expect.any(String) },
      { id: '999999', ok: false, code: Code.StrategyNotFound, msg: 'Strategy not found' },
    ]);
    expect((await call('GET', `/api/user/botBatchStatus?task_id=${batch.data.task_id}`, undefined, other)).code).toBe(Code.BatchTaskNotFound);

    const after = await call('GET', '/api/user/botList?page_size=2');
    expect(after.data.list.map((x) => [x.id, x.status])).toEqual([
      [b, 'running'],
      [a, 'running'],
    ]);
    const counts = await call('GET', '/api/user/botCount?exchange=paper');
    expect(counts.data.running).toBeGreaterThanOrEqual(2);
    const running = await call('GET', '/api/user/botList?status=running&page_size=1');
    expect(running.data).toMatchObject({ page: 1, page_size: 1, total: counts.data.running });
    expect(running.data.list).toHaveLength(1);

    const stop = await call('GET', `/api/user/botBatch?action=stop&ids=${a},${b}`);
    do status = await call('GET', `/api/user/botBatchStatus?task_id=${stop.data.task_id}`);
    while (status.data.status !== 'done');
    const del = await call('GET', `/api/user/botBatch?action=delete&ids=${a},${b}`);
    do status = await call('GET', `/api/user/botBatchStatus?task_id=${del.data.task_id}`);
    while (status.data.status !== 'done');
    expect(status.data.results.every((r) => r.ok)).toBe(true);
    expect((await call('GET', `/api/user/botInfo?id=${a}`)).code).toBe(Code.StrategyNotFound);
    expect((await call('GET', '/api/user/botBatch?action=start&ids=1,x')).code).toBe(Code.ValidationError);
    expect((await call('GET', '/api/user/botOperation?id=1&action=explode')).code).toBe(Code.ValidationError);
  });
});
