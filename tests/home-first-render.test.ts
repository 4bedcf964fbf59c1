import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Page, Request } from 'playwright-core';
import type { Phone } from './support/browser.ts';
import { callAs, loggedInPhone } from './support/session.ts';

const baseURL = inject('baseURL');

/**
 * Home renders once, with its figures (its route's loader asks for them beside its code),
 * instead of dashes first and then cards growing one by one as each answer came: the cards moved under
 * the trader's finger (Lighthouse measured a layout shift of 0.09-0.13 on home).
 */
describe('home on a first visit', () => {
  let phone: Phone;
  let page: Page;
  beforeAll(async () => {
    let user: { token: string };
    ({ phone, page, user } = await loggedInPhone(baseURL));
    // An account with something in every card: a Paper binding (portfolio) and a bot (counts).
    expect((await callAs(baseURL, user, 'POST', '/api/exchanges/bind', { exchangeId: 1, apiKey: 'paperkey01', secretKey: 'papersecret01' })).code).toBe(1);
    const params = { investment: '100', firstOrder: '10', multiplier: '1.5', maxPositions: 3, addTrigger: '2', takeProfit: '1.5', repeat: true, stopLoss: '' };
    expect((await callAs(baseURL, user, 'POST', '/api/user/botCreate', { type: 'martin', exchangeId: 1, symbol: 'BTC/USDT', name: '首页 马丁', params })).code).toBe(1);
  });
  afterAll(async () => phone?.close());

  it('renders its figures with the screen and nothing moves as they arrive', async () => {
    // Before any script of the page: each layout shift, and what the cards held when home first rendered.
    await page.addInitScript(() => {
      const w = window as unknown as { shifts: number[]; firstRender?: Record<string, string | null> };
      w.shifts = [];
      new PerformanceObserver((list) => {
        for (const e of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[]) if (!e.hadRecentInput) w.shifts.push(e.value);
      }).observe({ type: 'layout-shift', buffered: true });
      new MutationObserver((_, observer) => {
        if (!document.querySelector('[data-testid="home-today"]')) return;
        observer.disconnect();
        const text = (id: string) => document.querySelector(`[data-testid="${id}"]`)?.textContent ?? null;
        w.firstRender = {
          today: text('home-today'),
          bots: text('home-total-bots'),
          portfolio: text('portfolio-total'),
          accounts: String(document.querySelectorAll('[data-testid="portfolio-account"]').length),
          prices: String(document.querySelectorAll('[data-testid="home-price"]').length),
        };
      }).observe(document, { childList: true, subtree: true });
    });
    await page.goto('/');
    await page.getByTestId('home-price').first().waitFor();
    await page.waitForTimeout(1500); // any late card would have moved the others by now
    const seen = await page.evaluate(() => {
      const w = window as unknown as { shifts: number[]; firstRender?: Record<string, string | null> };
      return { shifts: w.shifts, firstRender: w.firstRender };
    });
    expect(seen.firstRender).toMatchObject({ today: expect.not.stringMatching(/^—$/), bots: '1', accounts: '1', prices: '4' });
    expect(seen.firstRender?.portfolio).toMatch(/\d/);
    expect(seen.shifts.reduce((a, b) => a + b, 0)).toBeLessThan(0.01);
  });

  it("asks for all of home's files at once, the framework first, then its answers, each once (public/boot.js, vite.config.ts inline-boot)", async () => {
    // A first visit: nothing of the page in the browser's cache, no service worker (the test above loaded
    // home, and its worker, once registered, would serve the page and start the update watch at once).
    await page.evaluate(async () => {
      for (const r of await navigator.serviceWorker.getRegistrations()) await r.unregister();
      for (const k of await caches.keys()) await caches.delete(k);
    });
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.clearBrowserCache');
    // Who asked for each answer: the script on the stack when it was sent.
    await cdp.send('Network.enable');
    const askedBy = new Map<string, string>();
    cdp.on('Network.requestWillBeSent', (e: { request: { url: string }; initiator: { stack?: { callFrames: { url: string }[] } } }) => {
      const frames = e.initiator.stack?.callFrames ?? [];
      askedBy.set(new URL(e.request.url).pathname, frames.at(-1)?.url ?? '');
    });
    const requests: Request[] = [];
    const asked = (r: Request) => requests.push(r);
    page.on('request', asked);
    let rendered = 0;
    try {
      await page.goto('/');
      await page.getByTestId('home-price').first().waitFor();
      rendered = requests.length; // what home's first render needed (asked for before it)
      await page.waitForTimeout(500);
    } finally {
      page.off('request', asked);
    }
    const path = (r: Request) => new URL(r.url()).pathname + new URL(r.url()).search;
    const paths = requests.map(path);
    const api = paths.filter((u) => u.startsWith('/api/'));
    const mode = await page.evaluate(() => localStorage.getItem('trading-mode'));
    expect(mode).toMatch(/^(live|simulation)$/);
    // The trading mode is kept since the first visit: that mode's bill and count only, no bindings; the
    // bell's and the tab bar's one unread count (the live stream opens once the browser is idle, when it may).
    expect(api.filter((u) => !u.startsWith('/api/market/price') && u !== '/api/stream').sort()).toEqual(
      ['/api/index/banners', `/api/user/bill?mode=${mode}`, `/api/user/botCount?mode=${mode}`, '/api/user/portfolio', '/api/notice/list?page=1&page_size=1'].sort(),
    );
    expect(api.filter((u) => u.startsWith('/api/market/price'))).toHaveLength(1); // polled every 5 s after
    const isScript = (u: string) => /^\/assets\/.+\.js$/.test(u);
    // The largest file first (it arrives last otherwise); every script home's first render runs asked for
    // before its answers, which the page asks for right after them: none found only once another has run.
    expect(paths.find(isScript)).toMatch(/^\/assets\/framework-/);
    // (The live stream's module is asked for once the browser is idle after the first screen: it may come in
    // before the check below notes the render, and is no part of it.)
    expect(paths.slice(paths.indexOf('/api/user/portfolio'), rendered).filter((u) => isScript(u) && !/^\/assets\/live-/.test(u))).toEqual([]);
    // The answers are asked for by the page itself (its inline boot code), not by the app's scripts once they have run.
    expect(askedBy.get('/api/user/portfolio')).toBe(new URL('/', page.url()).href);
    expect(askedBy.get('/api/index/banners')).toBe(new URL('/', page.url()).href);
    // Nothing else on the way: one style sheet, no icon, no manifest before the first screen.
    expect(paths.slice(0, rendered).filter((u) => !isScript(u) && !u.startsWith('/api/'))).toEqual(['/', expect.stringMatching(/^\/assets\/style-.+\.css$/)]);
  });
});
