import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openPhone, type Phone } from './support/browser.ts';
import { callAs, register, storeSession, type Registered } from './support/session.ts';

const baseURL = inject('baseURL');
// A first order of 23 USDT marks this test's bots among everyone's on the shared rank.
const martin = { investment: '1000', firstOrder: '23', multiplier: '2', maxPositions: 4, addTrigger: '2', takeProfit: '1.5', stopLoss: '', repeat: true };

/**
 * What traders use on Pionex and 3Commas : copy a ranked bot's parameters,
 * clone one's own bot, create a bot from a pair's chart, add a chosen amount by hand, and on stop sell
 * everything to USDT or keep the coins.
 */
describe('copying bots and the controls traders expect', () => {
  let phone: Phone;
  let page: Page;
  let me: Registered;
  /** A martin bot of this trader's on ETH/USDT, stopped: each test makes its own. */
  const myBot = async () => (await callAs(baseURL, me, 'POST', '/api/user/botCreate', { type: 'martin', exchangeId: 1, symbol: 'ETH/USDT', params: martin })).data.id as string;
  const bind = (user: Registered) => callAs(baseURL, user, 'POST', '/api/exchanges/bind', { exchangeId: 1, apiKey: 'paperKey12345678', secretKey: 'paperSecret12345678' });

  beforeAll(async () => {
    // Another trader's bot closes a cycle (a manual close) and so is ranked.
    const other = await register(baseURL);
    expect((await bind(other)).code).toBe(1);
    const theirs = (await callAs(baseURL, other, 'POST', '/api/user/botCreate', { type: 'martin', exchangeId: 1, symbol: 'ETH/USDT', name: 'Theirs', params: martin })).data.id as string;
    expect((await callAs(baseURL, other, 'GET', `/api/user/botOperation?id=${theirs}&action=start`)).code).toBe(1);
    expect((await callAs(baseURL, other, 'GET', `/api/user/botOperation?id=${theirs}&action=close`)).code).toBe(1);
    // Its owner shares its parameters on the rank (off by default: rank-share.test.ts).
    expect((await callAs(baseURL, other, 'POST', '/api/user/botShare', { id: theirs, shareRules: true })).code).toBe(1);
    phone = await openPhone(baseURL);
    page = phone.page;
    me = await register(baseURL);
    expect((await bind(me)).code).toBe(1);
    await storeSession(page, me);
  });
  afterAll(() => phone.close());

  it('copies a ranked bot into the create form, with the original’s figures beside it', async () => {
    await page.goto('/rank');
    await page.getByTestId('rank-view-bots').click();
    await page.getByRole('tab', { name: '模拟' }).click();
    await page.getByRole('tab', { name: '全部' }).click();
    // This test's ranked bot: the row whose copy link carries a first order of 23.
    const hrefs = () => page.getByTestId('bot-rank-copy').evaluateAll((links) => links.map((a) => decodeURIComponent((a as HTMLAnchorElement).href)));
    const ours = async () => (await hrefs()).findIndex((h) => /firstOrder\W+23\W/.test(h));
    await page.getByTestId('bot-rank-list').waitFor();
    await expect.poll(ours).toBeGreaterThanOrEqual(0);
    const row = page.getByTestId('bot-rank-row').nth(await ours());
    expect(await row.innerText()).toContain('ETH/USDT · 马丁格尔');
    expect(await row.innerText()).not.toContain('Theirs'); // never whose it is
    await row.getByTestId('bot-rank-copy').click();
    await page.waitForURL((u) => u.pathname === '/strategy/martin');
    await expect.poll(() => page.locator('input[name="firstOrder"]').inputValue()).toBe('23');
    expect(await page.locator('input[name="takeProfit"]').inputValue()).toBe('1.5');
    await expect.poll(() => page.locator('#bot-symbol').inputValue()).toBe('ETH/USDT');
    expect(await page.getByTestId('copied-from').innerText()).toContain('复制自排行榜');
    await page.getByTestId('save-bot').click();
    await page.waitForURL((u) => u.pathname.startsWith('/strategy/detail/'));
    const bot = page.url().split('/').at(-1)!;
    const info = await callAs(baseURL, me, 'GET', `/api/user/botInfo?id=${bot}`);
    expect(info.data).toMatchObject({ symbol: 'ETH/USDT', params: { firstOrder: '23', takeProfit: '1.5', maxPositions: 4 } });
  });

  it('clones its own bot from the detail, and creates a bot from a pair’s chart', async () => {
    const bot = await myBot();
    await page.goto(`/strategy/detail/${bot}`);
    await page.getByTestId('bot-clone').click();
    await page.waitForURL((u) => u.pathname === '/strategy/martin');
    await expect.poll(() => page.locator('input[name="firstOrder"]').inputValue()).toBe('23');
    await expect.poll(() => page.locator('#bot-symbol').inputValue()).toBe('ETH/USDT');
    expect(await page.getByTestId('copied-from').count()).toBe(0); // a clone of one's own: no rank figures
    await page.goto('/market?symbol=SOL%2FUSDT');
    await page.getByTestId('chart-create-bot').click();
    await page.waitForURL((u) => u.pathname === '/strategy/martin');
    await expect.poll(() => page.locator('#bot-symbol').inputValue()).toBe('SOL/USDT');
  });

  it('adds the amount typed by hand, then stops selling everything to USDT', async () => {
    const bot = await myBot();
    expect((await callAs(baseURL, me, 'GET', `/api/user/botOperation?id=${bot}&action=start`)).code).toBe(1);
    await page.goto(`/strategy/action/${bot}`);
    // More than the account has free is said under the field, before any confirmation.
    await page.getByTestId('manual-add-amount').fill('99999');
    await expect
      .poll(() =>
        page
          .getByRole('alert')
          .allInnerTexts()
          .then((t) => t.join(' ')),
      )
      .toContain('超过可用余额');
    expect(await page.getByTestId('manual-add').isDisabled()).toBe(true);
    await page.getByTestId('manual-add-amount').fill('55');
    await expect.poll(() => page.getByTestId('manual-add').innerText()).toContain('55');
    await page.getByTestId('manual-add').click();
    await page.getByRole('dialog').getByRole('button', { name: '补仓' }).click();
    await page.waitForURL((u) => u.pathname.startsWith('/strategy/detail/'));
    const adds = await callAs<{ reason: string; cost: string }[]>(baseURL, me, 'GET', `/api/user/positionAdds?id=${bot}&cycle=1`);
    expect(adds.data.map((o) => o.reason)).toEqual(['open', 'manual_add']);
    // Stop: the dialog asks what to do with the coins; sell all.
    await page.getByTestId('op-stop').click();
    await page.getByTestId('stop-choice').waitFor();
    await page.getByTestId('stop-sell').check();
    await page.getByRole('dialog').getByRole('button', { name: '停止' }).click();
    await expect.poll(async () => (await callAs(baseURL, me, 'GET', `/api/user/botInfo?id=${bot}`)).data).toMatchObject({ status: 'stopped', positions: 0 });
    const kinds = (await callAs<{ list: { kind: string }[] }>(baseURL, me, 'GET', `/api/user/botActions?id=${bot}&page_size=5`)).data.list.map((a) => a.kind);
    expect(kinds.slice(0, 3)).toEqual(['stop', 'success', 'manual_close']);
  });
});
