import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { Phone } from './support/browser.ts';
import { loggedInPhone } from './support/session.ts';

const baseURL = inject('baseURL');

/** /market: pairs with sparklines, search, favourites kept on the device, a pair's chart with an indicator. */
describe('the market', () => {
  let phone: Phone;
  let page: Page;
  beforeAll(async () => {
    ({ phone, page } = await loggedInPhone(baseURL));
  });
  afterAll(async () => phone?.close());

  it('lists the pairs with a day’s sparkline, searches them and keeps favourites first', async () => {
    await page.goto('/');
    await page.getByTestId('home-market').click();
    await page.waitForURL((u) => u.pathname === '/market');
    await expect.poll(() => page.getByTestId('market-row').count()).toBeGreaterThan(5);
    expect(await page.getByTestId('market-row').first().getByTestId('sparkline').locator('polyline').count()).toBe(1);
    await page.getByTestId('market-search').fill('sol');
    await expect.poll(() => page.getByTestId('market-row').count()).toBe(1);
    await page.getByTestId('market-row').getByTestId('star').click();
    await page.getByTestId('market-search').fill('');
    await page.reload();
    await expect.poll(() => page.getByTestId('market-row').first().getAttribute('data-symbol')).toBe('SOL/USDT');
    await page.getByTestId('only-favourites').click();
    await expect.poll(() => page.getByTestId('market-row').count()).toBe(1);
  });

  it('opens a pair’s chart with timeframes and an indicator', async () => {
    await page.getByTestId('market-row').first().getByRole('button', { name: 'SOL/USDT', exact: true }).click();
    await page.waitForURL((u) => u.searchParams.get('symbol') === 'SOL/USDT');
    await expect.poll(() => page.getByTestId('price-chart').locator('canvas').count()).toBeGreaterThan(0);
    await page.getByTestId('indicator-RSI14').click();
    await expect.poll(() => page.getByTestId('rsi').innerText()).toMatch(/^RSI14: \d+(\.\d+)?$/);
    // RSI in a pane of its own under the candles.
    await expect.poll(() => page.getByTestId('price-chart').getAttribute('data-panes')).toBe('1');
  });

  it('shows the pair’s price where its chart ends, on opening and after each refresh', { timeout: 60_000 }, async () => {
    // Read together: the header's price and the chart's last close, as drawn at one moment.
    const both = () =>
      page.evaluate(() => ({
        header: document.querySelector('[data-testid="symbol-price"]')?.textContent ?? '',
        close: document.querySelector('[data-testid="price-chart"]')?.getAttribute('data-last-close') ?? '',
      }));
    const agree = async () => {
      const { header, close } = await both();
      expect(close).toMatch(/^\d+\.\d{2}$/);
      expect(header.replaceAll(',', '')).toBe(close);
    };
    await page.goto('/market?symbol=BTC%2FUSDT');
    await page.getByTestId('symbol-price').waitFor();
    await expect.poll(async () => (await both()).close).not.toBe('');
    await agree();
    // The screen asks again every 15 s: the next answer moves both together.
    await page.waitForResponse((r) => r.url().includes('/api/market/symbols'), { timeout: 25_000 });
    await page.waitForTimeout(300);
    await agree();
    await page.reload();
    await expect.poll(async () => (await both()).close).not.toBe('');
    await agree();
  });

  it('shows the futures market read only, saying futures bots are not available yet', async () => {
    await page.goto('/market');
    await page.getByTestId('to-futures').click();
    await page.waitForURL((u) => u.pathname === '/futures');
    expect(await page.getByTestId('futures-note').innerText()).toBe('合约策略暂未开放，此页仅展示行情。');
    // Live exchanges answer over the internet; without it the screen says so and offers a retry.
    await expect.poll(async () => (await page.getByTestId('futures-list').count()) + (await page.getByText('无法连接该交易所，请稍后重试。').count()), { timeout: 25_000 }).toBe(1);
    // Unreachable, the Paper market's spot prices show below (never an empty screen).
    if ((await page.getByTestId('futures-list').count()) === 0) await expect.poll(() => page.getByTestId('futures-fallback').locator('tr').count()).toBeGreaterThan(5);
  });

  it('shows the Paper market when a live exchange cannot be reached, saying so', async () => {
    await page.goto('/market?exchange=okx');
    // With the internet OKX's pairs show; without it (as on these machines) Paper's, under a notice.
    await expect.poll(async () => (await page.getByTestId('market-row').count()) > 0 || (await page.getByTestId('market-fallback').count()) > 0, { timeout: 25_000 }).toBe(true);
    if ((await page.getByTestId('market-fallback').count()) > 0) {
      expect(await page.getByTestId('market-fallback').innerText()).toContain('暂时无法连接 OKX，以下为模拟盘行情');
      await expect.poll(() => page.getByTestId('market-row').count()).toBeGreaterThan(5);
      expect(await page.getByTestId('market-row').first().getAttribute('data-symbol')).toMatch(/\/USDT$/);
    }
  });
});
