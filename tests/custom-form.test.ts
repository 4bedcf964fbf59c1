import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { Phone } from './support/browser.ts';
import { callAs, loggedInPhone, type Registered } from './support/session.ts';

const baseURL = inject('baseURL');
const alerts = (page: Page) => page.getByRole('alert').allInnerTexts();
const status = (page: Page) => page.getByTestId('bot-summary').locator('[data-status]').getAttribute('data-status');

/**
 * The custom bot's create screen at 390x844: an RSI rule built from condition cards,
 * a problem said under its field on leaving it (in words, never a path), the rule explained in plain
 * words, the backtest before the start, a bot created on Paper, named 自定义 with its rules on its
 * detail, started, and its edit link back to this screen.
 */
describe('the custom bot form', () => {
  let phone: Phone | undefined;
  let page: Page;
  let user: Registered;
  beforeEach(async () => {
    ({ phone, page, user } = await loggedInPhone(baseURL));
    expect((await callAs(baseURL, user, 'POST', '/api/exchanges/bind', { exchangeId: 1, apiKey: 'paperKey12345678', secretKey: 'paperSecret12345678' })).code).toBe(1);
    await page.goto('/strategy/custom');
    await expect.poll(() => page.getByTestId('custom-explain').isVisible()).toBe(true);
  });
  afterEach(async () => {
    await phone?.close();
    phone = undefined;
  });

  it('builds an RSI rule, explains it, backtests, creates and starts a custom bot on Paper', async () => {
    const field = (name: string) => page.locator(`[name="${name}"]`);
    // The first buy condition: RSI(14, 1h) < 30 (the card's defaults), its period set by hand.
    await field('entry.conditions.0.left.kind').selectOption('rsi');
    await field('entry.conditions.0.left.period').fill('1');
    await field('entry.conditions.0.left.period').blur();
    await expect.poll(() => alerts(page)).toEqual(['须在 2 到 500 之间']);
    await field('entry.conditions.0.left.period').fill('14');
    await field('entry.conditions.0.left.timeframe').selectOption('1h');
    await field('entry.conditions.0.op').selectOption('<');
    await field('entry.conditions.0.right.value').fill('30');
    await expect.poll(() => alerts(page)).toEqual([]);
    // A second: price > EMA(200, 1h), joined by AND.
    await page.getByTestId('entry-add').click();
    await field('entry.conditions.1.left.kind').selectOption('price');
    await field('entry.conditions.1.op').selectOption('>');
    await field('entry.conditions.1.right.kind').selectOption('ema');
    await field('entry.conditions.1.right.period').fill('200');
    await field('entry.conditions.1.right.timeframe').selectOption('1h');
    await expect.poll(() => page.getByTestId('custom-explain').innerText()).toContain('买入：RSI(14, 1h) < 30 且 价格 > EMA(200, 1h)');
    // A price compared with itself is said under its side, in words.
    await field('entry.conditions.1.right.kind').selectOption('price');
    await field('entry.conditions.1.right.kind').blur();
    await expect.poll(() => alerts(page)).toEqual(['两侧相同：请换一个指标或数值']);
    await field('entry.conditions.1.right.kind').selectOption('ema');
    await expect.poll(() => alerts(page)).toEqual([]);
    // The sell rule RSI(14, 1h) > 70 (the defaults) and a 3 % take profit.
    await field('takeProfit').fill('3');
    const explain = await page.getByTestId('custom-explain').innerText();
    expect(explain).toContain('卖出：RSI(14, 1h) > 70');
    expect(explain).toContain('平仓：止盈 3%，止损 5%');
    await expect.poll(() => page.getByTestId('available-hint').isVisible()).toBe(true);

    await page.getByTestId('run-backtest').click();
    await expect.poll(() => page.getByTestId('backtest-result').isVisible(), { timeout: 60_000 }).toBe(true);

    // Nothing runs past the 390 px screen with two condition cards and the sell rule open.
    const overflow = await page.evaluate(() => [...document.querySelectorAll('body *')].filter((e) => e.getBoundingClientRect().right > window.innerWidth + 0.5).map((e) => e.tagName));
    expect(overflow).toEqual([]);

    await page.getByTestId('save-bot').click();
    await expect.poll(() => new URL(page.url()).pathname).toMatch(/^\/strategy\/detail\/\d+$/);
    await expect.poll(() => page.getByTestId('bot-summary').innerText()).toContain('自定义');
    expect(await page.getByTestId('bot-rules').innerText()).toContain('买入：RSI(14, 1h) < 30 且 价格 > EMA(200, 1h)');
    const id = new URL(page.url()).pathname.split('/').pop()!;
    const info = await callAs(baseURL, user, 'GET', `/api/user/botInfo?id=${id}`);
    expect(info.data).toMatchObject({
      type: 'custom',
      params: {
        size: { kind: 'fixed', quote: '100' },
        entry: {
          join: 'and',
          conditions: [
            { left: { kind: 'rsi', period: 14, timeframe: '1h' }, op: '<', right: { kind: 'value', value: '30' } },
            { left: { kind: 'price' }, op: '>', right: { kind: 'ema', period: 200, timeframe: '1h' } },
          ],
        },
        takeProfit: '3',
        stopLoss: '5',
      },
    });
    // A stopped custom bot is edited on this screen.
    await expect.poll(() => page.getByTestId('op-edit').getAttribute('href')).toBe(`/strategy/custom/${id}`);
    await page.getByTestId('op-start').click();
    await expect.poll(() => status(page), { timeout: 15_000 }).toBe('running');
    // Cloned from its detail: the create screen with its rules.
    await page.getByTestId('bot-clone').click();
    await page.waitForURL((u) => u.pathname === '/strategy/custom');
    await expect.poll(() => field('entry.conditions.1.right.period').inputValue()).toBe('200');
    expect(await page.getByTestId('custom-explain').innerText()).toContain('买入：RSI(14, 1h) < 30 且 价格 > EMA(200, 1h)');
  });
});

