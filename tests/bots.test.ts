import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openPhone, type Phone } from './support/browser.ts';
import { callAs, register, storeSession, type Registered } from './support/session.ts';

const baseURL = inject('baseURL');

const path = (page: Page) => new URL(page.url()).pathname;
const status = (page: Page) => page.getByTestId('bot-summary').locator('[data-status]').getAttribute('data-status');
/** The martin bot the create test saves: the form's defaults with 1.2% take profit. */
const martin = { investment: '1000', firstOrder: '20', multiplier: '2', maxPositions: 5, addTrigger: '2', takeProfit: '1.2', stopLoss: '', repeat: true };

/**
 * A new trader's bots on Paper in the browser. Each test has its own phone and trader (Paper bound, and
 * a bot made, through the API where the test is about something else), so any one runs alone (`-t`) and
 * in any order.
 */
describe('a new trader runs a martin bot on Paper', () => {
  let phone: Phone | undefined;
  let page: Page;
  let user: Registered;
  // The set-up is a hook's (its own deadline): a phone and a new trader logged in through storage (the
  // login screen has its own tests). On a loaded machine it alone can take half a minute.
  beforeEach(async () => {
    phone = await openPhone(baseURL);
    page = phone.page;
    user = await register(baseURL);
    await storeSession(page, user);
  });
  afterEach(async () => {
    await phone?.close();
    phone = undefined;
  });

  /** Binds Paper for the trader through the API (the binding screen has its own test). */
  const bindPaper = async () => {
    expect((await callAs(baseURL, user, 'POST', '/api/exchanges/bind', { exchangeId: 1, apiKey: 'paperKey12345678', secretKey: 'paperSecret12345678' })).code).toBe(1);
  };
  /** The trader's martin bot on BTC/USDT made through the API (and started, when `running`), its screen open: its id. */
  const openBot = async (running: boolean): Promise<string> => {
    await bindPaper();
    const created = await callAs(baseURL, user, 'POST', '/api/user/botCreate', { type: 'martin', exchangeId: 1, symbol: 'BTC/USDT', name: 'E2E 马丁', params: martin });
    expect(created.code).toBe(1);
    const id = created.data.id as string;
    if (running) expect((await callAs(baseURL, user, 'GET', `/api/user/botOperation?id=${id}&action=start`)).code).toBe(1);
    await page.goto(`/strategy/detail/${id}`);
    await expect.poll(() => status(page)).toBe(running ? 'running' : 'stopped');
    if (running) await expect.poll(() => page.getByTestId('bot-positions').innerText()).toBe('1 / 5');
    return id;
  };

  it('is asked to bind an exchange first, binds Paper, and sees no bots yet', async () => {
    await page.goto('/strategy/martin');
    await page.getByTestId('need-binding').waitFor();
    await page.goto('/bind/paper');
    await page.locator('input[name="apiKey"]').fill('paperKey12345678');
    await page.locator('input[name="secretKey"]').fill('paperSecret12345678');
    await page.locator('form button[type="submit"]').click();
    await page.getByTestId('binding').waitFor();
    await page.goto('/strategy');
    await page.getByTestId('bots-empty').waitFor();
  });

  it('creates a martin bot with inline checks and the funds of each level', async () => {
    await bindPaper();
    await page.goto('/strategy');
    await page.getByTestId('bots-empty').waitFor();
    await page.getByTestId('create-bot').click();
    await page.waitForURL((u) => u.pathname === '/strategy/martin');
    // The price comes from the market; the table is the engine's plan at that price.
    await expect.poll(() => page.getByTestId('market-price').innerText()).toMatch(/\d/);
    await expect.poll(() => page.getByTestId('level-table').locator('tbody tr').count()).toBe(5);
    expect(await page.getByTestId('levels-total').innerText()).toContain('620');

    await page.locator('input[name="investment"]').fill('100');
    await page.locator('input[name="investment"]').blur();
    await expect.poll(() => page.getByRole('alert').first().innerText()).toContain('投资金额无效');
    await page.locator('input[name="maxPositions"]').fill('31');
    await page.locator('input[name="maxPositions"]').blur();
    await expect.poll(() => page.getByText('最大持仓数无效（1-30）').count()).toBe(1);
    await page.getByTestId('save-bot').click();
    await expect.poll(() => page.getByText('请修正标红的参数。').count()).toBe(1);
    expect(path(page)).toBe('/strategy/martin');

    await page.locator('input[name="investment"]').fill('1000');
    await page.locator('input[name="maxPositions"]').fill('5');
    // Backtest before saving: 7 days of Paper's 1-minute candles through the engine's strategy.
    await page.getByTestId('backtest').getByRole('button', { name: '7 天' }).click();
    await page.getByTestId('run-backtest').click();
    await page.getByTestId('backtest-result').waitFor();
    expect(await page.getByTestId('backtest-result').innerText()).toContain('10080 根 1m K 线');
    expect(Number(await page.getByTestId('bt-cycles').innerText())).toBeGreaterThan(0);
    // It says how it fills: on Paper, on the market's own seconds.
    expect(await page.getByTestId('bt-fill').innerText()).toBe('按模拟盘逐秒行情回放：挂单在触发价成交，止损按触及那一秒的价格，滑点 0.05%。');
    // The trader chooses the slippage: the server's answer says the one it replayed with.
    const realizedAtDefault = await page.getByTestId('bt-realized').innerText();
    await page.getByTestId('bt-slippage').getByRole('button', { name: '0%', exact: true }).click();
    expect(await page.getByTestId('backtest-result').count()).toBe(0);
    await page.getByTestId('run-backtest').click();
    await page.getByTestId('backtest-result').waitFor();
    expect(await page.getByTestId('bt-fill').innerText()).toBe('按模拟盘逐秒行情回放：挂单在触发价成交，止损按触及那一秒的价格，滑点 0%。');
    expect(await page.getByTestId('bt-realized').innerText()).not.toBe(realizedAtDefault);
    await expect.poll(() => page.getByTestId('equity-chart').locator('canvas').count()).toBeGreaterThan(0);
    // Changing a setting makes the result stale: it is cleared.
    await page.locator('input[name="takeProfit"]').fill('1.2');
    expect(await page.getByTestId('backtest-result').count()).toBe(0);
    await page.locator('input[name="name"]').fill('E2E 马丁');
    await page.getByTestId('save-bot').click();
    await page.waitForURL((u) => u.pathname.startsWith('/strategy/detail/'));
    expect(path(page).split('/').pop()).toMatch(/^\d+$/);
    await expect.poll(() => status(page)).toBe('stopped');
  });

  it('starts it and sees the first position and its log entry within seconds', async () => {
    await openBot(false);
    const started = Date.now();
    await page.getByTestId('op-start').click();
    await expect.poll(() => status(page)).toBe('running');
    await expect.poll(() => page.getByTestId('bot-positions').innerText(), { timeout: 10_000 }).toBe('1 / 5');
    await expect.poll(() => page.getByTestId('action-list').locator('[data-kind="open"]').count(), { timeout: 10_000 }).toBe(1);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(await page.getByTestId('adds-table').innerText()).toContain('开仓');
    // The chart is drawn by the charting library (a canvas), with the bot's lines.
    await expect.poll(() => page.getByTestId('price-chart').locator('canvas').count(), { timeout: 10_000 }).toBeGreaterThan(0);
  });

  it('adds a position by hand after confirming', async () => {
    const botId = await openBot(true);
    await page.getByTestId('op-manual').click();
    await page.waitForURL((u) => u.pathname === `/strategy/action/${botId}`);
    await expect.poll(() => page.getByTestId('manual-add').isEnabled()).toBe(true);
    expect(await page.getByTestId('manual-add').innerText()).toContain('40');
    await page.getByTestId('manual-add').click();
    await page.getByRole('dialog').getByRole('button', { name: '补仓' }).click();
    await page.waitForURL((u) => u.pathname === `/strategy/detail/${botId}`);
    await expect.poll(() => page.getByTestId('bot-positions').innerText(), { timeout: 10_000 }).toBe('2 / 5');
    await expect.poll(() => page.getByTestId('action-list').locator('[data-kind="manual_add"]').count(), { timeout: 10_000 }).toBe(1);
  });

  it('pauses and resumes it', async () => {
    await openBot(true);
    await page.getByTestId('op-pause').click();
    await expect.poll(() => status(page)).toBe('paused');
    await expect.poll(() => page.getByTestId('action-list').locator('[data-kind="pause"]').count()).toBe(1);
    await page.getByTestId('op-resume').click();
    await expect.poll(() => status(page)).toBe('running');
    await expect.poll(() => page.getByTestId('action-list').locator('[data-kind="resume"]').count()).toBe(1);
  });

  it('cannot edit it while it runs', async () => {
    const botId = await openBot(true);
    await page.goto(`/strategy/martin/${botId}`);
    await page.getByTestId('running-no-edit').waitFor();
    expect(await page.getByTestId('running-no-edit').innerText()).toContain('运行中的策略不能编辑');
    expect(await page.getByTestId('save-bot').isDisabled()).toBe(true);
    expect(await page.locator('input[name="investment"]').isDisabled()).toBe(true);
    // And the server refuses it too, whatever the screen shows.
    const token = JSON.parse((await page.evaluate(() => localStorage.getItem('token')))!) as string;
    const res = await fetch(`${baseURL}/api/user/botUpdate?id=${botId}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ params: { investment: '1000', firstOrder: '20', multiplier: '2', maxPositions: 5, addTrigger: '2', takeProfit: '1.5', repeat: true } }),
    });
    expect(((await res.json()) as { code: number }).code).not.toBe(1);
  });

  it('stops it after confirming', async () => {
    const botId = await openBot(true);
    await page.goto(`/strategy/detail/${botId}`);
    await expect.poll(() => status(page)).toBe('running');
    await page.getByTestId('op-stop').click();
    await page.getByRole('dialog').getByRole('button', { name: '停止' }).click();
    await expect.poll(() => status(page)).toBe('stopped');
    await expect.poll(() => page.getByTestId('action-list').locator('[data-kind="stop"]').count()).toBe(1);
  });

  it('deletes it in a batch, with a progress view, and the list is empty again', async () => {
    await openBot(false);
    await page.goto('/strategy');
    await expect.poll(() => page.getByTestId('bot-card').count()).toBe(1);
    await page.getByTestId('batch-toggle').click();
    await page.getByTestId('bot-card').locator('input[type="checkbox"]').check();
    await page.getByTestId('batch-delete').click();
    await page.getByRole('dialog').getByRole('button', { name: '删除' }).click();
    const progress = page.getByTestId('batch-progress');
    await expect.poll(() => progress.innerText()).toContain('已处理 1 / 1，成功 1');
    await progress.getByRole('button', { name: '关闭' }).click();
    await page.getByTestId('bots-empty').waitFor();
    expect(await page.getByTestId('bot-card').count()).toBe(0);
  });

  it('sees its fuel and the log of it on /my/asset/fuel', async () => {
    await page.goto('/my/asset/fuel');
    await expect.poll(() => page.getByTestId('asset-balance').innerText()).toContain('100');
    await expect.poll(() => page.getByTestId('asset-logs').innerText()).toContain('新用户赠送');
    expect(await page.getByTestId('asset-logs').innerText()).toContain('+100');
  });

  it('reads its warnings: none yet, an empty list that says so', async () => {
    await page.goto('/notice/warn');
    await expect.poll(() => page.locator('main').innerText()).toContain('没有风险提示。');
  });

  it('works out each level and the total funds in the size calculator, as the engine plans them', async () => {
    await bindPaper();
    await page.goto('/strategy/size');
    await expect.poll(() => page.getByTestId('size-price').inputValue()).toMatch(/^\d/); // the latest price, by default
    await page.getByTestId('size-price').fill('100');
    await page.getByTestId('size-first').fill('10');
    await page.getByTestId('size-multiplier').fill('2');
    await page.getByTestId('size-trigger').fill('5');
    await page.getByTestId('size-positions').fill('4');
    // 100, 95, 90.25, 85.73 (floored to the tick, and shown at it); 10 + 20 + 40 + 80 = 150 USDT.
    await expect.poll(() => page.getByTestId('level-table').locator('tbody tr').count()).toBe(4);
    const rows = await page.getByTestId('level-table').locator('tbody tr').allInnerTexts();
    expect(rows.map((r) => r.split('\t').slice(0, 4).join(' '))).toEqual(['1 100.00 10.00 10.00', '2 95.00 20.00 30.00', '3 90.25 40.00 70.00', '4 85.73 80.00 150.00']);
    expect(await page.getByTestId('levels-total').innerText()).toBe('150.00 USDT');
  });

  it('creates a grid bot with the profit per grid shown before the start, starts it and sees its levels', async () => {
    await bindPaper();
    await page.goto('/strategy');
    await page.getByTestId('new-grid').click();
    await page.waitForURL((u) => u.pathname === '/strategy/grid');
    await expect.poll(() => page.getByTestId('grid-levels').locator('tbody tr').count()).toBe(11); // 10 grids around the price now
    await page.locator('input[name="upper"]').fill('1');
    await page.locator('input[name="upper"]').blur();
    await expect.poll(() => page.getByRole('alert').first().innerText()).toContain('最高价须高于最低价');
    const lower = Number(await page.locator('input[name="lower"]').inputValue());
    await page.locator('input[name="upper"]').fill(String(Math.round(lower * 1.2)));
    await page.locator('input[name="grids"]').fill('6');
    await expect.poll(() => page.getByTestId('grid-levels').locator('tbody tr').count()).toBe(7);
    expect(await page.getByTestId('grid-profit').innerText()).toMatch(/^\d+(\.\d+)?% ~ \d+(\.\d+)?%$/);
    await page.getByTestId('run-backtest').click();
    await page.getByTestId('backtest-result').waitFor();
    await page.getByTestId('save-bot').click();
    await page.waitForURL((u) => u.pathname.startsWith('/strategy/detail/'));
    await expect.poll(() => page.getByTestId('bot-grid').locator('tbody tr').count()).toBe(7);
    await page.getByTestId('op-start').click();
    await expect.poll(() => status(page)).toBe('running');
    expect(await page.getByTestId('op-manual').count()).toBe(0); // no manual add or close for a grid
    await expect.poll(async () => (await page.getByTestId('bot-grid').locator('tr[data-side="sell"]').count()) > 0, { timeout: 15_000 }).toBe(true);
  });

  it('finds AI parameters for a risk level, explains them with figures, and starts the chosen one', async () => {
    await bindPaper();
    await page.goto('/strategy');
    await page.getByTestId('new-ai').click();
    await page.waitForURL((u) => u.pathname === '/strategy/ai');
    await page.getByTestId('risk-conservative').click();
    // The candidates' backtests with a rougher market's slippage.
    await page.getByTestId('ai-slippage').getByText('0.1%', { exact: true }).click();
    await page.getByTestId('ai-search').click();
    // The test server searches 2 days of candles (AI_SEARCH_DAYS, tests/support/global-setup.ts), not 30.
    await page.getByTestId('ai-proposal').first().waitFor({ timeout: 30_000 });
    const text = await page.getByTestId('ai-proposals').innerText();
    expect(text).toMatch(/测试了 \d{3,} 组参数/);
    expect(text).toContain('30 天最大回撤不超过 5%');
    expect(text).toContain('回测按模拟盘逐秒行情回放：挂单在触发价成交，止损按触及那一秒的价格，滑点 0.1%。');
    const first = page.getByTestId('ai-proposal').first();
    expect(await first.innerText()).toMatch(/30 天收益率/);
    await first.getByTestId('ai-start').click();
    await page.waitForURL((u) => u.pathname.startsWith('/strategy/detail/'));
    await expect.poll(() => status(page)).toBe('running');
  });
});
