import Decimal from 'decimal.js';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openPhone, type Phone } from './support/browser.ts';
import { callAs, register, storeSession, type Registered } from './support/session.ts';

const baseURL = inject('baseURL');
// 60 USDT of ETH (about 0.02) on the first order; a take profit and an add trigger far away, so only the trader sells.
const martin = { investment: '1000', firstOrder: '60', multiplier: '2', maxPositions: 3, addTrigger: '30', takeProfit: '50', stopLoss: '', repeat: true };

/** Pionex's partial close: the trader sells a share of a martin bot's position from the close dialog, on a phone, in Chinese. */
describe('a partial close from the close dialog', () => {
  let phone: Phone;
  let page: Page;
  let me: Registered;

  beforeAll(async () => {
    phone = await openPhone(baseURL);
    page = phone.page;
    me = await register(baseURL);
    expect((await callAs(baseURL, me, 'POST', '/api/exchanges/bind', { exchangeId: 1, apiKey: 'paperKey12345678', secretKey: 'paperSecret12345678' })).code).toBe(1);
    await storeSession(page, me);
  });
  afterAll(() => phone.close());

  it('offers 25 / 50 / 75 / 100 % and a field, estimates the part sold, refuses what cannot be sold, and sells half', async () => {
    const bot = (await callAs(baseURL, me, 'POST', '/api/user/botCreate', { type: 'martin', exchangeId: 1, symbol: 'ETH/USDT', params: martin })).data.id as string;
    expect((await callAs(baseURL, me, 'GET', `/api/user/botOperation?id=${bot}&action=start`)).code).toBe(1);
    await expect.poll(async () => (await callAs(baseURL, me, 'GET', `/api/user/botInfo?id=${bot}`)).data.positions).toBe(1);
    const held = (await callAs(baseURL, me, 'GET', `/api/user/botDetail?id=${bot}`)).data.amount as string;

    await page.goto(`/strategy/action/${bot}`);
    await page.getByTestId('manual-close').click();
    const dialog = page.getByRole('dialog');
    await dialog.getByTestId('close-part').waitFor();
    // 100 % by default: the whole position, the cycle ends, as the full close always did.
    expect(await dialog.getByTestId('close-preset-100').getAttribute('aria-pressed')).toBe('true');
    expect(await dialog.getByTestId('close-estimate').innerText()).toContain('无，本轮结束');
    const confirm = dialog.getByRole('button', { name: '平仓' });

    // What the server would refuse, the dialog says first, and the button waits.
    await dialog.getByTestId('close-amount').fill('0');
    await expect.poll(() => dialog.getByRole('alert').innerText()).toBe('请输入 1 到 100 之间的比例');
    expect(await confirm.isDisabled()).toBe(true);
    await dialog.getByTestId('close-amount').fill('99');
    await expect.poll(() => dialog.getByRole('alert').innerText()).toMatch(/^剩余 [\d.]+ ETH 将低于最小下单量，之后无法单独卖出：请少卖一些，或全部平仓$/);
    expect(await confirm.isDisabled()).toBe(true);

    // 50 %: half of what can be sold, rounded down to the 0.0001 ETH step, and the rest stays.
    await dialog.getByTestId('close-preset-50').click();
    const half = (Math.floor(Math.round(Number(held) * 10_000) / 2) / 10_000).toString();
    const estimate = dialog.getByTestId('close-estimate');
    await expect.poll(() => estimate.innerText()).toContain(`${half} ETH`);
    expect(await estimate.innerText()).toContain('(50%)');
    expect(await estimate.innerText()).toContain('预计盈亏');
    // By amount: the field takes the amount the share sells, and back.
    await dialog.getByText('按数量 ETH').click();
    await expect.poll(() => dialog.getByTestId('close-amount').inputValue()).toBe(half);
    await dialog.getByText('按比例 %').click();
    // The share that amount is, rounded down to 2 decimals: 50 when the position splits evenly into
    // steps, a little less when it does not (0.0022 of 0.0045 ETH is 48.88 %).
    const shareOfHalf = new Decimal(half).div(held).mul(100).toDecimalPlaces(2, Decimal.ROUND_DOWN).toFixed();
    await expect.poll(() => dialog.getByTestId('close-amount').inputValue()).toBe(shareOfHalf);
    // Back to the 50 % preset (the share above sells one step less when the position splits unevenly).
    await dialog.getByTestId('close-preset-50').click();
    await expect.poll(() => dialog.getByTestId('close-amount').inputValue()).toBe('50');
    await expect.poll(() => estimate.innerText()).toContain(`${half} ETH`);
    expect(await confirm.isDisabled()).toBe(false);
    await confirm.click();
    await page.waitForURL((u) => u.pathname.startsWith('/strategy/detail/'));

    // The bot runs on with the rest; the sale is logged as 手动平仓 50%, coloured by its profit's sign.
    const info = (await callAs(baseURL, me, 'GET', `/api/user/botInfo?id=${bot}`)).data;
    expect(info).toMatchObject({ status: 'running', positions: 1, cycle: 1 });
    expect(Number(info.profit)).not.toBe(0);
    const sale = (await callAs(baseURL, me, 'GET', `/api/user/botActions?id=${bot}&page_size=2`)).data.list[0];
    expect(sale).toMatchObject({ kind: 'manual_close', detail: { share: '50', amount: half } });
    const line = page.getByTestId('action-list').locator('li[data-kind="manual_close"]').first();
    await expect.poll(() => line.innerText()).toContain('手动平仓 50%');
    expect(await line.locator('strong').getAttribute('class')).toBeTruthy();
    expect(Number((await callAs(baseURL, me, 'GET', `/api/user/botDetail?id=${bot}`)).data.amount)).toBeGreaterThan(0);
  });
});
