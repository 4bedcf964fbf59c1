import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { Phone } from './support/browser.ts';
import { callAs, loggedInPhone, type Registered } from './support/session.ts';

const baseURL = inject('baseURL');
const alerts = (page: Page) => page.getByRole('alert').allInnerTexts();

/**
 * The DCA create screen: every safety order's price and size with the average and take
 * profit after each, the funds a deal can need, field errors on leaving a field, the backtest before the
 * start, and a bot created on Paper that opens its deal (390x844).
 */
describe('the DCA form', () => {
  let phone: Phone | undefined;
  let page: Page;
  let user: Registered;
  beforeEach(async () => {
    ({ phone, page, user } = await loggedInPhone(baseURL));
    expect((await callAs(baseURL, user, 'POST', '/api/exchanges/bind', { exchangeId: 1, apiKey: 'paperKey12345678', secretKey: 'paperSecret12345678' })).code).toBe(1);
    await page.goto('/strategy/dca');
    await expect.poll(() => page.getByTestId('dca-table').locator('tbody tr').count()).toBe(6);
  });
  afterEach(async () => {
    await phone?.close();
    phone = undefined;
  });

  it('plans the deal as typed, checks a field when it is left, backtests, and creates a DCA bot on Paper', async () => {
    // Base 20 + safety 20 x (1 + 1.5 + 1.5^2 + 1.5^3 + 1.5^4) = 283.75 USDT of the default 300.
    await expect.poll(() => page.getByTestId('dca-funds').innerText()).toBe('283.75 USDT / 300.00');
    // Three safety orders, volume scale 2: 20 + 20 + 40 + 80 = 160.
    await page.locator('input[name="maxSafetyOrders"]').fill('3');
    await page.locator('input[name="volumeScale"]').fill('2');
    await expect.poll(() => page.getByTestId('dca-table').locator('tbody tr').count()).toBe(4);
    await expect.poll(() => page.getByTestId('dca-funds').innerText()).toBe('160.00 USDT / 300.00');
    const cells = await page.getByTestId('dca-table').locator('tbody tr').nth(3).locator('td').allInnerTexts();
    // The 3rd safety order: 1.5 x (1 + 1.2 + 1.44) = 5.46 % below the base, 80 USDT.
    expect(cells.slice(0, 2)).toEqual(['3', '-5.46%']);
    expect(cells[3]).toBe('80.00');

    // A stop loss above the last safety order (the safety order count, a field it is about, was left already: said at once).
    const stop = page.locator('input[name="stopLoss"]');
    await stop.fill('5');
    await stop.blur();
    await expect.poll(() => alerts(page)).toEqual(['止损须低于最后一个安全单的价格']);
    await stop.fill('10');
    await expect.poll(() => alerts(page)).toEqual([]);
    await expect.poll(() => page.getByTestId('dca-stop').isVisible()).toBe(true);

    // A weekly schedule shows its weekday and time.
    await page.locator('label', { hasText: '每周定时' }).click();
    await expect.poll(() => page.locator('select[name="weekday"]').isVisible()).toBe(true);
    await page.locator('label', { hasText: '立即开单' }).click();

    await page.getByTestId('run-backtest').click();
    await expect.poll(() => page.getByTestId('backtest-result').isVisible(), { timeout: 30_000 }).toBe(true);

    await page.getByTestId('save-bot').click();
    await expect.poll(() => new URL(page.url()).pathname).toMatch(/^\/strategy\/detail\/\d+$/);
    await expect.poll(() => page.getByTestId('bot-summary').innerText()).toContain('DCA');
    const id = new URL(page.url()).pathname.split('/').pop()!;
    const info = await callAs(baseURL, user, 'GET', `/api/user/botInfo?id=${id}`);
    expect(info.data).toMatchObject({ type: 'dca', maxPositions: 4, params: { maxSafetyOrders: 3, volumeScale: '2', stopLoss: '10', start: { kind: 'now' } } });
    // No element runs past the 390 px screen.
    await page.goto('/strategy/dca');
    await expect.poll(() => page.getByTestId('dca-table').locator('tbody tr').count()).toBe(6);
    const overflow = await page.evaluate(() => [...document.querySelectorAll('body *')].filter((e) => e.getBoundingClientRect().right > window.innerWidth + 0.5).map((e) => e.tagName));
    expect(overflow).toEqual([]);
  });

  it('starts deals on an indicator condition composed from the custom form’s cards, with a trailing stop; explains, backtests and creates it', async () => {
    const field = (name: string) => page.locator(`[name="${name}"]`);
    await page.locator('label', { hasText: '指标条件' }).click();
    // The custom form's card, its defaults RSI(14, 1h) < 30, explained in plain words.
    await expect.poll(() => page.getByTestId('dca-start-explain').innerText()).toBe('开单：RSI(14, 1h) < 30');
    await field('start.rule.conditions.0.left.period').fill('1');
    await field('start.rule.conditions.0.left.period').blur();
    await expect.poll(() => alerts(page)).toEqual(['须在 2 到 500 之间']);
    await expect.poll(() => page.getByTestId('dca-start-explain').count()).toBe(0);
    await field('start.rule.conditions.0.left.period').fill('14');
    await field('start.rule.conditions.0.left.timeframe').selectOption('5m');
    // A second condition, joined by OR: price crosses below the lower Bollinger band (20, 2, 5m).
    await page.getByTestId('start.rule-add').click();
    await page.locator('label', { hasText: '任一满足（或）' }).click();
    await field('start.rule.conditions.1.left.kind').selectOption('price');
    await field('start.rule.conditions.1.op').selectOption('crossesBelow');
    await field('start.rule.conditions.1.right.kind').selectOption('bb');
    await field('start.rule.conditions.1.right.period').fill('20');
    await field('start.rule.conditions.1.right.timeframe').selectOption('5m');
    await expect.poll(() => page.getByTestId('dca-start-explain').innerText()).toBe('开单：RSI(14, 5m) < 30 或 价格 下穿 布林下轨(20, 2, 5m)');
    await expect.poll(() => alerts(page)).toEqual([]);

    // A trailing stop needs a stop loss: said under the stop loss.
    await page.locator('input[name="trailingStop"]').check();
    await page.locator('input[name="stopLoss"]').focus();
    await page.locator('input[name="stopLoss"]').blur();
    await expect.poll(() => alerts(page)).toEqual(['开启追踪止损须设置止损比例']);
    await page.locator('input[name="stopLoss"]').fill('15');
    await expect.poll(() => alerts(page)).toEqual([]);

    await page.getByTestId('run-backtest').click();
    await expect.poll(() => page.getByTestId('backtest-result').isVisible(), { timeout: 60_000 }).toBe(true);
    const overflow = await page.evaluate(() => [...document.querySelectorAll('body *')].filter((e) => e.getBoundingClientRect().right > window.innerWidth + 0.5).map((e) => e.tagName));
    expect(overflow).toEqual([]);

    await page.getByTestId('save-bot').click();
    await expect.poll(() => new URL(page.url()).pathname).toMatch(/^\/strategy\/detail\/\d+$/);
    const id = new URL(page.url()).pathname.split('/').pop()!;
    const info = await callAs(baseURL, user, 'GET', `/api/user/botInfo?id=${id}`);
    expect(info.data).toMatchObject({
      type: 'dca',
      params: {
        stopLoss: '15',
        trailingStop: true,
        start: {
          kind: 'indicator',
          rule: {
            join: 'or',
            conditions: [
              { left: { kind: 'rsi', period: 14, timeframe: '5m' }, op: '<', right: { kind: 'value', value: '30' } },
              { left: { kind: 'price' }, op: 'crossesBelow', right: { kind: 'bb', band: 'lower', period: 20, deviation: '2', timeframe: '5m' } },
            ],
          },
        },
      },
    });
  });
});
