import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Code } from '../../contract/codes.ts';
import { ScriptedMarket } from '../testing/scripted.ts';
import { dbKinds, openTestApp, registerPayload, type TestApp } from '../testing/test-support.ts';
import { openTestStream, type ReadFrame } from '../testing/stream-client.ts';
import { createTrading, type Trading } from '../trading.ts';
import { inTransaction, later } from './outbox.ts';
import { resolveSession } from '../services/sessions.ts';

const params = { investment: '1000', firstOrder: '100', multiplier: '2', maxPositions: 3, addTrigger: '2', takeProfit: '1', repeat: true };
const ids = (frames: ReadFrame[]) => frames.flatMap((f) => (f.type === 'event' ? [f.id] : []));

describe.each(dbKinds)('the live stream (%s)', (kind) => {
  let t: TestApp;
  let trading: Trading;
  let base: string;
  const lines: string[] = [];
  const market = new ScriptedMarket();

  const register = async () => {
    const r = await t.app.inject({ method: 'POST', url: '/api/login/register', payload: await registerPayload(t.app) });
    const token = r.json().data.token as string;
    return { token, auth: { authorization: `Bearer ${token}`, lang: 'en' }, userId: (await resolveSession(t.db, token)).userId };
  };
  const call = (method: 'GET' | 'POST', url: string, auth: Record<string, string>, payload?: object) =>
    t.app.inject({ method, url, headers: auth, ...(payload ? { payload } : {}) }).then((r) => r.json() as { code: number; msg: string; data: never });
  const step = async (price: string) => {
    market.set('BTC/USDT', price);
    await trading.engine.tick();
    await trading.engine.idle();
  };

  beforeAll(async () => {
    t = await openTestApp(kind, { trading: (db) => (trading = createTrading({ db, feed: market })), logStream: { write: (line) => void lines.push(line) } });
    market.set('BTC/USDT', '50000');
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await trading.engine.stop();
    await t.close();
  });

  it("sends a trader's bot events the moment they commit, numbered 1, 2, 3..., and never another trader's", async () => {
    const a = await register();
    const b = await register();
    const streamA = await openTestStream(base, a.token);
    const streamB = await openTestStream(base, b.token);
    expect(streamA.contentType).toMatch(/^text\/event-stream/);
    await streamA.until((f) => f.some((x) => x.type === 'ready'));
    await streamB.until((f) => f.some((x) => x.type === 'ready'));
    expect((await call('POST', '/api/exchanges/bind', a.auth, { exchangeId: 1, apiKey: 'paperkey01', secretKey: 'papersecret01' })).code).toBe(1);
    const created = await call('POST', '/api/user/botCreate', a.auth, { type: 'martin', exchangeId: 1, symbol: 'BTC/USDT', params });
    const bot = String((created.data as { id: string }).id);
    expect((await call('GET', `/api/user/botOperation?id=${bot}&action=start`, a.auth)).code).toBe(1);
    await step('50000');
    await streamA.until((f) => f.some((x) => x.type === 'event' && x.event.kind === 'order' && x.event.status === 'filled'));
    const events = streamA.events();
    expect(events.find((e) => e.kind === 'bot')).toMatchObject({ kind: 'bot', bot, status: 'running' });
    expect(events.find((e) => e.kind === 'order' && e.status === 'placed')).toMatchObject({ bot, side: 'buy', reason: 'open' });
    expect(events.find((e) => e.kind === 'order' && e.status === 'filled')).toMatchObject({ bot, side: 'buy', symbol: 'BTC/USDT' });
    // The numbers are the trader's own, on from the one `ready` gave (the welcome fuel was one), with no gap.
    const from = Number(streamA.frames[0]!.id);
    expect(streamA.frames[0]!.type).toBe('ready');
    expect(ids(streamA.frames)).toEqual(events.map((_, i) => String(from + i + 1)));
    // B heard nothing of A's bot; B's own event reaches B alone.
    const bId = b.userId;
    await inTransaction(t.db, (tx) => later(tx, bId, { kind: 'balance', asset: 'fuel' }));
    await streamB.until((f) => f.some((x) => x.type === 'event'));
    expect(streamB.events()).toEqual([expect.objectContaining({ kind: 'balance', asset: 'fuel', id: String(Number(streamB.frames[0]!.id) + 1) })]);
    expect(streamA.events().some((e) => e.kind === 'balance')).toBe(false);
    streamA.close();
    streamB.close();
  });

  it('replays what a reconnect missed from its Last-Event-ID, once each; past the window or the head, a reset', async () => {
    const a = await register();
    const userId = a.userId;
    const first = await openTestStream(base, a.token);
    await first.until((f) => f.some((x) => x.type === 'ready'));
    // Numbers from the head at the start (the welcome fuel was an event already).
    const h = Number(first.frames[0]!.id);
    const n = (k: number) => String(h + k);
    for (const asset of ['usdt', 'fuel']) await inTransaction(t.db, (tx) => later(tx, userId, { kind: 'balance', asset }));
    await first.until((f) => ids(f).length === 2);
    first.close();
    // Missed while away: three events in one transaction and one more.
    await inTransaction(t.db, (tx) => later(tx, userId, { kind: 'balance', asset: 'points' }, { kind: 'balance', asset: 'rewards' }, { kind: 'notice', notice: '1', level: 'notice', code: 'x' }));
    await inTransaction(t.db, (tx) => later(tx, userId, { kind: 'bot', bot: '7', status: 'paused', reason: 'fuel' }));
    const again = await openTestStream(base, a.token, n(2));
    await again.until((f) => f.some((x) => x.type === 'ready'));
    expect(ids(again.frames)).toEqual([n(3), n(4), n(5), n(6)]);
    expect(again.frames.at(-1)).toEqual({ type: 'ready', id: n(6) });
    // One more while connected: sent once, after the replay.
    await inTransaction(t.db, (tx) => later(tx, userId, { kind: 'balance', asset: 'usdt' }));
    await again.until((f) => ids(f).includes(n(7)));
    expect(ids(again.frames)).toEqual([n(3), n(4), n(5), n(6), n(7)]);
    again.close();
    // An id beyond the head (another database, another user) cannot be resumed.
    const ahead = await openTestStream(base, a.token, '99');
    await ahead.until((f) => f.length > 0);
    expect(ahead.frames[0]).toEqual({ type: 'reset', id: n(7) });
    ahead.close();
    // Events older than the replay window are not replayed: a reset, resuming from the head.
    await t.db
      .updateTable('user_events')
      .set({ created_at: new Date(Date.now() - 25 * 3_600_000) })
      .where('user_id', '=', userId)
      .where('seq', '<=', n(4))
      .execute();
    const old = await openTestStream(base, a.token, n(2));
    await old.until((f) => f.length >= 2);
    expect(old.frames.slice(0, 2)).toEqual([
      { type: 'reset', id: n(7) },
      { type: 'ready', id: n(7) },
    ]);
    old.close();
  });

  it('refuses a stream without a session or with a Last-Event-ID that is no event number, in the envelope', async () => {
    const a = await register();
    const none = await openTestStream(base, '');
    expect(none.refusal?.code).toBe(Code.NotLoggedIn);
    const bad = await openTestStream(base, a.token, 'abc');
    expect(bad.refusal?.code).toBe(Code.ValidationError);
    expect(bad.refusal?.msg).toContain('Last-Event-ID');
    const huge = await openTestStream(base, a.token, '1'.repeat(40));
    expect(huge.refusal?.code).toBe(Code.ValidationError);
  });

  it('ends the stream within 0.5 s of a logout, and never writes the token into the log', async () => {
    const a = await register();
    const before = t.app.streams.count();
    const s = await openTestStream(base, a.token);
    await s.until((f) => f.some((x) => x.type === 'ready'));
    let endedAt = 0;
    void s.ended.then(() => (endedAt = performance.now()));
    const started = performance.now();
    expect((await call('POST', '/api/login/logout', a.auth, {})).code).toBe(1);
    await Promise.race([s.ended, new Promise((r) => setTimeout(r, 2000))]);
    expect(endedAt).toBeGreaterThan(0);
    expect(endedAt - started).toBeLessThan(500);
    expect(t.app.streams.count()).toBe(before);
    expect(lines.join('\n')).not.toContain(a.token);
    expect(lines.some((l) => l.includes('/api/stream'))).toBe(true);
  });
});
