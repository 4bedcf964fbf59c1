import Decimal from 'decimal.js';
import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { Phone } from './support/browser.ts';
import { callAs, loggedInPhone, type Registered } from './support/session.ts';

const baseURL = inject('baseURL');
const alerts = (page: Page) => page.getByRole('alert').allInnerTexts();
const overflowing = (page: Page) => page.evaluate(() => [...document.querySelectorAll('body *')].filter((e) => e.getBoundingClientRect().right > window.innerWidth + 0.5).map((e) => e.tagName));

/**
 * Trailing exits on the grid form and the detail screen, on a phone: the
 * lowest trailing sale and the warning when it falls back into the range, the deviation's bounds, a
 * trailing stop refused without a stop-loss price, a bot saved with both and started on Paper, whose
 * detail names its trailing stop; in Chinese and in English.
 */
describe('trailing exits on the grid form', () => {
  let phone: Phone | undefined;
  let page: Page;
  let user: Registered;
  beforeEach(async () => {
    ({ phone, page, user } = await loggedInPhone(baseURL));
    expect((await callAs(baseURL, user, 'POST', '/api/exchanges/bind', { exchangeId: 1, apiKey: 'paperKey12345678', secretKey: 'paperSecret12345678' })).code).toBe(1);
  });
  afterEach(async () => {
    await phone?.close();
    phone = undefined;
  });
  /** The form around the price now (10 % either side): its lower and upper prices. */
  const openForm = async () => {
    await page.goto('/strategy/grid');
    await expect.poll(async () => Number(await page.locator('input[name="lower"]').inputValue())).toBeGreaterThan(0);
    return { lower: new Decimal(await page.locator('input[name="lower"]').inputValue()), upper: new Decimal(await page.locator('input[name="upper"]').inputValue()) };
  };

  it('warns, checks and saves the trailing fields; started, the detail shows the stop over the stop-loss price (zh)', async () => {
    const { lower, upper } = await openForm();
    // A take profit 2 % above the upper price; a 5 % deviation can sell back inside the range.
    const takeProfit = upper.mul('1.02').toDecimalPlaces(2).toFixed();
    await page.locator('input[name="takeProfit"]').fill(takeProfit);
    const deviation = page.locator('input[name="trailingDeviation"]');
    await deviation.fill('5');
    await expect.poll(() => alerts(page)).toEqual([expect.stringContaining('回调幅度较大')]);
    // 1 %: the lowest sale, floor(takeProfit x 0.99), is above the upper price: no warning, the rule said.
    await deviation.fill('1');
    await expect.poll(() => alerts(page)).toEqual([]);
    expect(await page.getByText('从最高价回落 1% 时全部卖出并停止', { exact: false }).count()).toBe(1);
    await deviation.fill('25');
    await deviation.blur();
    await expect.poll(() => alerts(page)).toEqual(['回调幅度须在 0.1% 到 20% 之间']);
    await deviation.fill('1');

    // A trailing stop needs a stop-loss price: said on that field when the form is sent.
    await page.locator('input[name="trailingStop"]').check();
    await page.getByTestId('save-bot').click();
    await expect.poll(() => alerts(page)).toEqual(['追踪止损需要填写止损价', '请修正标红的参数。']);
    const stopLoss = lower.mul('0.95').toDecimalPlaces(2).toFixed();
    await page.locator('input[name="stopLoss"]').fill(stopLoss);
    await expect.poll(async () => (await alerts(page)).includes('追踪止损需要填写止损价')).toBe(false);
    // The trailing stop's fall from the high, from the price now.
    expect(await page.getByText(/按最新价启动，从最高价回落 [\d.]+% 时全部卖出并停止/).count()).toBe(1);
    expect(await overflowing(page)).toEqual([]);
    await page.getByTestId('save-bot').click();
    await expect.poll(() => new URL(page.url()).pathname).toMatch(/^\/strategy\/detail\/\d+$/);
    const id = new URL(page.url()).pathname.split('/').pop()!;
    expect((await callAs(baseURL, user, 'GET', `/api/user/botInfo?id=${id}`)).data.params).toMatchObject({ takeProfit, trailingDeviation: '1', stopLoss, trailingStop: true });

    // Started on Paper: the stop keeps its ratio to the start price under the high since, never below the stop loss.
    expect((await callAs(baseURL, user, 'GET', `/api/user/botOperation?id=${id}&action=start`)).code).toBe(1);
    await expect.poll(async () => (await callAs(baseURL, user, 'GET', `/api/user/botInfo?id=${id}`)).data.positions, { timeout: 15_000 }).toBeGreaterThan(0);
    const detail = (await callAs(baseURL, user, 'GET', `/api/user/botDetail?id=${id}`)).data;
    expect(new Decimal(detail.stopLossPrice).gte(stopLoss)).toBe(true);
    await page.reload();
    const stopFigure = page.getByText('止损价', { exact: true }).locator('xpath=..');
    await expect.poll(() => stopFigure.innerText(), { timeout: 15_000 }).toMatch(/\d/);
    expect((await callAs(baseURL, user, 'GET', `/api/user/botOperation?id=${id}&action=stop`)).code).toBe(1);
  });

  it('says the same in English', async () => {
    await page.goto('/');
    await page.evaluate(() => localStorage.setItem('theme-storage', JSON.stringify({ theme: 'dark', language: 'en' })));
    const { upper } = await openForm();
    await page.locator('input[name="takeProfit"]').fill(upper.mul('1.02').toDecimalPlaces(2).toFixed());
    await page.locator('input[name="trailingDeviation"]').fill('5');
    await expect.poll(() => alerts(page)).toEqual([expect.stringContaining('A large deviation: the trailing sale can be as low as about')]);
    await page.locator('input[name="trailingDeviation"]').fill('1');
    await expect.poll(() => alerts(page)).toEqual([]);
    expect(await page.getByText('sells everything and stops (no grid orders meanwhile)', { exact: false }).count()).toBe(1);
    await page.locator('input[name="trailingStop"]').check();
    await page.getByTestId('save-bot').click();
    await expect.poll(async () => (await alerts(page))[0]).toBe('A trailing stop needs a stop-loss price');
    expect(await overflowing(page)).toEqual([]);
  });
});
