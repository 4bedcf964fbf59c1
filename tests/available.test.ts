import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { Phone } from './support/browser.ts';
import { callAs, loggedInPhone, type Registered } from './support/session.ts';

const baseURL = inject('baseURL');

/**
 * The create screen shows what the account has free and the trader's running bots have not reserved, and
 * warns before a start it would refuse.
 */
describe('the free balance on the create screen', () => {
  let phone: Phone;
  let page: Page;
  let user: Registered;
  beforeAll(async () => {
    ({ phone, page, user } = await loggedInPhone(baseURL));
    expect((await callAs(baseURL, user, 'POST', '/api/exchanges/bind', { exchangeId: 1, apiKey: 'paperkey01', secretKey: 'papersecret01' })).code).toBe(1);
  });
  afterAll(async () => phone?.close());

  it('shows the Paper account’s 10,000 USDT under the investment and warns when every order would need more', async () => {
    await page.goto('/strategy/martin');
    const hint = page.getByTestId('available-hint');
    await expect.poll(() => hint.innerText()).toContain('可用 10,000.00 USDT');
    expect(await hint.getByRole('alert').count()).toBe(0);
    // 5,000 + 10,000 + 20,000 + ... : the worst case is far beyond 10,000.
    await page.locator('input[name="investment"]').fill('200000');
    await page.locator('input[name="firstOrder"]').fill('5000');
    await expect.poll(() => hint.getByRole('alert').count()).toBe(1);
    expect(await hint.getByRole('alert').innerText()).toContain('超过可用余额');
  });

  it('counts a running bot’s adds as reserved: less is available, and the screen says what is held back', async () => {
    const created = await callAs(baseURL, user, 'POST', '/api/user/botCreate', {
      type: 'martin',
      exchangeId: 1,
      symbol: 'BTC/USDT',
      params: { investment: '3100', firstOrder: '100', multiplier: '2', maxPositions: 5, addTrigger: '2', takeProfit: '1.5', repeat: true },
    });
    expect(created.code).toBe(1);
    expect((await callAs(baseURL, user, 'GET', `/api/user/botOperation?id=${created.data.id}&action=start`)).code).toBe(1);
    // Its first order filled; the four adds left (200 + 400 + 800 + 1,600) are reserved.
    const usdtOf = async () => (await callAs(baseURL, user, 'GET', '/api/user/asset?exchange=paper')).data.balances.find((b: { currency: string }) => b.currency === 'USDT');
    await expect.poll(async () => (await usdtOf()).reserved).toBe('3000');
    const usdt = await usdtOf();
    expect(Number(usdt.available)).toBeCloseTo(Number(usdt.free) - 3000, 8);
    await page.goto('/strategy/martin');
    const hint = page.getByTestId('available-hint');
    await expect.poll(() => page.getByTestId('available-reserved').innerText()).toContain('运行中的策略已预留 3,000.00 USDT');
    expect(await hint.innerText()).toContain('（未被其他策略预留）');
    expect(await hint.innerText()).not.toContain('可用 10,000.00 USDT');
    // Home and the bill show the total PnL with the bot's floating PnL beside the realised profit: the same figures.
    await page.goto('/');
    // The line is there before its figures (a dash): wait for the figures.
    await expect.poll(() => page.getByTestId('home-total-pnl').innerText()).toMatch(/总盈亏（含浮动） [-+−]?\d/);
    const home = await page.getByTestId('home-total-pnl').innerText();
    expect(home).toContain('浮动');
    const bill = (await callAs(baseURL, user, 'GET', '/api/user/bill?mode=simulation')).data;
    expect(bill.totalPnl).toBeCloseTo(bill.total + bill.unrealized, 8);
    await page.goto('/strategy/bill');
    // The same figures from the same call, read a few seconds apart on a market that moves every second:
    // equal within a few cents on this 100 USDT position.
    const first = (text: string) => Number(/([-+−]?)([\d,.]+)/.exec(text)?.slice(1).join('').replace('−', '-').replace(/,/g, '') ?? Number.NaN);
    await expect.poll(() => page.getByTestId('bill-total-pnl').innerText()).toMatch(/总盈亏（含浮动） [-+−]?\d/);
    const onBill = await page.getByTestId('bill-total-pnl').innerText();
    expect(Math.abs(first(onBill) - first(home))).toBeLessThan(0.1);
    expect((await callAs(baseURL, user, 'GET', `/api/user/botOperation?id=${created.data.id}&action=stop`)).code).toBe(1);
  });

  it('says a bot that is not the trader’s is not found, with the way back, and shows no form to fill', async () => {
    await page.goto('/strategy/martin/99999');
    await page.getByTestId('bot-not-found').waitFor();
    expect(await page.getByTestId('bot-not-found').innerText()).toContain('没有找到这个策略');
    expect(await page.locator('form').count()).toBe(0);
    await page.getByTestId('bot-not-found').getByRole('link').click();
    await page.waitForURL((u) => u.pathname === '/strategy');
  });
});
