import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openPhone, type Phone } from './support/browser.ts';
import { callAs, PASSWORD, register, storeSession } from './support/session.ts';

const baseURL = inject('baseURL');
// Paper's account holds 10,000 USDT: the wide figures come from the bot's budget and first order.
const martin = { investment: '9000', firstOrder: '1234.56', multiplier: '1.5', maxPositions: 3, addTrigger: '2', takeProfit: '1.2', stopLoss: '8', repeat: true };

/** What a trader would see as broken on a 320 px screen (issue 14), measured on the page as it is drawn. */
interface Breakage {
  /** Figures (a number with its sign, %, unit or "a / b") whose text takes two lines. */
  broken: string[];
  figures: number;
  /** The page scrolls sideways. */
  overflow: boolean;
  /** Elements whose right edge is past the screen's, outside a row made to scroll sideways (chips, banners). */
  pastEdge: string[];
  /** Buttons, links and tabs whose words run past their own border (not a name cut with an ellipsis). */
  spilling: string[];
}

async function breakage(page: Page): Promise<Breakage> {
  return page.evaluate(() => {
    const numeric = /^[+-]?[\d,]+(\.\d+)?%?( [A-Z]{3,5})?( \/ [\d,]+(\.\d+)?)?$/;
    const describe = (el: Element) => `<${el.tagName.toLowerCase()}> "${(el.textContent ?? '').trim().slice(0, 40)}"`;
    // Inside a sideways-scrolling row that itself ends within the screen, an element may lie past the edge: the row scrolls to it.
    const inScroller = (el: Element) => {
      for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
        const { overflowX } = getComputedStyle(a);
        if (overflowX === 'auto' || overflowX === 'scroll') return a.getBoundingClientRect().right <= innerWidth + 0.5;
      }
      return false;
    };
    const broken: string[] = [];
    const pastEdge: string[] = [];
    const spilling: string[] = [];
    let figures = 0;
    for (const el of document.body.querySelectorAll('*')) {
      const rect = el.getBoundingClientRect();
      if (rect.width === 0 || rect.height === 0) continue;
      if (rect.right > innerWidth + 0.5 && !inScroller(el)) pastEdge.push(`${describe(el)} right=${Math.round(rect.right)}`);
      if (el.matches('button, a, [role="tab"]')) {
        // Its words against its content box (inside border and padding); a hit area drawn by ::after does not count.
        const style = getComputedStyle(el);
        const left = rect.left + Number.parseFloat(style.borderLeftWidth) + Number.parseFloat(style.paddingLeft);
        const right = rect.right - Number.parseFloat(style.borderRightWidth) - Number.parseFloat(style.paddingRight);
        const words = document.createRange();
        words.selectNodeContents(el);
        const spills = [...words.getClientRects()].some((r) => r.width > 0 && (r.left < left - 1 || r.right > right + 1));
        if (spills && style.textOverflow !== 'ellipsis') spilling.push(describe(el));
      }
      // Elements holding only text (React may split "19.62 / 1,000" into three text nodes of one element).
      if (el.children.length > 0 || !el.closest('main')) continue;
      const text = el.textContent?.trim() ?? '';
      if (!numeric.test(text) || text.length < 4) continue;
      figures++;
      const range = document.createRange();
      range.selectNodeContents(el);
      const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
      if (lines.size > 1) broken.push(text);
    }
    return { broken, figures, overflow: document.documentElement.scrollWidth > innerWidth, pastEdge, spilling };
  });
}

/** At 320 px (the narrowest phones), in English and Chinese: every logged-in screen holds (issue 14). */
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
    // A payment password set: its security notice stays unread, so the notices screen shows 全部已读 / Mark all read in its header.
    expect((await callAs(baseURL, user, 'POST', '/api/user/password', { type: 'payment', old: PASSWORD, password: '135790', confirm: '135790' })).code).toBe(1);
    await storeSession(phone.page, user);
  });
  afterAll(() => phone.close());

  it('breaks no number, spills no button and puts nothing past the right edge on any logged-in screen, in en and zh', { timeout: 240_000 }, async () => {
    const { page } = phone;
    // Each path with what shows once its data is in (a test id), or only its title when it has no data to wait for.
    const routes: [path: string, ready?: string][] = [
      [`/strategy/detail/${bot}`, 'bot-returns'],
      [`/strategy/action/${bot}`],
      ['/', 'portfolio-total'],
      ['/strategy', 'bot-list'],
      ['/strategy/martin', 'levels-total'],
      ['/strategy/grid'],
      ['/strategy/ai'],
      ['/strategy/bill'],
      ['/strategy/logs'],
      ['/strategy/size', 'levels-total'],
      ['/simulation', 'sim-bots'],
      ['/my'],
      ['/my/asset/balance', 'asset-balance'],
      ['/my/positions', 'open-positions'],
      ['/my/deposit'],
      ['/my/withdraw'],
      ['/my/profile'],
      ['/my/security'],
      ['/portfolio'],
      ['/market'],
      ['/futures'],
      ['/rank'],
      ['/referral'],
      ['/referral/list'],
      ['/referral/rule'],
      ['/team'],
      ['/notice/list', 'read-all'],
      ['/setting'],
      ['/lang'],
      ['/about', 'app-version'],
      ['/bind', 'exchange-list'],
      ['/legal/agreement'],
    ];
    for (const language of ['en', 'zh'] as const) {
      await page.evaluate((l) => localStorage.setItem('theme-storage', JSON.stringify({ theme: 'light', language: l })), language);
      for (const [path, ready] of routes) {
        const where = `${path} (${language})`;
        await page.goto(path, { waitUntil: 'networkidle' });
        await (ready ? page.getByTestId(ready).first() : page.locator('main h1')).waitFor();
        await expect.poll(() => page.locator('[aria-busy="true"]').count(), { message: where }).toBe(0);
        if (ready && ['bot-returns', 'portfolio-total', 'open-positions', 'asset-balance'].includes(ready)) {
          await expect.poll(async () => (await breakage(page)).figures, { message: where }).toBeGreaterThan(2);
        }
        const result = await breakage(page);
        expect.soft(result.broken, where).toEqual([]);
        expect.soft(result.overflow, where).toBe(false);
        expect.soft(result.pastEdge, where).toEqual([]);
        expect.soft(result.spilling, where).toEqual([]);
      }
    }
  });
});
