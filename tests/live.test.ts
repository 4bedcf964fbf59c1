import { afterEach, describe, expect, inject, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import './support/live-log.ts';
import { openPhone, type Phone } from './support/browser.ts';
import { callAs, register, storeSession, type Registered } from './support/session.ts';

const baseURL = inject('baseURL');
// Far from the price: no add or take profit while a test watches the screen.
const martin = { investment: '1000', firstOrder: '20', multiplier: '2', maxPositions: 4, addTrigger: '10', takeProfit: '10', stopLoss: '', repeat: true };

/** A trader with a bound Paper account and a running martin bot. */
async function traderWithBot(): Promise<{ user: Registered; bot: string }> {
  const user = await register(baseURL);
  expect((await callAs(baseURL, user, 'POST', '/api/exchanges/bind', { exchangeId: 1, apiKey: 'paperKey12345678', secretKey: 'paperSecret12345678' })).code).toBe(1);
  const bot = (await callAs(baseURL, user, 'POST', '/api/user/botCreate', { type: 'martin', exchangeId: 1, symbol: 'BTC/USDT', params: martin })).data.id as string;
  expect((await callAs(baseURL, user, 'GET', `/api/user/botOperation?id=${bot}&action=start`)).code).toBe(1);
  return { user, bot };
}

const operate = async (user: Registered, bot: string, action: 'pause' | 'resume') => expect((await callAs(baseURL, user, 'GET', `/api/user/botOperation?id=${bot}&action=${action}`)).code).toBe(1);

/** Every tab records what its live stream does (src/shared/live/live.ts reads this flag). */
const recordLive = (context: BrowserContext) => context.addInitScript(() => (window.__liveLog = []));
const liveLog = (page: Page) => page.evaluate(() => window.__liveLog ?? []);
/** The tab's live state as it last heard it (its own stream's, or relayed). */
const liveState = async (page: Page) => (await liveLog(page)).filter((e) => e.t === 'state').at(-1)?.state;

async function streamsOpen(): Promise<number> {
  const text = await (await fetch(`${baseURL}/metrics`)).text();
  return Number(/^quantbot_streams_open(?:\{[^}]*\})? (\d+)/m.exec(text)?.[1] ?? 'NaN');
}

