import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openPhone, type Phone } from './support/browser.ts';
import { callAs, register, storeSession, type Registered } from './support/session.ts';

const baseURL = inject('baseURL');
const martin = { investment: '1000', firstOrder: '30', multiplier: '2', maxPositions: 4, addTrigger: '2', takeProfit: '1.5', stopLoss: '', repeat: true };

/**
 * The figures and choices a trader moves money on: a batch stop asks sell-or-keep as one bot's stop does,
 * a holding bot's returns say on what (the budget, the funds used), a dense grid is warned before it is
 * saved, and the simulated account converts small balances into USDT.
 */
describe('stop choices, returns and small balances on the screens', () => {
  let phone: Phone;
  let page: Page;
  let me: Registered;
  const newBot = async (symbol: string) => {
    const id = (await callAs(baseURL, me, 'POST', '/api/user/botCreate', { type: 'martin', exchangeId: 1, symbol, params: martin })).data.id as string;
    expect((await callAs(baseURL, me, 'GET', `/api/user/botOperation?id=${id}&action=start`)).code).toBe(1);
    return id;
  };
  const positions = async (id: string) => (await callAs(baseURL, me, 'GET', `/api/user/botInfo?id=${id}`)).data as { status: string; positions: number };

  beforeAll(async () => {
    phone = await openPhone(baseURL);
    page = phone.page;
    me = await register(baseURL);
    expect((await callAs(baseURL, me, 'POST', '/api/exchanges/bind', { exchangeId: 1, apiKey: 'paperKey12345678', secretKey: 'paperSecret12345678' })).code).toBe(1);
    await storeSession(page, me);
  });
  afterAll(() => phone.close());

  it('shows a holding bot’s ROI on its budget and on the funds it used, each labelled', async () => {
    const id = await newBot('ETH/USDT');
    await expect.poll(async () => (await positions(id)).positions).toBe(1);
    await page.goto(`/strategy/detail/${id}`);
    const returns = page.getByTestId('bot-returns');
    await expect.poll(() => returns.innerText()).toContain('收益率 · 按投资额');
    expect(await returns.innerText()).toContain('收益率 · 按已用资金');
    // 30 USDT used of a 1,000 budget: the same PnL is a 33 times larger share of what was used.
    const detail = (await callAs(baseURL, me, 'GET', `/api/user/botDetail?id=${id}`)).data;
    expect(Number(detail.usedFunds)).toBeGreaterThan(29);
    expect(Number(detail.usedFunds)).toBeLessThanOrEqual(30);
  });

  it('stops several bots at once and sells what they hold when the trader asks', async () => {
    const a = await newBot('BTC/USDT');
    const b = await newBot('SOL/USDT');
    for (const id of [a, b]) await expect.poll(async () => (await positions(id)).positions).toBe(1);
    await page.goto('/strategy');
    await page.getByTestId('batch-toggle').click();
    for (const id of [a, b]) await page.locator(`[data-testid="bot-card"][data-bot-id="${id}"] input[type="checkbox"]`).check();
    await page.getByTestId('batch-stop').click();
    const dialog = page.getByRole('dialog');
    // The same choice as one bot's stop: keep (the default) or sell everything to USDT.
    expect(await dialog.getByTestId('stop-keep').isChecked()).toBe(true);
    await dialog.getByTestId('stop-sell').check();
    await dialog.getByRole('button', { name: '停止' }).click();
    await expect.poll(() => page.getByTestId('batch-progress').innerText()).toContain('已处理 2 / 2，成功 2');
    for (const id of [a, b]) expect(await positions(id)).toMatchObject({ status: 'stopped', positions: 0 });
  });

  it('warns of a dense grid before it is saved: under 0.1 % a grid after both fees', async () => {
    await page.goto('/strategy/grid?exchange=paper');
    const lower = page.locator('input[name="lower"]');
    await expect.poll(async () => Number(await lower.inputValue())).toBeGreaterThan(0);
    const price = Number(await lower.inputValue()) / 0.9; // the form's default range is around the price
    // 0.25 % apart: the fees (0.1 % on each side) leave about 0.05 % a grid.
    const low = Math.round(price * 0.985);
    const spacing = low * 0.0025;
    await lower.fill(String(low));
    await page.locator('input[name="upper"]').fill(String(Math.round(low + spacing * 12)));
    await page.locator('input[name="grids"]').fill('12');
    await page.getByTestId('grid-thin').waitFor();
    expect(await page.getByTestId('grid-thin').innerText()).toContain('网格较密');
  });

  it('converts small balances on the simulation page, and says when there are none', async () => {
    await page.goto('/simulation');
    await page.getByTestId('sim-sweep').click();
    await expect.poll(() => page.getByTestId('sim-swept').innerText()).toMatch(/没有可换的零头|已将/);
  });
});
