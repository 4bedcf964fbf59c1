import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExchangeHealth } from '../market/exchange-health.ts';
import { LiveFeed, type PublicCcxt } from '../market/live-feed.ts';
import { resolveSession } from '../services/sessions.ts';
import { insertBot, setBotStatus } from '../store/bot-rows.ts';
import { dbKinds, openTestApp, registerPayload, type TestApp } from '../testing/test-support.ts';
import { announceExchangeState } from './exchange-status.ts';

/** ccxt's class names are what tells an outage from an answer. */
class NetworkError extends Error {}
class BadSymbol extends Error {}

describe('an exchange out of reach', () => {
  it('is down after 30 s and 3 failures in a row, up at its first answer; an unknown pair is no outage', () => {
    let now = 0;
    const changes: string[] = [];
    const health = new ExchangeHealth({ now: () => now, onChange: (ex, state) => changes.push(`${ex} ${state}`) });
    health.failed('binance', false);
    health.failed('binance', true);
    now = 29_000;
    health.failed('binance', true);
    health.failed('binance', true);
    expect(changes).toEqual([]); // 29 s: not yet
    now = 30_000;
    health.failed('binance', true);
    health.failed('binance', true);
    expect(changes).toEqual(['binance down']);
    health.ok('binance');
    health.ok('binance');
    expect(changes).toEqual(['binance down', 'binance up']);
    // One failure, then an answer: nothing to tell.
    health.failed('okx', true);
    health.ok('okx');
    expect(changes).toHaveLength(2);
  });

  it('is seen by the live feed: its ticker failures and answers drive the health', async () => {
    let fail = true;
    const ccxt = { fetchTicker: async () => (fail ? Promise.reject(new NetworkError('ETIMEDOUT')) : { last: 50_000, percentage: 1 }) } as unknown as PublicCcxt;
    let now = 0;
    const changes: string[] = [];
    const health = new ExchangeHealth({ now: () => now, downAfterMs: 1000, onChange: (ex, state) => changes.push(`${ex} ${state}`) });
    const feed = new LiveFeed(async () => ccxt, { ttlMs: 0, health: { ok: (ex) => health.ok(ex), failed: (ex, e) => health.failed(ex, !(e instanceof BadSymbol)) } });
    for (let i = 0; i < 4; i++) {
      now += 500;
      await expect(feed.ticker('binance', 'BTC/USDT')).rejects.toThrow('ETIMEDOUT');
    }
    expect(changes).toEqual(['binance down']);
    fail = false;
    expect((await feed.ticker('binance', 'BTC/USDT')).price.toFixed()).toBe('50000');
    expect(changes).toEqual(['binance down', 'binance up']);
  });
});

describe.each(dbKinds)('an exchange down or back, told to its traders (%s)', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await openTestApp(kind);
  });
  afterAll(async () => {
    await t.close();
  });

  const trader = async () => {
    const r = await t.app.inject({ method: 'POST', url: '/api/login/register', payload: await registerPayload(t.app) });
    const token = r.json().data.token as string;
    return (await resolveSession(t.db, token)).userId;
  };
  const exchangeEvents = async (userId: string) =>
    (await t.db.selectFrom('user_events').select(['kind', 'data']).where('user_id', '=', userId).where('kind', '=', 'exchange').orderBy('seq').execute()).map((r) => r.data);

  it('tells each trader with a bot there once, however many processes saw it, and nobody else', async () => {
    const withBot = await trader();
    const stopped = await trader();
    const elsewhere = await trader();
    const bot = await insertBot(t.db, { userId: withBot, exchangeId: 2, symbol: 'BTC/USDT', type: 'martin', name: 'x', params: {}, state: {} });
    await setBotStatus(t.db, { id: bot, status: 'running' });
    await insertBot(t.db, { userId: stopped, exchangeId: 2, symbol: 'BTC/USDT', type: 'martin', name: 'y', params: {}, state: {} });
    const other = await insertBot(t.db, { userId: elsewhere, exchangeId: 3, symbol: 'BTC/USDT', type: 'martin', name: 'z', params: {}, state: {} });
    await setBotStatus(t.db, { id: other, status: 'running' });
    // A first answer after none is no recovery.
    expect(await announceExchangeState(t.db, 'binance', 'up')).toBe(false);
    // Two processes see it down at once: one tells.
    const told = await Promise.all([announceExchangeState(t.db, 'binance', 'down'), announceExchangeState(t.db, 'binance', 'down')]);
    expect(told.filter(Boolean)).toHaveLength(1);
    expect(await announceExchangeState(t.db, 'binance', 'up')).toBe(true);
    expect(await announceExchangeState(t.db, 'binance', 'up')).toBe(false);
    expect(await exchangeEvents(withBot)).toEqual([
      { exchange: 'binance', state: 'down' },
      { exchange: 'binance', state: 'up' },
    ]);
    expect(await exchangeEvents(stopped)).toEqual([]);
    expect(await exchangeEvents(elsewhere)).toEqual([]);
    // Each change is in the notices too, once: the outage as a warning.
    const notices = async (userId: string) =>
      (await t.db.selectFrom('notices').select(['kind', 'code', 'detail']).where('user_id', '=', userId).where('code', 'like', 'exchange_%').orderBy('id').execute()).map((n) => ({
        ...n,
        detail: typeof n.detail === 'string' ? JSON.parse(n.detail) : n.detail,
      }));
    expect(await notices(withBot)).toEqual([
      { kind: 'warning', code: 'exchange_down', detail: { exchange: 'binance', name: 'Binance' } },
      { kind: 'notice', code: 'exchange_up', detail: { exchange: 'binance', name: 'Binance' } },
    ]);
    expect(await notices(stopped)).toEqual([]);
    expect(await notices(elsewhere)).toEqual([]);
  });
});
