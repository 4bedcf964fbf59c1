import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { Phone } from './support/browser.ts';
import { callAs, loggedInPhone, type Registered } from './support/session.ts';

const baseURL = inject('baseURL');

/** A DCA bot that waits for a weekly start days away: only a signal opens its deal. */
const dca = {
  investment: '320',
  baseOrder: '20',
  safetyOrder: '20',
  maxSafetyOrders: 4,
  deviation: '1.5',
  stepScale: '1.5',
  volumeScale: '2',
  takeProfit: '1.5',
  stopLoss: '',
  cooldown: 0,
  // Three days from today, as an ISO weekday (1 Monday .. 7 Sunday; getUTCDay is 0 Sunday .. 6): a 0 was refused on Thursdays.
  start: { kind: 'schedule', every: 'week', weekday: ((new Date().getUTCDay() + 2) % 7) + 1, time: '12:00', utcOffset: 0 },
};

/**
 * The signals section of a DCA bot's detail at 390x844: a webhook URL made and shown
 * once, an alert sent to it acted on and listed, a second alert with the same id listed once, a body
 * that is no signal counted (not listed) and said, a new
 * URL after a confirmation (the old one refused), in Chinese, then in English.
 */
describe('signals on the bot detail', () => {
  let phone: Phone | undefined;
  let page: Page;
  let user: Registered;
  let id = '';
  beforeEach(async () => {
    ({ phone, page, user } = await loggedInPhone(baseURL));
    expect((await callAs(baseURL, user, 'POST', '/api/exchanges/bind', { exchangeId: 1, apiKey: 'paperKey12345678', secretKey: 'paperSecret12345678' })).code).toBe(1);
    const created = await callAs<{ id: string }>(baseURL, user, 'POST', '/api/user/botCreate', { type: 'dca', exchangeId: 1, symbol: 'BTC/USDT', params: dca });
    expect(created.code, created.msg).toBe(1);
    id = created.data.id;
    expect((await callAs(baseURL, user, 'GET', `/api/user/botOperation?id=${id}&action=start`)).code).toBe(1);
  });
  afterEach(async () => {
    await phone?.close();
    phone = undefined;
  });

  const send = async (url: string, body: unknown) =>
    (await (await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })).json()) as { code: number };

  it('makes a webhook URL, shows it once, lists the signals it acted on, and makes a new one after a confirmation', async () => {
    await page.goto(`/strategy/detail/${id}`);
    const section = page.getByTestId('bot-signals');
    await expect.poll(() => section.isVisible()).toBe(true);
    await expect.poll(() => section.innerText()).toContain('还没有收到信号。');
    expect(await page.getByTestId('webhook-example').innerText()).toContain('"action": "buy"');
    await page.getByTestId('webhook-make').click();
    const shown = page.getByTestId('webhook-url');
    await expect.poll(() => shown.isVisible()).toBe(true);
    const url = await shown.innerText();
    expect(url).toMatch(/^http:\/\/[^/]+\/api\/signal\/[A-Za-z0-9_-]{43}$/);
    // The section fits a phone: the long URL breaks, nothing scrolls sideways.
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);

    expect((await send(url, { action: 'buy', id: 'e2e-1' })).code).toBe(1);
    expect((await send(url, { action: 'buy', id: 'e2e-1' })).code).toBe(3134);
    // A body that is no signal: counted on the bot, not listed; the section says how many and why.
    expect((await send(url, { action: 'hold', id: 'e2e-bad' })).code).toBe(3133);
    await expect.poll(() => page.getByTestId('signals-table').innerText(), { timeout: 10_000 }).toContain('e2e-1');
    const rows = await page.getByTestId('signals-table').locator('tbody tr').allInnerTexts();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toContain('买入');
    expect(rows[0]).toContain('已下单');

    // Reloaded: the URL is not shown again, only that there is one.
    await page.reload();
    await expect.poll(() => page.getByTestId('webhook-enabled').isVisible()).toBe(true);
    expect(await page.getByTestId('webhook-refused').innerText()).toMatch(/^已拒绝 1 条格式不对的信号（最近一次 .+：action 只能是 buy、sell 或 close）/);
    expect(await page.getByTestId('webhook-url').count()).toBe(0);
    await page.getByTestId('webhook-make').click();
    const dialog = page.getByRole('dialog');
    await expect.poll(() => dialog.innerText()).toContain('旧地址将立即失效');
    await dialog.getByRole('button', { name: '重新生成' }).click();
    await expect.poll(() => page.getByTestId('webhook-url').isVisible()).toBe(true);
    const fresh = await page.getByTestId('webhook-url').innerText();
    expect(fresh).not.toBe(url);
    expect((await send(url, { action: 'close', id: 'e2e-2' })).code).toBe(3132);

    // In English.
    await page.evaluate(() => localStorage.setItem('theme-storage', JSON.stringify({ theme: 'light', language: 'en' })));
    await page.reload();
    await expect.poll(() => page.getByTestId('bot-signals').innerText()).toContain('Order placed');
    // The webhook's own answer may come after the signals list's (two calls): its button, then the whole text.
    await expect.poll(() => page.getByTestId('webhook-make').isVisible()).toBe(true);
    const text = await page.getByTestId('bot-signals').innerText();
    expect(text).toContain('Signals (webhook)');
    expect(text).toContain('New URL');
    expect(await page.getByTestId('webhook-refused').innerText()).toMatch(/^1 signals refused as malformed \(the last at .+: action must be buy, sell or close\)/);
    // At 320 px too (the narrowest phone), with the URL shown: nothing scrolls sideways.
    await page.setViewportSize({ width: 320, height: 640 });
    await page.getByTestId('webhook-make').click();
    await page.getByRole('dialog').getByRole('button', { name: 'Make new' }).click();
    await expect.poll(() => page.getByTestId('webhook-url').isVisible()).toBe(true);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  });
});
