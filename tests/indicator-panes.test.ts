import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { Phone } from './support/browser.ts';
import { callAs, loggedInPhone } from './support/session.ts';

const baseURL = inject('baseURL');

/**
 * A custom bot's detail draws what its rules read: RSI(14, 1m) in a pane under the prices with its buy
 * and sell levels, EMA(20, 5m) over the candles, EMA(200, 1h) (more hours than the chart is given) named
 * and said to be waiting, in zh and en.
 */
describe('a custom bot’s indicators on its chart', () => {
  let phone: Phone;
  let page: Page;
  let id = '';
  beforeAll(async () => {
    const session = await loggedInPhone(baseURL);
    ({ phone, page } = session);
    expect((await callAs(baseURL, session.user, 'POST', '/api/exchanges/bind', { exchangeId: 1, apiKey: 'paperkey01', secretKey: 'papersecret01' })).code).toBe(1);
    const params = {
      investment: '500',
      size: { kind: 'fixed', quote: '100' },
      entry: {
        join: 'and',
        conditions: [
          { left: { kind: 'rsi', period: 14, timeframe: '1m' }, op: '<', right: { kind: 'value', value: '30' } },
          { left: { kind: 'price' }, op: '>', right: { kind: 'ema', period: 20, timeframe: '5m' } },
          { left: { kind: 'price' }, op: '>', right: { kind: 'ema', period: 200, timeframe: '1h' } },
        ],
      },
      exit: { join: 'or', conditions: [{ left: { kind: 'rsi', period: 14, timeframe: '1m' }, op: '>', right: { kind: 'value', value: '70' } }] },
      takeProfit: '',
      stopLoss: '5',
      repeat: true,
    };
    const created = await callAs(baseURL, session.user, 'POST', '/api/user/botCreate', { type: 'custom', exchangeId: 1, symbol: 'BTC/USDT', name: 'RSI bot', params });
    expect(created.code).toBe(1);
    id = created.data.id;
  });
  afterAll(() => phone.close());

  it('draws RSI in a pane with its levels, the EMA over the prices, and says which one lacks candles', async () => {
    await page.goto(`/strategy/detail/${id}`);
    const chart = page.getByTestId('price-chart');
    await expect.poll(() => chart.getAttribute('data-panes')).toBe('1');
    // The pane is drawn: the chart is taller by it and the library made a second pane of canvases.
    expect((await chart.boundingBox())!.height).toBeGreaterThan(300);
    await expect.poll(() => chart.locator('tr:has(canvas)').count()).toBeGreaterThanOrEqual(3);
    const legend = page.getByTestId('indicator-legend');
    expect(await legend.locator('[data-indicator="rsi:14:1m"]').innerText()).toBe('RSI(14, 1m) · 买入 < 30 · 卖出 > 70 · 见下方副图');
    await expect.poll(() => legend.locator('[data-indicator="ema:20:5m"]').innerText()).toBe('EMA(20, 5m) · 叠加在价格上');
    expect(await legend.locator('[data-indicator="ema:200:1h"]').innerText()).toMatch(/^EMA\(200, 1h\) · 需要 200 根 1h K 线，图上只有 \d+ 根，暂不绘制$/);
    await page.evaluate(() => localStorage.setItem('theme-storage', JSON.stringify({ theme: 'dark', language: 'en' })));
    await page.reload();
    await expect.poll(() => legend.locator('[data-indicator="rsi:14:1m"]').innerText()).toBe('RSI(14, 1m) · Buy < 30 · Sell > 70 · in the pane below');
    await expect.poll(() => legend.locator('[data-indicator="ema:20:5m"]').innerText()).toBe('EMA(20, 5m) · over the prices');
    expect(await legend.locator('[data-indicator="ema:200:1h"]').innerText()).toMatch(/^EMA\(200, 1h\) · needs 200 1h candles, the chart has \d+: not drawn yet$/);
  });
});
