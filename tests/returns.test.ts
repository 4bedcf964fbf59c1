import { afterEach, describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openPhone, type Phone } from './support/browser.ts';
import { callAs, register, storeSession, type Registered } from './support/session.ts';

const baseURL = inject('baseURL');
const martin = { investment: '1000', firstOrder: '20', multiplier: '2', maxPositions: 5, addTrigger: '2', takeProfit: '1.2', stopLoss: '', repeat: true };

/**
 * In the browser: a bot card's and the detail's returns, PnL over time, the all-bots log with
 * its filters, and the portfolio on home and /my/asset (a simulated account labelled so).
 */
describe('returns, the all-bots log and the portfolio', () => {
  let phone: Phone | undefined;
  afterEach(async () => {
    await phone?.close();
    phone = undefined;
  });

  /** A new trader on Paper with two martin bots: one running, one never started. */
  const trader = async (): Promise<{ page: Page; user: Registered; running: string; idle: string }> => {
    phone = await openPhone(baseURL);
    const user = await register(baseURL);
    expect((await callAs(baseURL, user, 'POST', '/api/exchanges/bind', { exchangeId: 1, apiKey: 'paperKey12345678', secretKey: 'paperSecret12345678' })).code).toBe(1);
    const make = async (name: string) => (await callAs(baseURL, user, 'POST', '/api/user/botCreate', { type: 'martin', exchangeId: 1, symbol: 'BTC/USDT', name, params: martin })).data.id as string;
    const running = await make('Runner');
    const idle = await make('Idle');
    expect((await callAs(baseURL, user, 'GET', `/api/user/botOperation?id=${running}&action=start`)).code).toBe(1);
    await storeSession(phone.page, user);
    return { page: phone.page, user, running, idle };
  };

  it('shows each bot’s total PnL, ROI and APR (none under a day) on its card and its detail, with the PnL chart', async () => {
    const { page, running } = await trader();
    await page.goto('/strategy');
    const card = page.locator(`[data-bot-id="${running}"]`);
    await expect.poll(() => card.getByTestId('bot-roi').innerText()).toMatch(/%$/);
    expect(await card.getByTestId('bot-apr').innerText()).toBe('运行满 24 小时后显示');
    expect(await card.getByTestId('bot-returns').innerText()).toContain('总收益 (USDT)');
    await page.goto(`/strategy/detail/${running}`);
    await page.getByTestId('pnl-panel').getByTestId('equity-chart').waitFor();
    await expect.poll(() => page.getByTestId('pnl-roi').innerText()).toMatch(/%$/);
    expect(await page.getByTestId('pnl-apr').innerText()).toBe('运行满 24 小时后显示');
    // One figure, one value: the panel's total is the header's (one answer), and a bot minutes old is drawn over its first week, not 30 days.
    expect(await page.getByTestId('pnl-total').innerText()).toBe(await page.getByTestId('bot-total-profit').innerText());
    expect(await page.getByTestId('pnl-panel').getByRole('button', { pressed: true }).innerText()).toBe('7 天');
  });

  it('lists every bot’s log on /strategy/logs, filtered by bot, kind and day', async () => {
    const { page, running, idle } = await trader();
    await page.goto('/strategy/logs');
    await expect.poll(() => page.getByTestId('action-bot').allInnerTexts()).toEqual(expect.arrayContaining(['BTC/USDT · Runner', 'BTC/USDT · Idle']));
    await page.getByTestId('logs-kind').selectOption('start');
    await expect.poll(async () => [...new Set(await page.locator('[data-testid="action-list"] li').evaluateAll((els) => els.map((e) => e.getAttribute('data-kind'))))]).toEqual(['start']);
    expect(await page.getByTestId('action-bot').allInnerTexts()).toEqual(['BTC/USDT · Runner']);
    await page.getByTestId('logs-kind').selectOption('');
    await page.getByTestId('logs-bot').selectOption(idle);
    await expect.poll(() => page.getByTestId('action-bot').allInnerTexts()).toEqual(['BTC/USDT · Idle']);
    // The bot filter is in the address (?id=): a reload keeps it.
    await page.reload();
    await expect.poll(() => page.getByTestId('logs-bot').inputValue()).toBe(idle);
    await expect.poll(() => page.getByTestId('action-bot').allInnerTexts()).toEqual(['BTC/USDT · Idle']);
    // A day long ago: nothing.
    await page.getByTestId('logs-from').fill('2020-01-01');
    await page.getByTestId('logs-to').fill('2020-01-02');
    await page.getByTestId('logs-empty').waitFor();
    expect(running).not.toBe(idle);
  });

  it('shows the equity across accounts on home and /my/asset, a simulated account labelled so', async () => {
    const { page } = await trader();
    await page.goto('/');
    await expect.poll(() => page.getByTestId('portfolio-total').innerText()).toMatch(/^\d{1,3}(,\d{3})*\.\d{2}$/);
    expect(await page.getByTestId('portfolio-live').innerText()).toBe('0.00');
    expect(await page.getByTestId('portfolio-account').first().innerText()).toContain('模拟');
    await page.goto('/my/asset/balance');
    await expect.poll(() => page.getByTestId('portfolio').locator('table').first().innerText()).toContain('USDT');
    // In English too, on home, where the bots' catalog (模拟: the Simulation page) loads beside it.
    await page.evaluate(() => localStorage.setItem('theme-storage', JSON.stringify({ theme: 'light', language: 'en' })));
    await page.goto('/');
    await expect.poll(() => page.getByTestId('portfolio-account').first().innerText()).toContain('Simulated');
  });
});