describe('live updates', () => {
  let phone: Phone | undefined;
  afterEach(async () => {
    await phone?.close();
    phone = undefined;
    // The server notices the closed streams: the next test counts from zero.
    await expect.poll(streamsOpen).toBe(0);
  });

  it("updates a bot's screen from the stream, and stops polling while the stream is up", async () => {
    const { user, bot } = await traderWithBot();
    phone = await openPhone(baseURL);
    const { page, context } = phone;
    await recordLive(context);
    await storeSession(page, user);
    const detailRequests: number[] = [];
    page.on('request', (r) => r.url().includes('/api/user/botDetail') && detailRequests.push(Date.now()));
    await page.goto(`/strategy/detail/${bot}`);
    await page.getByTestId('op-pause').waitFor();
    await expect.poll(() => liveState(page)).toBe('up');
    // Settled: with the stream up nothing polls the bot (a running bot's detail is asked for every 3 s otherwise).
    await page.waitForTimeout(1500);
    const before = detailRequests.length;
    const changedAt = Date.now();
    await operate(user, bot, 'pause');
    await page.getByTestId('op-resume').waitFor({ timeout: 10_000 });
    const shownAt = Date.now();
    // The event's invalidation fetched the detail once (twice at most, if a render asked too): no timer.
    const refetches = detailRequests.length - before;
    expect(refetches).toBeGreaterThanOrEqual(1);
    expect(refetches).toBeLessThanOrEqual(2);
    expect(shownAt - changedAt).toBeLessThan(5_000);
    // Nothing changes for 8 s: no request at all (polling would have made two or three).
    const quietFrom = detailRequests.length;
    await page.waitForTimeout(8_000);
    expect(detailRequests.length - quietFrom).toBe(0);
    const applied = (await liveLog(page)).filter((e) => e.t === 'event' && e.applied);
    expect(applied.some((e) => e.kind === 'bot')).toBe(true);
  });

  it('holds one stream for seven tabs, relays to each, and hands it over when its tab closes', async () => {
    const { user, bot } = await traderWithBot();
    phone = await openPhone(baseURL);
    const { context } = phone;
    await recordLive(context);
    await storeSession(phone.page, user);
    const pages = [phone.page];
    for (let i = 1; i < 7; i++) pages.push(await context.newPage());
    await Promise.all(pages.map((p) => p.goto(`/strategy/detail/${bot}`)));
    await Promise.all(pages.map((p) => p.getByTestId('op-pause').waitFor()));
    for (const p of pages) await expect.poll(() => liveState(p)).toBe('up');
    expect(await streamsOpen()).toBe(1);
    const leaders = async () => {
      const led = await Promise.all(pages.map(async (p) => (p.isClosed() ? false : (await liveLog(p)).some((e) => e.t === 'lead'))));
      return pages.filter((_, i) => led[i]);
    };
    expect(await leaders()).toHaveLength(1);

    await operate(user, bot, 'pause');
    await Promise.all(pages.map((p) => p.getByTestId('op-resume').waitFor({ timeout: 15_000 })));

    const first = (await leaders())[0]!;
    await first.close();
    const rest = pages.filter((p) => p !== first);
    const handedAt = Date.now();
    await expect.poll(async () => (await leaders()).length, { timeout: 10_000 }).toBe(1);
    const next = (await leaders())[0]!;
    await expect.poll(async () => (await liveLog(next)).filter((e) => e.t === 'ready' && e.via === 'stream').length).toBeGreaterThan(0);
    expect(Date.now() - handedAt).toBeLessThan(10_000);
    await expect.poll(streamsOpen).toBe(1);

    await operate(user, bot, 'resume');
    await Promise.all(rest.map((p) => p.getByTestId('op-pause').waitFor({ timeout: 15_000 })));
  });

  it('resumes after a dropped connection with what happened meanwhile, each event once', async () => {
    const { user, bot } = await traderWithBot();
    // No service worker: the test holds the page's reconnect at the network (page routes do not see a worker's fetches).
    phone = await openPhone(baseURL, { serviceWorkers: 'block' });
    const { page, context } = phone;
    await recordLive(context);
    await storeSession(page, user);
    await page.goto(`/strategy/detail/${bot}`);
    await page.getByTestId('op-pause').waitFor();
    await expect.poll(() => liveState(page)).toBe('up');

    // The page's reconnects wait at the network until released.
    let release: () => void = () => undefined;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    await context.route('**/api/stream', async (route) => {
      await gate;
      await route.continue();
    });
    // The server keeps ten streams a user: ten more from elsewhere close the page's (a real drop, from the server's side).
    const elsewhere = Array.from({ length: 10 }, () => new AbortController());
    for (const c of elsewhere) await fetch(`${baseURL}/api/stream`, { headers: { authorization: `Bearer ${user.token}` }, signal: c.signal });
    await expect.poll(async () => (await liveLog(page)).some((e) => e.t === 'end' && e.kind === 'closed')).toBe(true);
    await page.getByTestId('live-banner').waitFor();
    expect(await page.getByTestId('live-banner').innerText()).toBe('实时连接中断 · 每隔几秒刷新');

    // Where the page stood: its last ready or applied event.
    const standing = (await liveLog(page)).filter((e) => e.t === 'ready' || (e.t === 'event' && e.applied)).reduce((max, e) => (BigInt(e.id!) > max ? BigInt(e.id!) : max), 0n);
    await operate(user, bot, 'pause');
    await operate(user, bot, 'resume');
    for (const c of elsewhere) c.abort();
    release();
    await context.unroute('**/api/stream');

    await expect.poll(() => liveState(page)).toBe('up');
    await page.getByTestId('live-banner').waitFor({ state: 'detached' });
    const log = await liveLog(page);
    const reopened = log.findLastIndex((e) => e.t === 'open');
    expect(log[reopened]!.last).toBe(String(standing));
    // Replayed before the ready: the pause and the resume, in order, each applied once.
    const replay = log.slice(
      reopened + 1,
      log.findIndex((e, i) => i > reopened && e.t === 'ready'),
    );
    expect(replay.filter((e) => e.t === 'event' && e.kind === 'bot' && e.applied)).toHaveLength(2);
    const applied = log.filter((e) => e.t === 'event' && e.applied).map((e) => e.id);
    expect(new Set(applied).size).toBe(applied.length);
    await page.getByTestId('op-pause').waitFor();
  });
});
