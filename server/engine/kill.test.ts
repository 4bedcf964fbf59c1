import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../db/connect.ts';
import { registerPayloadAt, type Answer, type DataAt } from '../testing/test-support.ts';
import { money } from '../../strategy/money.ts';
import type { StoredMartinState } from '../../strategy/martin/state-codec.ts';
import type { StoredGridState } from '../../strategy/grid/state-codec.ts';

/**
 * The crash test of the design: bots trade on the Paper exchange in a real server process, which
 * is killed with SIGKILL at random moments and started again. Afterwards the books must agree: every
 * order the exchange filled is recorded once by its bot, no order was sent twice, the balances equal
 * the sum of the fills, every bot's state equals its orders, and every bot is running again.
 */
const root = join(import.meta.dirname, '..', '..');
const dataDir = mkdtempSync(join(tmpdir(), 'quantbot-kill-'));
const KILLS = 5;

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

function startServer(port: number, extra: Record<string, string> = {}): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['server/main.ts'], {
    cwd: root,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, STATIC_DIR: '/nonexistent', LOG_LEVEL: 'error', ENGINE_TICK_MS: '50', MARKET_SPEED: '300', ...extra },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    // A start is ~2-5 s on a quiet machine; 30 s ran out at load 14 (CI's run beside helpers' tests).
    const timer = setTimeout(() => reject(new Error(`server did not start within 90 s${extra.ENGINE_TICK_MS ? ' (the last start, with no price round)' : ''}: ${out}`)), 90_000);
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('listening on')) {
        clearTimeout(timer);
        resolve(child);
      }
    });
    child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
    child.on('exit', (code) => reject(new Error(`server exited (${code}): ${out}`)));
  });
}

