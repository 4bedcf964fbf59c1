import Decimal from 'decimal.js';
import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { Phone } from './support/browser.ts';
import { callAs, loggedInPhone, type Registered } from './support/session.ts';

const baseURL = inject('baseURL');
const alerts = (page: Page) => page.getByRole('alert').allInnerTexts();

/**
 * Trailing exits on the martin form and the detail screen, on a phone, in Chinese: the
 * worst trailing sale, the warning when the deviation is not smaller than the take profit, a trailing
 * stop refused without a stop loss, and a bot saved with both whose stop follows the high on Paper.
 */
describe('trailing exits on the martin form', () => {
  let phone: Phone | undefined;
  let page: Page;
  let user: Registered;
  beforeEach(async () => {
    ({ phone, page, user } = await loggedInPhone(baseURL));
    expect((await callAs(baseURL, user, 'POST', '/api/exchanges/bind', { exchangeId: 1, apiKey: 'paperKey12345678', secretKey: 'paperSecret12345678' })).code).toBe(1);
    await page.goto('/strategy/martin');
    await page.locator('input[name="trailingDeviation"]').waitFor();
  });
  afterEach(async () => {
    await phone?.close();
    phone = undefined;
  });

  it('warns, checks and saves the trailing fields; the detail shows the trailing stop over the high', async () => {
    const deviation = page.locator('input[name="trailingDeviation"]');
    // Take profit 1.5 % (the default), deviation 2 %: a trailing sale can be a loss.
    await deviation.fill('2');
    await expect.poll(() => alerts(page)).toEqual([expect.stringContaining('回调幅度不小于止盈比例')]);
    // 0.5 %: the worst sale is (1.015 x 0.995 - 1) = +0.99 % over the average, no warning.
    await deviation.fill('0.5');
    await expect.poll(() => alerts(page)).toEqual([]);
    expect(await page.getByText('最差卖出价约为均价 +0.99%').count()).toBe(1);
    await deviation.fill('25');
    await deviation.blur();
    await expect.poll(() => alerts(page)).toEqual(['回调幅度须在 0.1% 到 20% 之间']);
    await deviation.fill('0.5');

    // A trailing stop needs a stop loss: said on the stop loss field when the form is sent.
    await page.locator('input[name="trailingStop"]').check();
    await page.getByTestId('save-bot').click();
    await expect.poll(() => alerts(page)).toEqual(['追踪止损需要填写止损比例', '请修正标红的参数。']);
    await page.locator('input[name="stopLoss"]').fill('5');
    await expect.poll(async () => (await alerts(page)).includes('追踪止损需要填写止损比例')).toBe(false);
    await page.getByTestId('save-bot').click();
    await expect.poll(() => new URL(page.url()).pathname).toMatch(/^\/strategy\/detail\/\d+$/);
    const id = new URL(page.url()).pathname.split('/').pop()!;
    expect((await callAs(baseURL, user, 'GET', `/api/user/botInfo?id=${id}`)).data.params).toMatchObject({ trailingDeviation: '0.5', stopLoss: '5', trailingStop: true });

    // Started on Paper: the stop is 5 % under the high since the entry (at first the entry itself), never below.
    expect((await callAs(baseURL, user, 'GET', `/api/user/botOperation?id=${id}&action=start`)).code).toBe(1);
    await expect.poll(async () => (await callAs(baseURL, user, 'GET', `/api/user/botInfo?id=${id}`)).data.positions, { timeout: 15_000 }).toBe(1);
    const detail = (await callAs(baseURL, user, 'GET', `/api/user/botDetail?id=${id}`)).data;
    const entry = new Decimal(detail.fills[0].price);
    expect(new Decimal(detail.stopLossPrice).gte(entry.mul('0.95').toDecimalPlaces(2, Decimal.ROUND_DOWN))).toBe(true);
    expect(detail.stopLossPrice).not.toBe(null);
    await page.reload();
    const stopFigure = page.getByText('止损价', { exact: true }).locator('xpath=..');
    await expect.poll(() => stopFigure.innerText(), { timeout: 15_000 }).toMatch(/\d/);
    // No element runs past the 390 px screen on the form with its trailing note.
    await page.goto('/strategy/martin');
    await page.locator('input[name="trailingDeviation"]').fill('2');
    await expect.poll(() => alerts(page)).toHaveLength(1);
    const overflow = await page.evaluate(() => [...document.querySelectorAll('body *')].filter((e) => e.getBoundingClientRect().right > window.innerWidth + 0.5).map((e) => e.tagName));
    expect(overflow).toEqual([]);
  });
});