/**
 * Trailing exits on the custom form, as martin's and DCA's: the worst trailing sale, the
 * warning when the deviation is not smaller than the take profit, each trailing exit refused without the
 * percentage it trails (said under that field), and a bot saved with both, started on Paper, whose stop
 * follows the high since its entry.
 */
describe('trailing exits on the custom form', () => {
  let phone: Phone | undefined;
  let page: Page;
  let user: Registered;
  beforeEach(async () => {
    ({ phone, page, user } = await loggedInPhone(baseURL));
    expect((await callAs(baseURL, user, 'POST', '/api/exchanges/bind', { exchangeId: 1, apiKey: 'paperKey12345678', secretKey: 'paperSecret12345678' })).code).toBe(1);
    await page.goto('/strategy/custom');
    await page.locator('input[name="trailingDeviation"]').waitFor();
  });
  afterEach(async () => {
    await phone?.close();
    phone = undefined;
  });

  it('warns, checks and saves the trailing fields; the detail explains them and shows the trailing stop', async () => {
    const field = (name: string) => page.locator(`[name="${name}"]`);
    // Buys at the first check: price > 0.
    await field('entry.conditions.0.left.kind').selectOption('price');
    await field('entry.conditions.0.op').selectOption('>');
    await field('entry.conditions.0.right.value').fill('0');
    await field('exitOn').uncheck();
    // Take profit 0.8 %, deviation 1 %: a trailing sale can be a loss.
    await field('takeProfit').fill('0.8');
    await field('trailingDeviation').fill('1');
    await expect.poll(() => alerts(page)).toEqual([expect.stringContaining('回调幅度不小于止盈比例')]);
    // Nothing runs past the 390 px screen with the warning and the trailing note.
    const overflow = await page.evaluate(() => [...document.querySelectorAll('body *')].filter((e) => e.getBoundingClientRect().right > window.innerWidth + 0.5).map((e) => e.tagName));
    expect(overflow).toEqual([]);
    // 3 %: the worst sale is (1.03 x 0.99 - 1) = +1.97 % over the average, no warning.
    await field('takeProfit').fill('3');
    await expect.poll(() => alerts(page)).toEqual([]);
    expect(await page.getByText('最差卖出价约为均价 +1.97%').count()).toBe(1);
    await field('trailingDeviation').fill('25');
    await field('trailingDeviation').blur();
    await expect.poll(() => alerts(page)).toEqual(['回调幅度须在 0.1% 到 20% 之间']);
    await field('trailingDeviation').fill('1');
    await expect.poll(() => page.getByTestId('custom-explain').innerText()).toContain('平仓：止盈 3%（追踪回调 1%），止损 5%');

    // A trailing take profit needs a take profit, a trailing stop a stop loss: each said on that field when the form is sent.
    await field('takeProfit').fill('');
    await page.getByTestId('save-bot').click();
    await expect.poll(() => alerts(page)).toEqual(['追踪止盈需要填写止盈比例', '请修正标红的参数。']);
    await field('takeProfit').fill('3');
    await expect.poll(async () => (await alerts(page)).includes('追踪止盈需要填写止盈比例')).toBe(false);
    await field('stopLoss').fill('');
    await field('trailingStop').check();
    await page.getByTestId('save-bot').click();
    await expect.poll(() => alerts(page)).toEqual(['追踪止损需要填写止损比例', '请修正标红的参数。']);
    await field('stopLoss').fill('5');
    await expect.poll(async () => (await alerts(page)).includes('追踪止损需要填写止损比例')).toBe(false);

    await page.getByTestId('save-bot').click();
    await expect.poll(() => new URL(page.url()).pathname).toMatch(/^\/strategy\/detail\/\d+$/);
    const id = new URL(page.url()).pathname.split('/').pop()!;
    expect((await callAs(baseURL, user, 'GET', `/api/user/botInfo?id=${id}`)).data.params).toMatchObject({ takeProfit: '3', trailingDeviation: '1', stopLoss: '5', trailingStop: true });
    expect(await page.getByTestId('bot-rules').innerText()).toContain('平仓：止盈 3%（追踪回调 1%），追踪止损 5%');

    // Started on Paper it buys at its first check; the stop is 5 % under the high since the entry, never below.
    expect((await callAs(baseURL, user, 'GET', `/api/user/botOperation?id=${id}&action=start`)).code).toBe(1);
    await expect.poll(async () => (await callAs(baseURL, user, 'GET', `/api/user/botInfo?id=${id}`)).data.positions, { timeout: 90_000 }).toBe(1);
    const detail = (await callAs(baseURL, user, 'GET', `/api/user/botDetail?id=${id}`)).data;
    const entry = Number(detail.fills[0].price);
    expect(Number(detail.stopLossPrice)).toBeGreaterThanOrEqual(Math.floor(entry * 0.95 * 100) / 100 - 0.01);
    await page.reload();
    const stopFigure = page.getByText('止损价', { exact: true }).locator('xpath=..');
    await expect.poll(() => stopFigure.innerText(), { timeout: 15_000 }).toMatch(/\d/);
  });
});
