import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { Phone } from './support/browser.ts';
import { callAs, loggedInPhone, type Registered } from './support/session.ts';

const baseURL = inject('baseURL');
const params = { investment: '100', firstOrder: '10', multiplier: '1.5', maxPositions: 3, addTrigger: '2', takeProfit: '1.5', repeat: true, stopLoss: '' };

/** Server state through TanStack Query, seen from the browser against the real server. */
describe('the logged-in screens share one query cache', () => {
  let phone: Phone;
  let page: Page;
  const botLists: number[] = [];
  beforeAll(async () => {
    let user: Registered;
    ({ phone, page, user } = await loggedInPhone(baseURL));
    expect((await callAs(baseURL, user, 'POST', '/api/exchanges/bind', { exchangeId: 1, apiKey: 'paperkey01', secretKey: 'papersecret01' })).code).toBe(1);
    expect((await callAs(baseURL, user, 'POST', '/api/user/botCreate', { type: 'martin', exchangeId: 1, symbol: 'BTC/USDT', name: 'Cache 马丁', params })).code).toBe(1);
    page.on('request', (r) => {
      if (new URL(r.url()).pathname === '/api/user/botList') botLists.push(Date.now());
    });
  });
  afterAll(async () => phone?.close());

  it('going back shows the list at once from the cache, while a slow server is still answering', async () => {
    await page.goto('/strategy');
    await expect.poll(() => page.getByTestId('bot-list').locator('li').count()).toBe(1);
    await page.getByTestId('bot-list').getByRole('link').first().click();
    await page.getByTestId('bot-summary').waitFor();
    // From now on the list's answers take 4 s: only a cached answer can show it sooner.
    await page.route('**/api/user/botList*', async (route) => {
      await new Promise((r) => setTimeout(r, 4000));
      await route.continue().catch(() => undefined); // the page may have moved on by then
    });
    const back = Date.now();
    await page.goBack();
    await page.getByTestId('bot-list').locator('li').first().waitFor({ timeout: 2500 });
    expect(Date.now() - back).toBeLessThan(2500);
    expect(await page.getByText('加载中…').count()).toBe(0);
    await page.unroute('**/api/user/botList*', undefined);
  });

  it('polls only while the page is visible, and refreshes when it is shown again', async () => {
    // Polling is what the screens fall back to without the live stream: the stream is kept out here.
    await page.route('**/api/stream', (route) => route.abort());
    await page.goto('/strategy');
    await expect.poll(() => page.getByTestId('bot-list').locator('li').count()).toBe(1);
    const hide = (state: 'hidden' | 'visible') =>
      page.evaluate((s) => {
        Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => s });
        document.dispatchEvent(new Event('visibilitychange', { bubbles: true }));
      }, state);
    await hide('hidden');
    const hiddenAt = Date.now();
    // The list polls every 5 s while visible: 12 s hidden would have asked twice.
    await new Promise((r) => setTimeout(r, 12_000));
    expect(botLists.filter((t) => t > hiddenAt + 200)).toEqual([]);
    const shownAt = Date.now();
    await hide('visible');
    await expect.poll(() => botLists.filter((t) => t >= shownAt).length).toBeGreaterThan(0);
    await page.unroute('**/api/stream');
  });
});
