import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openPhone, type Phone, gotoQuiet } from './support/browser.ts';
import { callAs, register, storeSession } from './support/session.ts';

const baseURL = inject('baseURL');

interface Layout {
  /** document.documentElement.scrollWidth: above the viewport's width, the whole page scrolls sideways. */
  scrollWidth: number;
  /** Elements past the left or right edge that no sideways-scrolling row holds. */
  pastEdge: string[];
  /** Chips, tabs, buttons and links drawn as buttons whose own box is under 44 px high. */
  short: string[];
  /** Rows of chips wider than their box that show no fade at an edge with more chips behind it. */
  unfaded: string[];
  /** Rows of chips that fit and still fade an edge. */
  needlessFade: string[];
}

/** The page as drawn: what lies past the screen's edges, what is too short to tap, which scrolling rows hint at more. */
function layout(page: Page): Promise<Layout> {
  return page.evaluate(() => {
    const describe = (el: Element) => {
      const r = el.getBoundingClientRect();
      return `<${el.tagName.toLowerCase()}> "${(el.textContent ?? el.getAttribute('aria-label') ?? '').trim().slice(0, 24)}" ${Math.round(r.left)}..${Math.round(r.right)} h${Math.round(r.height)}`;
    };
    const scrollsSideways = (el: Element) => {
      const { overflowX } = getComputedStyle(el);
      return overflowX === 'auto' || overflowX === 'scroll';
    };
    // A row that scrolls sideways and itself lies within the screen: what it holds may lie past the edge.
    const inScroller = (el: Element) => {
      for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
        if (scrollsSideways(a)) {
          const r = a.getBoundingClientRect();
          return r.left >= -0.5 && r.right <= innerWidth + 0.5;
        }
      }
      return false;
    };
    const visible = (el: Element) => {
      const r = el.getBoundingClientRect();
      return r.width > 0 && r.height > 0 && getComputedStyle(el).visibility !== 'hidden';
    };
    // A link counts as a button when it is drawn as one (a border or a fill), not a link in running text.
    const drawnAsButton = (el: Element) => {
      const s = getComputedStyle(el);
      return s.display !== 'inline' && (Number.parseFloat(s.borderTopWidth) > 0 || Number.parseFloat(s.borderBottomWidth) > 0 || s.backgroundColor !== 'rgba(0, 0, 0, 0)');
    };
    // The fade is a mask whose gradient stops are 0 px at an edge that does not fade.
    const fades = (el: Element) => /(^|[^\d.])([1-9]\d*(\.\d+)?|0\.\d*[1-9])px/.test(getComputedStyle(el).maskImage);
    const pastEdge: string[] = [];
    const short: string[] = [];
    const unfaded: string[] = [];
    const needlessFade: string[] = [];
    for (const el of document.body.querySelectorAll('*')) {
      if (!visible(el)) continue;
      const r = el.getBoundingClientRect();
      if ((r.right > innerWidth + 0.5 || r.left < -0.5) && !inScroller(el)) pastEdge.push(describe(el));
      const target = el.matches('button, [role="tab"], [role="button"], label:has(> input[type="radio"])') || (el.matches('a[href]') && drawnAsButton(el));
      if (target && r.height < 44 - 0.01) short.push(describe(el));
      // A row of chips (not a carousel of banners): targets of a chip's height side by side.
      const chipRow = el.children.length > 1 && [...el.children].every((c) => c.matches('button, a, label, [role="tab"]') && c.getBoundingClientRect().height <= 48);
      if (chipRow && scrollsSideways(el)) {
        if (el.scrollWidth > el.clientWidth + 1 && !fades(el)) unfaded.push(describe(el));
        if (el.scrollWidth <= el.clientWidth && fades(el)) needlessFade.push(describe(el));
      }
    }
    return { scrollWidth: document.documentElement.scrollWidth, pastEdge, short, unfaded, needlessFade };
  });
}

/**
 * At 320 px, the narrowest phones: chips and tabs are 44 px tap targets, a row of chips too wide for the
 * screen scrolls inside itself (with a fade at the edge it continues past) and nothing else reaches past
 * the edge or makes the page scroll sideways.
 */
describe('chip rows and tap targets at 320 px', () => {
  let phone: Phone;
  let bot = '';
  beforeAll(async () => {
    phone = await openPhone(baseURL);
    await phone.page.setViewportSize({ width: 320, height: 700 });
    const user = await register(baseURL);
    expect((await callAs(baseURL, user, 'POST', '/api/exchanges/bind', { exchangeId: 1, apiKey: 'paperKey12345678', secretKey: 'paperSecret12345678' })).code).toBe(1);
    const params = { investment: '1000', firstOrder: '20', multiplier: '2', maxPositions: 5, addTrigger: '0.5', takeProfit: '0.5', stopLoss: '', repeat: true };
    bot = (await callAs(baseURL, user, 'POST', '/api/user/botCreate', { type: 'martin', exchangeId: 1, symbol: 'BTC/USDT', name: 'Narrow', params })).data.id;
    expect((await callAs(baseURL, user, 'GET', `/api/user/botOperation?id=${bot}&action=start`)).code).toBe(1);
    await storeSession(phone.page, user);
  });
  afterAll(() => phone.close());

  it('keeps every main screen within 320 px in zh and en: chips and buttons 44 px high, wide chip rows scrolling with a fade', { timeout: 240_000 }, async () => {
    const { page } = phone;
    // Each path with what shows once its data is in (a test id), or its title when it has none to wait for.
    const routes: [path: string, ready?: string][] = [
      ['/', 'portfolio-total'],
      ['/strategy', 'bot-list'],
      [`/strategy/detail/${bot}`, 'bot-returns'],
      ['/strategy/bill'],
      ['/strategy/logs'],
      ['/strategy/custom', 'custom-explain'],
      ['/strategy/dca', 'dca-funds'],
      ['/strategy/ai'],
      ['/simulation', 'sim-bots'],
      ['/market', 'market-row'],
      ['/market?symbol=BTC%2FUSDT', 'symbol-head'],
      ['/rank'],
      ['/my'],
      ['/my/asset/balance', 'asset-balance'],
      ['/my/positions', 'open-positions'],
      ['/notice/list'],
      ['/referral'],
      ['/setting'],
    ];
    for (const language of ['zh', 'en'] as const) {
      await page.evaluate((l) => localStorage.setItem('theme-storage', JSON.stringify({ theme: 'light', language: l })), language);
      for (const [path, ready] of routes) {
        const where = `${path} (${language})`;
        await gotoQuiet(page, path);
        await (ready ? page.getByTestId(ready).first() : page.locator('main h1')).waitFor();
        await expect.poll(() => page.locator('[aria-busy="true"]').count(), { message: where }).toBe(0);
        await page.waitForTimeout(200); // late figures settle the layout
        const result = await layout(page);
        expect.soft(result.scrollWidth, where).toBeLessThanOrEqual(320);
        expect.soft(result.pastEdge, where).toEqual([]);
        expect.soft(result.short, where).toEqual([]);
        expect.soft(result.unfaded, where).toEqual([]);
        expect.soft(result.needlessFade, where).toEqual([]);
      }
    }
  });
});
