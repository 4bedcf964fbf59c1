import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openPhone, type Phone } from './support/browser.ts';
import { callAs, register, storeSession, type Registered } from './support/session.ts';

const baseURL = inject('baseURL');
const martin = { investment: '1000', firstOrder: '29', multiplier: '2', maxPositions: 4, addTrigger: '2', takeProfit: '1.5', stopLoss: '', repeat: true };

/**
 * A bot's rules are on the strategy rank only when its owner shares them: the switch on the bot's screen
 * (off at first, changed while the bot runs), and the rank's copy, which without them opens the create
 * screen on the pair only and says the owner keeps them private.
 */
describe('sharing a bot’s rules on the rank', () => {
  let phone: Phone;
  let page: Page;
  let owner: Registered;
  let bot: string;

  /**
   * The owner's ranked bot on the rank (simulated, all time): their own row, on whichever page it is (the
   * other tests' bots share this server's rank and may rank above it).
   */
  const ownRow = async () => {
    await page.goto('/rank');
    await page.getByTestId('rank-view-bots').click();
    await page.getByRole('tab', { name: '模拟' }).click();
    await page.getByRole('tab', { name: '全部' }).click();
    const row = page.locator('[data-testid="bot-rank-row"][data-mine]');
    const settled = page.locator('[data-testid="bot-rank"][aria-busy="false"]');
    for (;;) {
      await settled.waitFor();
      if ((await row.count()) > 0) return row;
      const next = page.getByRole('button', { name: '下一页' });
      expect(await next.isEnabled()).toBe(true);
      const shown = await page.getByRole('navigation', { name: 'pagination' }).innerText();
      await next.click();
      await expect.poll(() => page.getByRole('navigation', { name: 'pagination' }).innerText()).not.toBe(shown);
    }
  };

  beforeAll(async () => {
    owner = await register(baseURL);
    expect((await callAs(baseURL, owner, 'POST', '/api/exchanges/bind', { exchangeId: 1, apiKey: 'paperKey12345678', secretKey: 'paperSecret12345678' })).code).toBe(1);
    bot = (await callAs(baseURL, owner, 'POST', '/api/user/botCreate', { type: 'martin', exchangeId: 1, symbol: 'ETH/USDT', params: martin })).data.id as string;
    expect((await callAs(baseURL, owner, 'GET', `/api/user/botOperation?id=${bot}&action=start`)).code).toBe(1);
    // A manual close ends a cycle: the bot is ranked, and goes on running.
    expect((await callAs(baseURL, owner, 'GET', `/api/user/botOperation?id=${bot}&action=close`)).code).toBe(1);
    phone = await openPhone(baseURL);
    page = phone.page;
    await storeSession(page, owner);
  });
  afterAll(() => phone.close());

  it('keeps the rules private until the owner turns the switch on, and the rank follows it', async () => {
    // Private at first: the row says so, and its copy opens the pair without the parameters.
    let row = await ownRow();
    expect(await row.getByTestId('bot-rank-private').innerText()).toContain('参数未公开');
    expect(decodeURIComponent((await row.getByTestId('bot-rank-copy').getAttribute('href')) ?? '')).not.toContain('firstOrder');
    await row.getByTestId('bot-rank-copy').click();
    await page.waitForURL((u) => u.pathname === '/strategy/martin');
    await expect.poll(() => page.locator('#bot-symbol').inputValue()).toBe('ETH/USDT');
    expect(await page.locator('input[name="firstOrder"]').inputValue()).not.toBe('29');
    expect(await page.getByTestId('copied-from-note').innerText()).toContain('没有公开参数');

    // The switch on the bot's screen, off, with what it shares; turned on while the bot runs.
    await page.goto(`/strategy/detail/${bot}`);
    const toggle = page.getByTestId('rank-share-switch');
    await expect.poll(() => toggle.isEnabled()).toBe(true);
    expect(await toggle.isChecked()).toBe(false);
    expect(await page.getByTestId('rank-share').innerText()).toContain('在排行榜公开参数');
    expect(await page.getByTestId('rank-share-note').innerText()).toContain('参数只有你能看到');
    await toggle.click();
    await expect.poll(async () => (await callAs(baseURL, owner, 'GET', `/api/user/botShare?id=${bot}`)).data.shareRules).toBe(true);
    await expect.poll(() => toggle.isChecked()).toBe(true);
    expect(await page.getByTestId('rank-share-note').innerText()).toContain('不含你的时区');
    expect((await callAs(baseURL, owner, 'GET', `/api/user/botInfo?id=${bot}`)).data.status).toBe('running');

    // The rank now carries them, and a copy fills them in.
    row = await ownRow();
    await expect.poll(() => row.getByTestId('bot-rank-private').count()).toBe(0);
    await row.getByTestId('bot-rank-copy').click();
    await page.waitForURL((u) => u.pathname === '/strategy/martin');
    await expect.poll(() => page.locator('input[name="firstOrder"]').inputValue()).toBe('29');
    expect(await page.getByTestId('copied-from-note').innerText()).toContain('参数已填入下方');

    // Off again: private again.
    await page.goto(`/strategy/detail/${bot}`);
    await expect.poll(() => toggle.isChecked()).toBe(true);
    await toggle.click();
    await expect.poll(async () => (await callAs(baseURL, owner, 'GET', `/api/user/botShare?id=${bot}`)).data.shareRules).toBe(false);
    row = await ownRow();
    await expect.poll(() => row.getByTestId('bot-rank-private').count()).toBe(1);
  });
});
