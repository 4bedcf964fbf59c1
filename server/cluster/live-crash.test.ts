import { afterAll, describe, expect, it } from 'vitest';
import { exchangeClientId, LiveExchange, ourClientOrderId } from '../exchanges/live.ts';
import { fakeBinanceClient } from '../testing/fake-binance/client.ts';
import { FakeBinance } from '../testing/fake-binance/server.ts';
import { clusterDatabase, clusterEnv, freePort, ServerProcess } from '../testing/process-support.ts';
import { PG_URL, registerPayloadAt } from '../testing/test-support.ts';
import { openDatabase, type Db } from '../db/connect.ts';
import { BALANCE_TOLERANCE } from '../engine/reconciliation.ts';
import { kitOf } from '../../strategy/kit.ts';
import { money } from '../../strategy/money.ts';
import type { StoredMartinState } from '../../strategy/martin/state-codec.ts';
import type { ClientOrderId } from '../../strategy/types.ts';

/**
 * The crash test on the live path: two server processes on one PostgreSQL database trade martin bots on
 * the fake Binance through the real ccxt client, and are killed with SIGKILL at each of the engine's
 * crash points (server/engine/crash-points.ts) in turn: an order recorded but not sent, an order sent
 * whose answer was not recorded, a lost answer's fill found by a lookup and not recorded, and a cancel of
 * an orphan order on its way. The other process takes the bots over; the dead one starts again. Then:
 * no client order id reached the exchange twice, no order of ours is left open on it, and every order the
 * exchange filled is in the books once, with the exchange's figures (and the books' coin is on the account).
 */
const TTL_MS = 2000;
const POINTS = ['recorded', 'sent', 'found', 'cancel'] as const;
const SYMBOLS = ['BTC/USDT', 'ETH/USDT', 'SOL/USDT'];
const START: Record<string, number> = { 'BTC/USDT': 65000, 'ETH/USDT': 3000, 'SOL/USDT': 150 };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** A start that failed because the process killed itself at its crash point is no failure. */
const killedAtPoint = (s: ServerProcess) => (error: unknown) => {
  if (s.child?.signalCode !== 'SIGKILL') throw error;
};

let fake: FakeBinance | undefined;
let drop: (() => Promise<void>) | undefined;
let db: Db | undefined;
const servers: ServerProcess[] = [];
afterAll(async () => {
  for (const s of servers) await s.signal('SIGKILL');
  await db?.destroy();
  await drop?.();
  await fake?.close();
});

