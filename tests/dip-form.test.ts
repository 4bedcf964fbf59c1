import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { Phone } from './support/browser.ts';
import { callAs, loggedInPhone, type Registered } from './support/session.ts';

const baseURL = inject('baseURL');
const alerts = (page: Page) => page.getByRole('alert').allInnerTexts();
const number = (text: string) => Number(text.replace(/,/g, ''));

/**
 * The buy-the-dip screen, the sixth type added as one folder: its plan at the price now (the buy line
 * below it, the coin it buys, the take profit above the line), a field checked when it is left, and a bot
 * created on Paper whose detail, once started, shows the line it waits at (390x844).
 */
describe('the buy-the-dip form', () => {
  let phone: Phone | undefined;
  let page: Page;
  let user: Registered;
  beforeEach(async () => {
    ({ phone, page, user } = await loggedInPhone(baseURL));
    expect((await callAs(baseURL, user, 'POST', '/api/exchanges/bind', { exchangeId: 1, apiKey: 'paperKey12345678', secretKey: 'paperSecret12345678' })).code).toBe(1);
    await page.goto('/strategy/dip');
    await expect.poll(() => page.getByTestId('dip-line').isVisible()).toBe(true);
  });
  afterEach(async () => {
    await phone?.close();
    phone = undefined;
  });

  it('plans its buy below the price, checks a field when it is left, and creates a bot that waits at its line', async () => {
    const line = number(await page.getByTestId('dip-line').innerText());
    const takeProfit = number(await page.getByTestId('dip-take-profit').innerText());
    const [last] = (await callAs(baseURL, user, 'GET', '/api/market/price?symbols=BTC/USDT')).data as { price: string }[];
    // 3 % below the price now (it moves a little meanwhile), and the take profit 2 % over the line.
    expect(line / Number(last!.price)).toBeGreaterThan(0.96);
    expect(line / Number(last!.price)).toBeLessThan(0.98);
    expect(takeProfit / line).toBeCloseTo(1.02, 3);
    expect(number(await page.getByTestId('dip-amount').innerText())).toBeGreaterThan(0);

    const dip = page.locator('input[name="dip"]');
    await dip.fill('60');
    await dip.blur();
    await expect.poll(() => alerts(page)).toEqual(['下跌幅度须在 0.1% 到 50% 之间']);
    await dip.fill('0.5');
    await expect.poll(() => alerts(page)).toEqual([]);

    await page.getByTestId('save-bot').click();
    await expect.poll(() => new URL(page.url()).pathname).toMatch(/^\/strategy\/detail\/\d+$/);
    await expect.poll(() => page.getByTestId('bot-summary').innerText()).toContain('抄底');
    const id = new URL(page.url()).pathname.split('/').pop()!;
    const info = await callAs(baseURL, user, 'GET', `/api/user/botInfo?id=${id}`);
    expect(info.data).toMatchObject({ type: 'dip', params: { investment: '100', dip: '0.5', takeProfit: '2' } });
    expect((await callAs(baseURL, user, 'GET', `/api/user/botOperation?id=${id}&action=start`)).code).toBe(1);
    // Started, it keeps the price it began at: its line, 0.5 % below, is on the detail as the buy price.
    const nextAdd = async () => ((await callAs(baseURL, user, 'GET', `/api/user/botDetail?id=${id}`)).data as { nextAddPrice: string | null }).nextAddPrice;
    await expect.poll(nextAdd, { timeout: 20_000 }).not.toBeNull();
    const waitsAt = Number(await nextAdd()).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
    await page.reload();
    await expect.poll(() => page.getByTestId('bot-summary').innerText()).toContain(waitsAt);
    const overflow = await page.evaluate(() => [...document.querySelectorAll('body *')].filter((e) => e.getBoundingClientRect().right > window.innerWidth + 0.5).map((e) => e.tagName));
    expect(overflow).toEqual([]);
  });
});