const exited = (child: ChildProcess) => new Promise<void>((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve() : child.once('exit', () => resolve())));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let db: Db | undefined;
afterAll(async () => {
  await db?.destroy();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('crash safety', () => {
  it(`loses and duplicates no order across ${KILLS} SIGKILLs while bots trade`, { timeout: 600_000 }, async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}/api`;
    let server = await startServer(port);
    const post = <P extends string>(path: P, body: object, token?: string) =>
      fetch(base + path, { method: 'POST', headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) }, body: JSON.stringify(body) }).then(
        (r) => r.json() as Promise<Answer<DataAt<'POST', `/api${P}`>>>,
      );
    const get = <P extends string>(path: P, token: string) => fetch(base + path, { headers: { authorization: `Bearer ${token}` } }).then((r) => r.json() as Promise<Answer<DataAt<'GET', `/api${P}`>>>);

    const reg = await post('/login/register', await registerPayloadAt(base.replace(/\/api$/, ''), { account: `kill${Date.now().toString(36)}` }));
    const token: string = reg.data.token;
    expect((await post('/exchanges/bind', { exchangeId: 1, apiKey: 'paperkey01', secretKey: 'papersecret01' }, token)).code).toBe(1);
    const symbols = ['BTC/USDT', 'ETH/USDT', 'BNB/USDT', 'SOL/USDT', 'XRP/USDT', 'DOGE/USDT'];
    const params = { investment: '400', firstOrder: '20', multiplier: '1.5', maxPositions: 5, addTrigger: '0.1', takeProfit: '0.1', repeat: true };
    const ids: string[] = [];
    for (const symbol of symbols) {
      const created = await post('/user/botCreate', { type: 'martin', exchangeId: 1, symbol, params }, token);
      expect(created.code).toBe(1);
      ids.push(created.data.id);
      expect((await get(`/user/botOperation?id=${created.data.id}&action=start`, token)).code).toBe(1);
    }
    // And a grid bot, tight around the price now so it trades its levels up and down between the kills.
    const ltc = Number((await get('/market/price?symbols=LTC%2FUSDT', token)).data[0]!.price);
    const grid = await post(
      '/user/botCreate',
      {
        type: 'grid',
        exchangeId: 1,
        symbol: 'LTC/USDT',
        params: { investment: '1000', lower: (ltc * 0.99).toFixed(2), upper: (ltc * 1.01).toFixed(2), grids: 6, spacing: 'arithmetic', stopLoss: '', takeProfit: '' },
      },
      token,
    );
    expect(grid.code).toBe(1);
    ids.push(grid.data.id);
    expect((await get(`/user/botOperation?id=${grid.data.id}&action=start`, token)).code).toBe(1);
    // And a DCA bot with close safety orders and a 2 s cooldown between deals (its books are checked as martin's: a deal's buys are its fills).
    const dcaParams = {
      investment: '400',
      baseOrder: '20',
      safetyOrder: '20',
      maxSafetyOrders: 5,
      deviation: '0.1',
      stepScale: '1.2',
      volumeScale: '1.5',
      takeProfit: '0.1',
      stopLoss: '',
      cooldown: 2,
      start: { kind: 'now' },
    };
    const dca = await post('/user/botCreate', { type: 'dca', exchangeId: 1, symbol: 'ETH/USDT', params: dcaParams }, token);
    expect(dca.code).toBe(1);
    ids.push(dca.data.id);
    expect((await get(`/user/botOperation?id=${dca.data.id}&action=start`, token)).code).toBe(1);
    // And a custom bot that buys above its 2-minute average and sells below it or at +0.1 % (its books are checked as
    // martin's: a position's buys are its fills); each start warms its average up from the market's history.
    const sma = { kind: 'sma', period: 2, timeframe: '1m' } as const;
    const customParams = {
      investment: '200',
      size: { kind: 'fixed', quote: '20' },
      entry: { join: 'and', conditions: [{ left: { kind: 'price' }, op: '>', right: sma }] },
      exit: { join: 'and', conditions: [{ left: { kind: 'price' }, op: '<', right: sma }] },
      takeProfit: '0.1',
      stopLoss: '',
      repeat: true,
    } as const;
    const custom = await post('/user/botCreate', { type: 'custom', exchangeId: 1, symbol: 'BNB/USDT', params: customParams }, token);
    expect(custom.code).toBe(1);
    ids.push(custom.data.id);
    expect((await get(`/user/botOperation?id=${custom.data.id}&action=start`, token)).code).toBe(1);

    let lastStart = Date.now();
    for (let k = 0; k < KILLS; k++) {
      await sleep(200 + Math.floor(Math.random() * 1200));
      server.kill('SIGKILL');
      await exited(server);
      lastStart = Date.now();
      server = await startServer(port);
    }
    await sleep(3000);
    server.kill('SIGTERM');
    await exited(server);
    // A grid's resting order Paper filled in the last round, before the bot looked it up, is booked by the
    // next start's reconciliation: one more start, with no price round (nothing new fills), books it.
    server = await startServer(port, { ENGINE_TICK_MS: '1000000000' });
    server.kill('SIGTERM');
    await exited(server);

    db = await openDatabase({ dataDir });
    const bots = await db.selectFrom('bots').selectAll().orderBy('id').execute();
    const orders = await db.selectFrom('bot_orders').selectAll().orderBy('bot_id').orderBy('cycle').orderBy('seq').execute();
    const venue = await db.selectFrom('paper_orders').selectAll().execute();
    const balances = await db.selectFrom('paper_balances').selectAll().execute();
    const cycles = await db.selectFrom('bot_cycles').selectAll().execute();

    // Every order the exchange knows is one a bot placed, recorded with the exchange's own figures.
    const byId = new Map(orders.map((o) => [o.client_order_id, o]));
    for (const v of venue) {
      const mine = byId.get(v.client_order_id);
      expect(mine, `exchange order ${v.client_order_id} unknown to its bot`).toBeDefined();
      if (v.status === 'closed') {
        expect(mine!.status, v.client_order_id).toBe('filled');
        expect(money(mine!.filled!).eq(v.filled) && money(mine!.price!).eq(v.price!), v.client_order_id).toBe(true);
      }
    }
    // Every filled order of a bot was filled by the exchange.
    const venueIds = new Set(venue.map((v) => v.client_order_id));
    for (const o of orders) if (o.status === 'filled') expect(venueIds.has(o.client_order_id), o.client_order_id).toBe(true);
    // After the last, graceful stop every order's outcome is known: orders left in flight by a kill were
    // looked up and settled on the next start, not forgotten.
    expect(orders.filter((o) => o.status === 'new' || o.status === 'submitted').map((o) => o.client_order_id)).toEqual([]);

    // Sequence numbers have no gaps: no order id was skipped or reused (martin counts per cycle, a grid per
    // bot). A grid's resting limit orders are numbered apart (their slot's count: resting-orders.ts).
    const grids = new Set(bots.filter((b) => b.type === 'grid').map((b) => String(b.id)));
    const seqs = new Map<string, number[]>();
    for (const o of [...orders].filter((x) => x.slot === null).sort((a, b) => a.seq - b.seq)) {
      const key = grids.has(String(o.bot_id)) ? `${o.bot_id}` : `${o.bot_id}-${o.cycle}`;
      seqs.set(key, [...(seqs.get(key) ?? []), o.seq]);
    }
    for (const [key, list] of seqs) {
      if (!grids.has(key)) {
        expect(list, key).toEqual(list.map((_, i) => i + 1));
        continue;
      }
      // A grid's resting fill is booked as its next decision (strategy/grid/resting.ts gridInFlight takes
      // a sequence number for it), so its market orders may skip one number per resting fill, never more,
      // and never use one twice.
      expect(new Set(list).size, key).toBe(list.length);
      const restingFills = orders.filter((o) => String(o.bot_id) === key && o.slot !== null && o.status === 'filled').length;
      expect((list.at(-1) ?? 0) - list.length, `${key}: numbers skipped past its ${restingFills} resting fills`).toBeLessThanOrEqual(restingFills);
    }

    // The balances are exactly the start plus every fill, each counted once.
    const expected = new Map<string, ReturnType<typeof money>>([['USDT', money(10000)]]);
    const add = (c: string, d: ReturnType<typeof money>) => expected.set(c, (expected.get(c) ?? money(0)).plus(d));
    for (const v of venue.filter((x) => x.status === 'closed')) {
      const [base, quote] = v.symbol.split('/') as [string, string];
      if (v.side === 'buy') {
        add(quote, money(v.cost).neg());
        add(base, money(v.filled).minus(v.fee!));
      } else {
        add(base, money(v.filled).neg());
        add(quote, money(v.cost).minus(v.fee!));
      }
    }
    for (const b of balances) expect(money(b.amount).toFixed(), b.currency).toBe((expected.get(b.currency) ?? money(0)).toFixed());

    // Each bot's state is its orders: the open cycle's fills are its filled buys; realised = its closed cycles.
    for (const bot of bots) {
      if (bot.type === 'grid') {
        // A grid's books: what it holds to sell is what its filled buys brought less what its sells took.
        const mine = orders.filter((o) => o.bot_id === bot.id && o.status === 'filled');
        const held = (bot.state as StoredGridState).orders.filter((o) => o?.side === 'sell').reduce((sum, o) => sum.plus(o!.amount), money(0));
        const bought = mine.filter((o) => o.side === 'buy').reduce((sum, o) => sum.plus(money(o.filled!).minus(o.fee ?? '0')), money(0));
        const sold = mine.filter((o) => o.side === 'sell').reduce((sum, o) => sum.plus(o.filled!), money(0));
        expect(held.lte(bought.minus(sold)), `grid ${bot.id} holds more than it bought`).toBe(true);
        expect(bought.minus(sold).minus(held).lt(money('0.01')), `grid ${bot.id} lost track of its base`).toBe(true);
        // Realised = its booked cycles, to the 15th decimal: a grid's start buy is shared out over its sell
        // levels (a third each for 3), so its cycles' profits are repeating decimals rounded at decimal.js's
        // precision, and a sum taken in another order can differ in the 18th decimal (seen once:
        // 2.771388636666666667 vs ...666). The chaos test's books check allows the same.
        const booked = cycles.filter((c) => c.bot_id === bot.id).reduce((sum, c) => sum.plus(c.profit), money(0));
        expect(money(bot.realized).minus(booked).abs().lte(money('1e-15')), `grid ${bot.id} realised ${bot.realized}, booked ${booked.toFixed()}`).toBe(true);
        expect(bot.status).toBe('running');
        continue;
      }
      const state = bot.state as StoredMartinState;
      const buys = orders.filter((o) => o.bot_id === bot.id && o.cycle === state.cycle && o.side === 'buy' && o.status === 'filled');
      expect(state.fills.map((f) => [money(f.price).toFixed(), money(f.amount).toFixed()])).toEqual(buys.map((o) => [money(o.price!).toFixed(), money(o.filled!).toFixed()]));
      const profit = cycles.filter((c) => c.bot_id === bot.id).reduce((s, c) => s.plus(c.profit), money(0));
      expect(money(bot.realized).toFixed()).toBe(profit.toFixed());
      expect(bot.status).toBe('running');
    }

    // The bots traded, and kept trading after the last restart.
    const filled = orders.filter((o) => o.status === 'filled');
    expect(filled.length).toBeGreaterThan(ids.length * 3);
    expect(cycles.length).toBeGreaterThan(0);
    expect(orders.filter((o) => grids.has(String(o.bot_id)) && o.status === 'filled').length, 'the grid traded').toBeGreaterThan(0);
    expect(filled.filter((o) => new Date(o.updated_at).getTime() > lastStart).length).toBeGreaterThan(0);
    const gridFills = orders.filter((o) => grids.has(String(o.bot_id)) && o.status === 'filled').length;
    const dcaFills = orders.filter((o) => String(o.bot_id) === String(dca.data.id) && o.status === 'filled').length;
    expect(dcaFills, 'the DCA bot traded').toBeGreaterThan(0);
    const customFills = orders.filter((o) => String(o.bot_id) === String(custom.data.id) && o.status === 'filled').length;
    expect(customFills, 'the custom bot traded').toBeGreaterThan(0);
    console.log(
      `kill test: ${KILLS} kills, ${filled.length} fills (${gridFills} by the grid, ${dcaFills} by the DCA bot, ${customFills} by the custom bot), ${cycles.length} cycles closed, ${venue.length} exchange orders`,
    );
  });
});