describe('the live path across crashes at every point of an order, two processes', () => {
  it('sends no client order id twice, leaves no orphan, and books every fill once', { timeout: 420_000 }, async () => {
    fake = await FakeBinance.start({ balances: { USDT: '100000' } });
    const database = await clusterDatabase(PG_URL, 'livecrash');
    drop = database.drop;
    const env = clusterEnv(database.url, TTL_MS, { EXCHANGE_URLS: `binance=${fake.url}`, RECONCILE_EVERY_MS: '2000' });
    servers.push(new ServerProcess(await freePort(), env), new ServerProcess(await freePort(), env));
    await Promise.all(servers.map((s) => s.start()));

    const base = `http://127.0.0.1:${servers[0]!.port}`;
    const registered = await (
      await fetch(`${base}/api/login/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(await registerPayloadAt(base)) })
    ).json();
    const token = registered.data.token as string;
    // Any live process answers the trader: the one asked is the first that is up.
    const call = async (method: 'GET' | 'POST', path: string, body?: object) => {
      const up = servers.find((s) => s.alive()) ?? servers[0]!;
      const r = await fetch(`http://127.0.0.1:${up.port}/api${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
      return (await r.json()) as { code: number; msg: string; data: Record<string, unknown> };
    };
    expect((await call('POST', '/exchanges/bind', { exchangeId: 2, apiKey: fake.apiKey, secretKey: fake.secret })).code).toBe(1);
    const ids: string[] = [];
    // Two bots a pair, their triggers apart: the orders of a round go out together, but not all of them.
    for (const [k, symbol] of [...SYMBOLS, ...SYMBOLS].entries()) {
      const step = k < SYMBOLS.length ? '0.3' : '0.5';
      const params = { investment: '1000', firstOrder: '50', multiplier: '1.5', maxPositions: 5, addTrigger: step, takeProfit: step, stopLoss: '', repeat: true };
      const created = await call('POST', '/user/botCreate', { type: 'martin', exchangeId: 2, symbol, params });
      expect(created.code, created.msg).toBe(1);
      ids.push(String(created.data.id));
      expect((await call('GET', `/user/botOperation?id=${String(created.data.id)}&action=start`)).code).toBe(1);
    }

    // The market swings 1.5 % either way every few seconds: the bots open, add and take profit all along.
    let swinging = true;
    const swing = (async () => {
      for (let t = 0; swinging; t++) {
        for (const symbol of SYMBOLS) fake!.setPrice(symbol, (START[symbol]! * (1 + 0.015 * Math.sin(t / 6 + SYMBOLS.indexOf(symbol)))).toFixed(2));
        await sleep(250);
      }
    })();
    const orders = () => fake!.book.orders.length;
    await expect.poll(orders, { timeout: 60_000 }).toBeGreaterThan(ids.length);

    // Our client order ids carry this installation's salt: a ghost order under it, unknown to the books.
    const salt = fake.book.orders[0]!.clientOrderId.slice(2, 8);
    const venue = new LiveExchange(fakeBinanceClient(fake), { salt });

    const killed: Record<string, number> = {};
    for (const point of POINTS) {
      // Both processes armed with the point (a SIGTERM hands the living one's bots over at once).
      for (const s of servers) await s.signal('SIGTERM');
      // A process may pass the point while it starts (its first round sends an order): that is the kill.
      await Promise.all(servers.map((s) => s.start({ TEST_CRASH_AT: `${point}:1` }).catch(killedAtPoint(s))));
      const faults: number[] = [];
      if (point === 'found') faults.push(fake.faults.add({ kind: 'timeoutAfterAccept', mode: 'drop', forMs: 30_000 }));
      if (point === 'cancel') {
        // The cancel waits a second at the exchange: the process dies while it is there.
        faults.push(fake.faults.add({ kind: 'latency', ms: 1000, match: { method: 'DELETE', path: '/api/v3/order' }, forMs: 60_000 }));
        const ghost = `${ids[0]}-900-1` as ClientOrderId;
        expect(ourClientOrderId('binance', exchangeClientId('binance', ghost, salt), salt)).toBe(ghost);
        const placed = await venue.placeLimitOrder({ clientOrderId: ghost, symbol: 'BTC/USDT', side: 'buy', price: money(30000), amount: money('0.001'), timeInForce: 'GTC' });
        expect(placed.status).toBe('open');
      }
      const began = Date.now();
      while (servers.every((s) => s.alive()) && Date.now() - began < 60_000) await sleep(100);
      expect(
        servers.some((s) => s.child?.signalCode === 'SIGKILL'),
        `no process passed the crash point "${point}" within 60 s: ${servers.map((s) => s.out.slice(-1000)).join(' | ')}`,
      ).toBe(true);
      killed[point] = servers.filter((s) => s.child?.signalCode === 'SIGKILL').length;
      for (const id of faults) fake.faults.remove(id);
      // The survivor takes the dead one's bots over (after the TTL) and trades on for a while.
      await sleep(TTL_MS + 4000);
    }

    // Every process up again, unarmed; the market swings a little longer, then stands still and settles.
    for (const s of servers) await s.signal('SIGTERM');
    await Promise.all(servers.map((s) => s.start()));
    const before = orders();
    await expect.poll(orders, { timeout: 60_000 }).toBeGreaterThan(before);
    swinging = false;
    await swing;
    // Long enough for an order a kill left marked sent, never on the wire, to be sent again: its receive
    // window (10 s) and the clocks' margin passed, then three lookups and the targeted query.
    await sleep(TTL_MS + 18_000);
    for (const s of servers) await s.signal('SIGTERM');

    db = await openDatabase({ url: database.url });
    const records = await db.selectFrom('bot_orders').selectAll().execute();
    const byId = new Map(records.map((o) => [o.client_order_id, o]));
    const ours = fake.book.orders.map((o) => ({ o, id: ourClientOrderId('binance', o.clientOrderId, salt) }));

    // No client order id reached the exchange twice: every order request carried a new one.
    const sent = new Map<string, number>();
    for (const r of fake.requests) if (r.method === 'POST' && r.path === '/api/v3/order') sent.set(r.params.newClientOrderId!, (sent.get(r.params.newClientOrderId!) ?? 0) + 1);
    expect([...sent].filter(([, n]) => n > 1)).toEqual([]);
    // No order of ours left open on the exchange: the ghost was cancelled, nothing else rests.
    expect(fake.book.orders.filter((o) => o.status === 'NEW' || o.status === 'PARTIALLY_FILLED').map((o) => o.clientOrderId)).toEqual([]);
    // Every order the exchange filled is a bot's, recorded filled with the exchange's amount; every
    // order a bot recorded filled, the exchange filled; none is left in flight.
    const problems: string[] = [];
    for (const { o, id } of ours) {
      if (o.status !== 'FILLED') continue;
      const row = id ? byId.get(id) : undefined;
      if (!row) problems.push(`${o.clientOrderId}: filled on the exchange, unknown to the books`);
      else if (row.status !== 'filled' || !money(row.filled ?? '0').eq(o.executedQty.toString()))
        problems.push(`${id}: ${row.status} ${row.filled} in the books, filled ${o.executedQty} on the exchange`);
    }
    expect(new Set(fake.book.orders.map((o) => o.clientOrderId)).size, 'client order ids the exchange accepted twice').toBe(fake.book.orders.length);
    const filledThere = new Set(ours.filter(({ o }) => o.status === 'FILLED').map(({ id }) => id));
    for (const row of records) {
      if (row.status === 'filled' && !filledThere.has(row.client_order_id as ClientOrderId)) problems.push(`${row.client_order_id}: filled in the books only`);
      if (row.status === 'new' || row.status === 'submitted') problems.push(`${row.client_order_id}: still ${row.status}`);
    }
    expect(problems).toEqual([]);
    // Each bot's open cycle is its filled buys, and every bot runs; the coin its books hold is on the account.
    const bots = await db.selectFrom('bots').selectAll().where('id', 'in', ids).execute();
    const held = new Map<string, ReturnType<typeof money>>();
    // A kill lands while other bots' orders are on their way out of the process (marked sent, not yet on
    // the wire): not found once their receive window has passed, they are sent again under their ids,
    // and no bot pauses for a lost order.
    const unreached = await db.selectFrom('bot_order_steps').select('client_order_id').where('from_phase', '=', 'submitted').where('to_phase', '=', 'new').execute();
    expect(records.filter((o) => o.status === 'lost').map((o) => o.client_order_id)).toEqual([]);
    for (const bot of bots) {
      expect([bot.id, bot.status, bot.error]).toEqual([bot.id, 'running', null]);
      const state = bot.state as StoredMartinState;
      const buys = records.filter((o) => o.bot_id === bot.id && o.cycle === state.cycle && o.side === 'buy' && o.status === 'filled');
      expect(state.fills.map((f) => money(f.amount).toFixed()).sort()).toEqual(buys.map((o) => money(o.filled!).toFixed()).sort());
      const coin = bot.symbol.split('/')[0]!;
      held.set(coin, (held.get(coin) ?? money(0)).plus(kitOf('martin').held(bot.params, bot.state).amount));
    }
    for (const [coin, amount] of held) {
      const balance = fake.book.balances.get(coin);
      const there = money(balance ? balance.free.plus(balance.locked).toString() : '0');
      // Within the reconciliation's tolerance: the books count a buy's coin before the fee Binance takes in it.
      expect(there.gte(amount.mul(money(1).minus(BALANCE_TOLERANCE))), `${coin}: the books hold ${amount}, the account ${there}`).toBe(true);
    }
    const filled = records.filter((o) => o.status === 'filled').length;
    console.log(
      `live crash test: kills ${JSON.stringify(killed)}, ${fake.book.orders.length} exchange orders, ${filled} fills booked, ${unreached.length} sent again (never reached it), ${fake.requests.length} requests`,
    );
    expect(filled).toBeGreaterThan(ids.length * 2);
  });
});
