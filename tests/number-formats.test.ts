import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openPhone, type Phone, gotoQuiet } from './support/browser.ts';
import { callAs, register, storeSession } from './support/session.ts';

const baseURL = inject('baseURL');

/** A figure as shown: its rule (data-figure), its text and its pair (the nearest data-symbol around it). */
interface Shown {
  kind: string;
  text: string;
  symbol: string | null;
}

function shownFigures(page: Page): Promise<Shown[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('[data-figure]')]
      .filter((el) => el.getClientRects().length > 0)
      .map((el) => ({ kind: el.dataset.figure ?? '', text: (el.textContent ?? '').trim(), symbol: el.closest('[data-symbol]')?.getAttribute('data-symbol') ?? null })),
  );
}

const decimalsOf = (step: string) => (step.includes('.') ? step.replace(/0+$/, '').split('.')[1]!.length : 0);
const grouped = '\\d{1,3}(,\\d{3})*';
const fixed = (decimals: number) => (decimals > 0 ? `\\.\\d{${decimals}}` : '');

/**
 * Each kind of figure and the one way it is written: a quote amount (USDT) at exactly 2 decimals, its
 * trailing zeros kept ("105.50"), with thousands separators ("72,133.00"); a price at its pair's tick;
 * a coin amount at its pair's step; a percentage at 2 decimals. Signs only where the figure has one.
 */
function rule(kind: string, pair: { tickSize: string; stepSize: string } | undefined): RegExp | string {
  if (kind === 'quote') return new RegExp(`^[+-]?${grouped}\\.\\d{2}$`);
  if (kind === 'percent') return new RegExp(`^[+-]?${grouped}\\.\\d{2}%$`);
  if (!pair) return 'a price or an amount with no pair around it (data-symbol) to read its tick or step from';
  if (kind === 'price') return new RegExp(`^${grouped}${fixed(decimalsOf(pair.tickSize))}$`);
  if (kind === 'amount') return new RegExp(`^${grouped}${fixed(decimalsOf(pair.stepSize))}$`);
  return `an unknown kind of figure "${kind}"`;
}

/**
 * Every main screen, at 390 x 844 in zh and en, with running Paper bots: each figure marked as money
 * (data-figure) follows its rule. BTC/USDT (tick 0.01, step 0.00001) and DOGE/USDT (tick 0.00001, step
 * 1) give prices and amounts of both sizes; a first order of 20.50 USDT shows a quote ending in zero.
 */
describe('number formats on every main screen', () => {
  let phone: Phone;
  const bots: Record<'btc' | 'doge', string> = { btc: '', doge: '' };
  let pairs = new Map<string, { tickSize: string; stepSize: string }>();
  beforeAll(async () => {
    phone = await openPhone(baseURL);
    const user = await register(baseURL);
    expect((await callAs(baseURL, user, 'POST', '/api/exchanges/bind', { exchangeId: 1, apiKey: 'paperKey12345678', secretKey: 'paperSecret12345678' })).code).toBe(1);
    const params = { investment: '1000', firstOrder: '20.5', multiplier: '1.5', maxPositions: 4, addTrigger: '3', takeProfit: '5', stopLoss: '', repeat: true };
    for (const [key, symbol] of [
      ['btc', 'BTC/USDT'],
      ['doge', 'DOGE/USDT'],
    ] as const) {
      bots[key] = (await callAs(baseURL, user, 'POST', '/api/user/botCreate', { type: 'martin', exchangeId: 1, symbol, name: `Figures ${key}`, params })).data.id;
      expect((await callAs(baseURL, user, 'GET', `/api/user/botOperation?id=${bots[key]}&action=start`)).code).toBe(1);
    }
    // Both first orders filled: the screens then show an average price, a holding and a cost.
    for (const id of Object.values(bots)) {
      const deadline = Date.now() + 15_000;
      while (!(Number((await callAs(baseURL, user, 'GET', `/api/user/botDetail?id=${id}`)).data.amount) > 0)) {
        if (Date.now() > deadline) throw new Error(`bot ${id} bought nothing in 15 s`);
        await new Promise((r) => setTimeout(r, 300));
      }
    }
    const symbols = (await callAs<{ symbol: string; tickSize: string; stepSize: string }[]>(baseURL, user, 'GET', '/api/market/symbols?exchange=paper')).data;
    pairs = new Map(symbols.map((s) => [s.symbol, s]));
    await storeSession(phone.page, user);
  });
  afterAll(() => phone.close());

  it('writes each money figure by its rule: quote at 2 places, prices at the tick, amounts at the step, percentages at 2, grouped by thousands', { timeout: 240_000 }, async () => {
    const { page } = phone;
    // Each path with what shows once its figures are in (a test id).
    const routes: [path: string, ready: string][] = [
      ['/', 'portfolio-total'],
      ['/strategy', 'bot-card'],
      [`/strategy/detail/${bots.btc}`, 'adds-table'],
      [`/strategy/detail/${bots.doge}`, 'adds-table'],
      ['/strategy/bill', 'bill-total'],
      ['/my/positions', 'open-positions'],
      ['/my/asset/balance', 'asset-balance'],
      ['/market', 'market-row'],
      ['/market?symbol=DOGE%2FUSDT', 'symbol-head'],
      ['/simulation', 'sim-balances'],
      ['/my', 'portfolio-total'],
    ];
    const kinds = new Set<string>();
    for (const language of ['zh', 'en'] as const) {
      await page.evaluate((l) => localStorage.setItem('theme-storage', JSON.stringify({ theme: 'light', language: l })), language);
      for (const [path, ready] of routes) {
        const where = `${path} (${language})`;
        await gotoQuiet(page, path);
        await page.getByTestId(ready).first().waitFor();
        await expect.poll(() => page.locator('[aria-busy="true"]').count(), { message: where }).toBe(0);
        // Figures still loading show a dash: wait until every marked figure has its digits.
        await expect.poll(async () => (await shownFigures(page)).filter((f) => /\d/.test(f.text)).length, { message: `${where}: figures shown` }).toBeGreaterThan(0);
        await page.waitForTimeout(300);
        const wrong: string[] = [];
        for (const f of await shownFigures(page)) {
          if (f.text === '—') continue;
          kinds.add(f.kind);
          const expected = rule(f.kind, f.symbol ? pairs.get(f.symbol) : undefined);
          if (typeof expected === 'string') wrong.push(`${f.kind} "${f.text}": ${expected}`);
          else if (!expected.test(f.text)) wrong.push(`${f.kind} "${f.text}"${f.symbol ? ` (${f.symbol})` : ''}`);
        }
        expect.soft(wrong, where).toEqual([]);
      }
    }
    expect([...kinds].sort()).toEqual(['amount', 'percent', 'price', 'quote']);
  });
});
