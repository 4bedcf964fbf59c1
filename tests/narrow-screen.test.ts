import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openPhone, type Phone } from './support/browser.ts';
import { callAs, register, storeSession } from './support/session.ts';

const baseURL = inject('baseURL');
// Paper's account holds 10,000 USDT: the wide figures come from the bot's budget and first order.
const martin = { investment: '9000', firstOrder: '1234.56', multiplier: '1.5', maxPositions: 3, addTrigger: '2', takeProfit: '1.2', stopLoss: '8', repeat: true };

/**
 * Every figure on the page that is a number (with its sign, %, or "a / b"): how many lines its text
 * takes (a number broken across lines takes two), and whether the page is wider than the screen.
 */
async function brokenFigures(page: Page): Promise<{ broken: string[]; figures: number; overflow: boolean }> {
  return page.evaluate(() => {
    const numeric = /^[+-]?[\d,]+(\.\d+)?%?( \/ [\d,]+(\.\d+)?)?$/;
    const broken: string[] = [];
    let figures = 0;
    // Elements holding only text (React may split "19.62 / 1,000" into three text nodes of one element).
    for (const el of (document.querySelector('main') ?? document.body).querySelectorAll('*')) {
      if (el.children.length > 0) continue;
      const text = el.textContent?.trim() ?? '';
      if (!numeric.test(text) || text.length < 4) continue;
      figures++;
      const range = document.createRange();
      range.selectNodeContents(el);
      const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
      if (lines.size > 1) broken.push(text);
    }
    return { broken, figures, overflow: document.documentElement.scrollWidth > innerWidth };
  });
}

/** At 320 px (the narrowest phones), in English, the longest words: titles and figures never break mid-number (issue 14). */
describe('at 320 px', () => {
  let phone: Phone;
  let bot = '';
  beforeAll(async () => {
    phone = await openPhone(baseURL);
    await phone.page.setViewportSize({ width: 320, height: 700 });
    const user = await register(baseURL);
    expect((await callAs(baseURL, user, 'POST', '/api/exchanges/bind', { exchangeId: 1, apiKey: 'paperKey12345678', secretKey: 'paperSecret12345678' })).code).toBe(1);
    bot = (await callAs(baseURL, user, 'POST', '/api/user/botCreate', { type: 'martin', exchangeId: 1, symbol: 'BTC/USDT', name: 'Wide', params: martin })).data.id;
    expect((await callAs(baseURL, user, 'GET', `/api/user/botOperation?id=${bot}&action=start`)).code).toBe(1);
    await storeSession(phone.page, user);
    await phone.page.evaluate(() => localStorage.setItem('theme-storage', JSON.stringify({ theme: 'light', language: 'en' })));
  });
  afterAll(() => phone.close());

  it('breaks no number on the bot detail, home, positions and asset screens, and nothing is wider than the screen', async () => {
    const { page } = phone;
    for (const [path, ready] of [
      [`/strategy/detail/${bot}`, 'bot-returns'],
      ['/', 'portfolio-total'],
      ['/my/positions', 'open-positions'],
      ['/my/asset/balance', 'asset-balance'],
    ] as const) {
      await page.goto(path);
      await page.getByTestId(ready).first().waitFor();
      await expect.poll(async () => (await brokenFigures(page)).figures, { message: path }).toBeGreaterThan(2);
      const result = await brokenFigures(page);
      expect(result.broken, path).toEqual([]);
      expect(result.overflow, path).toBe(false);
    }
  });
});
