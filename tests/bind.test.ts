import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openPhone, type Phone } from './support/browser.ts';
import { callAs, register, storeSession, type Registered } from './support/session.ts';

const baseURL = inject('baseURL');

const CJK = /[\u3000-\u303f\u3400-\u9fff\uff00-\uffef]/;
/** The martin bot the language tests create through the API, unnamed: the server names it in the request's language. */
const martin = { investment: '1000', firstOrder: '20', multiplier: '2', maxPositions: 5, addTrigger: '2', takeProfit: '1.2', stopLoss: '', repeat: true };

/**
 * The bind screen and the names around it: a refusal said once, no loopback address offered
 * for a whitelist, the next step after a bind, and the bot screens free of the other language. Each test
 * has its own phone and trader.
 */
describe('binding an exchange, and the names the trader reads', () => {
  let phone: Phone | undefined;
  let page: Page;
  let user: Registered;
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

  const inLanguage = (language: 'zh' | 'en') => page.evaluate((l) => localStorage.setItem('theme-storage', JSON.stringify({ theme: 'light', language: l })), language);
  const bindPaper = async () => {
    expect((await callAs(baseURL, user, 'POST', '/api/exchanges/bind', { exchangeId: 1, apiKey: 'paperKey12345678', secretKey: 'paperSecret12345678' })).code).toBe(1);
  };
  /** Everything on screen: the page and any toast. */
  const shown = () => page.locator('body').innerText();
  const occurrences = async (text: string) => (await shown()).split(text).length - 1;

  it('shows a refused bind once, under its button, and no toast as well', async () => {
    await page.goto('/bind/paper');
    await page.locator('input[name="apiKey"]').fill('not a key!');
    await page.locator('input[name="secretKey"]').fill('paperSecret12345678');
    await page.locator('form button[type="submit"]').click();
    const refused = '添加失败，请检查密钥是否正确';
    await expect.poll(() => page.locator('form [role="alert"]').innerText()).toBe(refused);
    // A toast would have come with the answer: wait past it, then count.
    await page.waitForTimeout(1000);
    expect(await occurrences(refused)).toBe(1);
    expect(await page.locator('[data-kind="error"]').count()).toBe(0);
    // Sent again, it still says it once; and a bound exchange's refused update likewise.
    await page.locator('form button[type="submit"]').click();
    await page.waitForTimeout(1000);
    expect(await occurrences(refused)).toBe(1);
    await bindPaper();
    await page.reload();
    await page.getByTestId('binding').waitFor();
    await page.locator('input[name="apiKey"]').fill('still not a key!');
    await page.locator('input[name="secretKey"]').fill('paperSecret12345678');
    await page.locator('form button[type="submit"]').click();
    await expect.poll(() => page.locator('form [role="alert"]').innerText()).toBe('更新失败，请检查密钥是否正确');
    await page.waitForTimeout(1000);
    expect(await occurrences('更新失败，请检查密钥是否正确')).toBe(1);
  });

  it('never offers a loopback address for the whitelist: says the operator has not configured the server IPs (zh and en)', async () => {
    // The test server runs with SERVER_IPS unset: 127.0.0.1.
    expect((await callAs(baseURL, user, 'GET', '/api/market/exchanges')).data.ips).toEqual(['127.0.0.1']);
    await page.goto('/bind/binance');
    await page.getByTestId('ips-unconfigured').waitFor();
    expect(await page.getByTestId('server-ip').count()).toBe(0);
    const zh = await page.getByTestId('ip-card').innerText();
    expect(zh).toContain('服务器出口 IP 未配置');
    expect(zh).toContain('运营方尚未配置服务器的公网出口 IP');
    expect(zh).toContain('请不要按本页设置 IP 白名单');
    expect(zh).not.toContain('127.0.0.1');
    await inLanguage('en');
    await page.reload();
    await expect.poll(() => page.getByTestId('ip-card').innerText()).toContain('Server egress IPs not configured');
    const en = await page.getByTestId('ip-card').innerText();
    expect(en).toContain("The operator has not configured the server's public egress IPs");
    expect(en).toContain('Do not set an IP whitelist from this screen');
    expect(en).not.toMatch(CJK);
  });

  it('offers the next step after a bind: a bot on the exchange just bound, chosen in the form', async () => {
    await bindPaper(); // the first binding: the create form would pick it unless told otherwise
    await page.goto('/bind/binancesim');
    await page.locator('input[name="apiKey"]').fill('simKey12345678');
    await page.locator('input[name="secretKey"]').fill('simSecret12345678');
    expect(await page.getByTestId('bind-next').count()).toBe(0);
    await page.locator('form button[type="submit"]').click();
    await page.getByTestId('bind-next').waitFor();
    expect(await page.getByTestId('bind-next').innerText()).toContain('绑定成功，下一步：创建策略');
    expect(await page.getByTestId('bind-next').innerText()).toContain('策略会用 Binance 模拟 账户的资金自动交易');
    expect(await page.getByTestId('bind-next-martin').innerText()).toBe('创建马丁格尔策略');
    await page.getByTestId('bind-next-martin').click();
    await page.waitForURL((u) => u.pathname === '/strategy/martin' && u.searchParams.get('exchange') === 'binancesim');
    await expect.poll(() => page.locator('#bot-exchange').inputValue()).toBe('102');
    expect(await page.locator('#bot-exchange option:checked').innerText()).toBe('Binance 模拟');
  });

  it('shows no Chinese on the en bot list and create screen for a Paper bot, and the bot is named in English', async () => {
    await inLanguage('en');
    await bindPaper();
    await page.goto('/strategy/martin?exchange=paper');
    await expect.poll(() => page.getByTestId('market-price').innerText()).toMatch(/\d/);
    expect(await page.locator('#bot-exchange option:checked').innerText()).toBe('Paper');
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe('Create Martingale bot');
    expect(await shown()).not.toMatch(CJK);
    // Left unnamed, the bot is named in the UI language.
    await page.getByTestId('save-bot').click();
    await page.waitForURL((u) => u.pathname.startsWith('/strategy/detail/'));
    await page.goto('/strategy');
    await expect.poll(() => page.getByTestId('bot-card').count()).toBe(1);
    const card = await page.getByTestId('bot-card').innerText();
    expect(card).toContain('BTC/USDT · Martingale');
    expect(card).toContain('Paper · Martingale');
    expect(await shown()).not.toMatch(CJK);
    // The server named it in English; a bot named in Chinese (created from a zh screen) still reads in English here.
    expect((await callAs(baseURL, user, 'GET', '/api/user/botList')).data.list[0].name).toBe('BTC/USDT Martingale');
    expect((await callAs(baseURL, user, 'POST', '/api/user/botCreate', { type: 'martin', exchangeId: 1, symbol: 'ETH/USDT', params: martin })).data.name).toBe('ETH/USDT 马丁格尔');
    await page.reload();
    await expect.poll(() => page.getByTestId('bot-card').count()).toBe(2);
    expect(await page.getByTestId('bot-list').innerText()).toContain('ETH/USDT · Martingale');
    expect(await shown()).not.toMatch(CJK);
  });

  it('shows no stray English names on the zh bot list and create screen: 模拟盘, 马丁格尔', async () => {
    await bindPaper();
    await page.goto('/strategy/martin');
    await expect.poll(() => page.getByTestId('market-price').innerText()).toMatch(/\d/);
    expect(await page.locator('#bot-exchange option:checked').innerText()).toBe('模拟盘');
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe('创建马丁格尔策略');
    expect(await shown()).not.toMatch(/Martin|Paper|Grid/);
    // Created through the API in zh, unnamed: named in Chinese; and one with the name bots got before (English, whatever the language).
    const created = await callAs(baseURL, user, 'POST', '/api/user/botCreate', { type: 'martin', exchangeId: 1, symbol: 'ETH/USDT', params: martin });
    expect(created.data.name).toBe('ETH/USDT 马丁格尔');
    expect((await callAs(baseURL, user, 'POST', '/api/user/botCreate', { type: 'martin', exchangeId: 1, symbol: 'BTC/USDT', name: 'BTC/USDT Martin', params: martin })).code).toBe(1);
    await page.goto('/strategy');
    await expect.poll(() => page.getByTestId('bot-card').count()).toBe(2);
    const list = await page.getByTestId('bot-list').innerText();
    expect(list).toContain('ETH/USDT · 马丁格尔');
    expect(list).toContain('BTC/USDT · 马丁格尔');
    expect(list).toContain('模拟盘 · 马丁格尔');
    expect(await shown()).not.toMatch(/Martin|Paper|Grid/);
    await page.goto('/bind');
    await expect.poll(() => page.getByTestId('exchange-list').innerText()).toContain('模拟盘 · 虚拟资金');
  });
});
