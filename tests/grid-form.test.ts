import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { Phone } from './support/browser.ts';
import { callAs, loggedInPhone, type Registered } from './support/session.ts';

const baseURL = inject('baseURL');
const alerts = (page: Page) => page.getByRole('alert').allInnerTexts();

/**
 * The grid form's field errors: a field's error shows when the trader leaves the field, not
 * only when the bot is created; a field not yet visited keeps its error until the submit.
 */
describe('the grid form checks a field when it is left', () => {
  let phone: Phone | undefined;
  let page: Page;
  let user: Registered;
  beforeEach(async () => {
    ({ phone, page, user } = await loggedInPhone(baseURL));
    expect((await callAs(baseURL, user, 'POST', '/api/exchanges/bind', { exchangeId: 1, apiKey: 'paperKey12345678', secretKey: 'paperSecret12345678' })).code).toBe(1);
    await page.goto('/strategy/grid');
    // The form starts 10% either side of the price now: wait for it.
    await expect.poll(async () => Number(await page.locator('input[name="lower"]').inputValue())).toBeGreaterThan(0);
  });
  afterEach(async () => {
    await phone?.close();
    phone = undefined;
  });

  it('shows an upper price below the lower as soon as the upper field is left, before create is tapped', async () => {
    const lower = Number(await page.locator('input[name="lower"]').inputValue());
    const upper = page.locator('input[name="upper"]');
    await upper.fill(String(Math.floor(lower / 2)));
    expect(await alerts(page)).toEqual([]); // still in the field
    await upper.blur();
    await expect.poll(() => alerts(page)).toEqual(['最高价须高于最低价']);
    expect(await upper.getAttribute('aria-invalid')).toBe('true');
    expect(new URL(page.url()).pathname).toBe('/strategy/grid');
    // Fixed, it goes away at once.
    await upper.fill(String(Math.round(lower * 1.5)));
    await expect.poll(() => alerts(page)).toEqual([]);
  });

  it('shows it too when the lower price is raised above the upper and left; a field still being typed in shows nothing until it is left or create is tapped', async () => {
    const upper = Number(await page.locator('input[name="upper"]').inputValue());
    await page.locator('input[name="lower"]').fill(String(Math.round(upper * 2)));
    await page.locator('input[name="lower"]').blur();
    await expect.poll(() => alerts(page)).toEqual(['最高价须高于最低价']);
    await page.locator('input[name="lower"]').fill(String(Math.round(upper / 2)));
    await expect.poll(() => alerts(page)).toEqual([]);

    // A take profit inside the range, typed but not left yet: no error until create is tapped.
    await page.locator('input[name="takeProfit"]').fill('1');
    await expect.poll(() => alerts(page)).toEqual([]);
    await page.getByTestId('save-bot').click();
    await expect.poll(() => alerts(page)).toContain('止盈价须高于最高价');
    expect(new URL(page.url()).pathname).toBe('/strategy/grid');
  });

  it('backtests the grid as the engine runs it: its levels rest as limit orders, filled at their price as a maker, and the result says so', async () => {
    await page.getByTestId('backtest').getByRole('button', { name: '7 天' }).click();
    await page.getByTestId('run-backtest').click();
    await page.getByTestId('backtest-result').waitFor();
    expect(await page.getByTestId('bt-fill').innerText()).toBe(
      '按模拟盘逐秒行情回放：挂单在触发价成交，止损按触及那一秒的价格，滑点 0.05%。 网格的挂单在其价格按挂单（maker）费率成交，不计滑点；止损等离场按市价。',
    );
  });
});
