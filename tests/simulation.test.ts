import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { Phone } from './support/browser.ts';
import { loggedInPhone } from './support/session.ts';

const baseURL = inject('baseURL');

/** The 模拟 tab: a simulated account opened in one tap, reset after confirming, and the spot notice. */
describe('simulation', () => {
  let phone: Phone;
  let page: Page;
  beforeAll(async () => {
    ({ phone, page } = await loggedInPhone(baseURL));
  });
  afterAll(async () => phone?.close());

  it('opens a simulated account with 10,000 USDT and resets it after confirming', async () => {
    await page.goto('/simulation');
    await page.getByTestId('sim-open').click();
    await expect.poll(() => page.getByTestId('sim-balances').innerText()).toMatch(/USDT\s+10,000/);
    await page.getByTestId('sim-reset').click();
    await page.getByRole('dialog').getByRole('button', { name: '重置' }).click();
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    await expect.poll(() => page.getByTestId('sim-balances').innerText()).toMatch(/USDT\s+10,000/);
  });

  it('opens a simulated account on Binance’s live prices with its own 10,000 USDT', async () => {
    await page.getByTestId('sim-exchange-binancesim').click();
    await page.getByTestId('sim-open').click();
    await expect.poll(() => page.getByTestId('sim-balances').innerText()).toMatch(/USDT\s+10,000/);
    expect(await page.getByTestId('sim-account').innerText()).toContain('虚拟资金，实时行情');
  });

  it('says when an exchange has no spot simulation', async () => {
    await page.getByTestId('sim-exchange-gate').click();
    expect(await page.getByTestId('sim-exchange-note').innerText()).toBe('该交易所现货暂不支持模拟');
    await page.evaluate(() => localStorage.setItem('theme-storage', JSON.stringify({ theme: 'light', language: 'en' })));
    await page.reload();
    await page.getByTestId('sim-exchange-gate').click();
    expect(await page.getByTestId('sim-exchange-note').innerText()).toBe('Simulation is not supported for spot on this exchange');
  });
});
